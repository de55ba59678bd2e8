/**
 * A trace keeps runs of no-op firings as one slot each: whatever order hooks fire in, the
 * entries it lists are exactly the ones recorded, in order.
 */
import { describe, expect, it } from "vitest";
import { type HookTraceEntry, type QuietHook, TraceLog } from "./trace.js";

function quietHook(name: string): QuietHook {
  const quietEntry: HookTraceEntry = Object.freeze({
    event: "tool_call",
    hook: name,
    kind: "transform",
    effect: "continue",
  });
  return { quietEntry, nextQuiet: undefined };
}

/** A small deterministic generator (no dependency on Math.random). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe("TraceLog", () => {
  it("lists exactly the firings recorded, in order, for random sequences over shared hooks", () => {
    // The hooks are shared by every trace (as an agent's are by its runs): what one trace
    // learned of the order they fire in must not change what another lists.
    const hooks = Array.from({ length: 6 }, (_, index) => quietHook(`h${index}`));
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const log = new TraceLog(seed % 3 === 0 ? 0 : 16);
      const expected: HookTraceEntry[] = [];
      const length = Math.floor(next() * 60);
      for (let step = 0; step < length; step++) {
        const pick = next();
        if (pick < 0.15) {
          const entry: HookTraceEntry = {
            event: "tool_call",
            hook: "answered",
            kind: "decide",
            effect: "deny",
          };
          log.record(entry);
          expected.push(entry);
        } else if (pick < 0.2) {
          const restored = [hooks[0]!.quietEntry, hooks[1]!.quietEntry];
          log.restore(restored);
          expected.push(...restored);
        } else {
          // Mostly in order (how a seam fires), sometimes any hook.
          const hook = pick < 0.8 ? hooks[step % hooks.length]! : hooks[Math.floor(next() * hooks.length)]!;
          log.recordQuiet(hook);
          expected.push(hook.quietEntry);
        }
      }
      expect(log.events(), `seed ${seed}`).toEqual(expected);
      expect(log.events().every((entry, index) => entry === expected[index])).toBe(true);
    }
  });

  it("keeps a seam's run of no-op firings in one slot", () => {
    const hooks = Array.from({ length: 50 }, (_, index) => quietHook(`h${index}`));
    const log = new TraceLog(0);
    for (let round = 0; round < 10; round++) for (const hook of hooks) log.recordQuiet(hook);
    expect(log.events()).toHaveLength(500);
    expect(log.events()[499]).toBe(hooks[49]!.quietEntry);
    // Every round continues the one run: h49 is followed by h0 from the second round on.
    expect(log.size).toBe(1);
  });
});
