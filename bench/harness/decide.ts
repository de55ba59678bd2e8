/**
 * The decision alone, in process: a config loaded once, then one PreToolUse event after
 * another through it, store in memory. Measured against a floor, a config that guards the
 * harness with no rule at all (the event's own cost: its scratchpad read, its dispatch), the
 * two taken in turns, batch by batch, so both see the same load: the figure is the median
 * batch of each, and the rules' own cost is the median of their differences, round by round.
 *
 * Run as it ships, compiled by the bundler (bench/harness/run.ts builds and starts it): under
 * tsx every closure a decision makes would also be named by tsx's helper. Prints one JSON line.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadHarnessHooks } from "../../src/config/load-harness-hooks.js";
import { decideHarnessEvent, type HarnessDispatchOptions } from "../../src/harnesses/decide-harness-event.js";
import { HARNESSES } from "../../src/harnesses/protocols.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { fiftyRules, preToolUse } from "./fifty-rules.js";

const ROUNDS = Number(process.env.DECIDE_ROUNDS ?? 30);
const BATCH = 1_000;
const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-decide-"));
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

async function optionsFor(yaml: string, name: string): Promise<HarnessDispatchOptions> {
  const path = join(dir, name);
  writeFileSync(path, yaml);
  const hooks = await loadHarnessHooks(path, "claude", { store: new MemoryStore(), logger: quiet });
  return {
    protocol: HARNESSES.claude,
    registry: hooks.registry,
    policies: hooks.policies,
    store: hooks.store,
    log: quiet,
    runId: "bench",
  };
}

try {
  const rules = await optionsFor(fiftyRules(), "rules.yaml");
  const floor = await optionsFor("harness: [claude]\n", "floor.yaml");
  const event = HARNESSES.claude.parse(preToolUse(dir));
  const batch = async (options: HarnessDispatchOptions): Promise<number> => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < BATCH; index++) await decideHarnessEvent(event, options);
    return Number(process.hrtime.bigint() - started) / 1e3 / BATCH;
  };
  // Warm: both paths compiled by V8 before a batch counts.
  for (let index = 0; index < 3; index++) await Promise.all([batch(rules), batch(floor)]);
  const full: number[] = [];
  const empty: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    full.push(await batch(rules));
    empty.push(await batch(floor));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  console.log(
    JSON.stringify({
      rules: median(full),
      floor: median(empty),
      own: median(full.map((value, index) => value - empty[index]!)),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
