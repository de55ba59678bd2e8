/**
 * The hook fields beside cooldown and max_fires that docs/config.md documents:
 * `rate_limit` (a sliding window), `limit_scope`, and `on_error` on a blocking hook whose
 * condition fails. Both surfaces, `run()` and `stream()`. Time is the test's: only `Date`
 * is faked (limits read `Date.now()`), so the loop's own timers stay real.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type LoadedConfig, loadConfig } from "../../src/config/load-config.js";
import type { HookLogger, RunResult } from "../../src/index.js";
import { scriptedModel } from "../../src/models/scripted-model.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { resolveTool } from "../../src/tools/index.js";
import { runOn, SURFACES } from "../../test/support/surfaces.js";

const DIR = fileURLToPath(new URL(".", import.meta.url));
const START = Date.UTC(2025, 0, 1);

const opened: LoadedConfig[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((loaded) => loaded.close()));
});

async function load(file: string, logger?: HookLogger) {
  const loaded = await loadConfig(join(DIR, file), {
    store: new MemoryStore(),
    ...(logger ? { logger } : {}),
  });
  opened.push(loaded);
  return loaded;
}

const fired = (result: RunResult) => result.events.map((entry) => entry.hook);

describe.each(SURFACES)("on %s()", (surface) => {
  /** Runs one turn per offset (ms after START) in one session; returns the hooks each turn fired. */
  async function turnsAt(loaded: LoadedConfig, offsets: readonly number[], sessionId?: string) {
    vi.useFakeTimers({ toFake: ["Date"] });
    const agent = await loaded.createAgent(undefined, {
      model: scriptedModel(offsets.map(() => ({ text: "ok" }))),
    });
    const hooks: string[][] = [];
    // A session of the test's own: the in-memory store does not keep a run's given none.
    let session = sessionId ?? randomUUID();
    for (const offset of offsets) {
      vi.setSystemTime(START + offset);
      const { result } = await runOn(surface, agent, "go", session ? { sessionId: session } : {});
      session = result.sessionId;
      hooks.push(fired(result));
    }
    return hooks;
  }

  it("rate_limit { max: 2, per_seconds: 60 } fires at most twice in any 60 s window", async () => {
    const loaded = await load("limits.yaml");
    const hooks = await turnsAt(loaded, [0, 1_000, 2_000, 30_000, 61_000, 62_000, 63_000]);
    expect(hooks.map((list) => list.includes("rate-limited"))).toEqual([
      true,
      true,
      false,
      false,
      true, // the fire at 0 s left the window
      true, // and the one at 1 s
      false,
    ]);
  });

  it("limit_scope: global shares one max_fires count between sessions; the default is per session", async () => {
    const loaded = await load("limits.yaml");
    const first = await turnsAt(loaded, [0]);
    const second = await turnsAt(loaded, [120_000]); // another session, outside every window
    expect(first[0]).toEqual(["rate-limited", "once-ever", "capped-and-rate-limited"]);
    expect(second[0]).toEqual(["rate-limited", "capped-and-rate-limited"]);
  });

  // Was a bug (fixed; src/config/build/compile-hook.ts ~lines 52-62): max_fires is counted before rate_limit is
  // checked, so a trigger that the rate limit holds back still uses up the lifetime cap
  // (cooldown, checked first, does not have this problem). Here the turns at 1 s and 2 s
  // are rate-limited but counted: the turn at 61 s, inside the rate limit, does not fire,
  // although the hook fired once of its max_fires: 2.
  it("a trigger held back by rate_limit does not use up max_fires", async () => {
    const loaded = await load("limits.yaml");
    const hooks = await turnsAt(loaded, [0, 1_000, 2_000, 61_000]);
    expect(hooks.map((list) => list.includes("capped-and-rate-limited"))).toEqual([true, false, false, true]);
  });

  it("a blocking hook whose condition throws fails closed; on_error: fail_open lets the tool run", async () => {
    const warnings: string[] = [];
    const loaded = await load("failure.yaml", {
      debug() {},
      info() {},
      warn: (message) => warnings.push(message),
      error() {},
    });
    const ran: string[] = [];
    const tool = (toolset: string) =>
      resolveTool(
        "read",
        {
          description: "read a file",
          inputSchema: { type: "object", properties: {} },
          execute: () => {
            ran.push(toolset);
            return "contents";
          },
        },
        { toolset },
      );
    const agent = await loaded.createAgent(undefined, {
      model: scriptedModel([
        { tool_calls: [{ name: "strict_read" }, { name: "lenient_read" }] },
        { text: "ok" },
      ]),
      tools: [tool("strict"), tool("lenient")],
    });
    const { result } = await runOn(surface, agent, "read");
    expect(ran).toEqual(["lenient"]);
    const [strict, lenient] = result.steps[0]!.toolResults;
    expect(strict).toMatchObject({ executed: false, isError: true });
    expect(strict!.result).toMatch(
      /^tool not run: hook "etc-guard" on tool_call: threw: failed: No such key: path/,
    );
    expect(lenient).toMatchObject({ executed: true, result: "contents" });
    expect(result.events.map((entry) => [entry.hook, entry.effect])).toEqual([
      ["etc-guard", "error"],
      ["lenient-etc-guard", "fail_open"],
    ]);
    expect(warnings).toEqual([
      expect.stringContaining('hook failed open (onError: fail_open): hook "lenient-etc-guard"'),
    ]);
  });
});
