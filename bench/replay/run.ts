/**
 * bench/replay: `hookwise replay` must cost the same per run however long the session is,
 * so replaying 4,000 runs takes about 4 times as long as replaying 1,000.
 *
 * The session is a JSONL export (`hookwise history --jsonl`) of N runs of one session, each
 * run a tool call and a final answer (4 transcript messages a run: a session of 4,000 runs
 * ends with 16,000 messages). It is replayed through a config with a policy that now denies
 * one of the calls (so the replay has one difference to find) and a hook on every call.
 * Each size is replayed in the same process, interleaved, after a warm-up; the time is the
 * CPU time the process used (user + system), which leaves out the time it waited for a core
 * on a busy machine. It prints the median per size and the ratio, and exits 1 when the ratio
 * of 4,000 runs to 1,000 is over 5 (quadratic work gives 16).
 *
 *   npx tsx bench/replay/run.ts      (REPLAY_ROUNDS=5, REPLAY_SIZES=1000,4000)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { replayReport } from "../../src/cli/commands/replay-command.js";
import type { CliIO } from "../../src/cli/types.js";

const ROUNDS = Number(process.env.REPLAY_ROUNDS ?? 5);
const SIZES = (process.env.REPLAY_SIZES ?? "1000,4000").split(",").map(Number);
const LIMIT = 5;

const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-replay-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, "tools.mjs"),
  `export const read_file = { inputSchema: { type: "object", properties: { path: { type: "string" } } }, execute: ({ path }) => "contents of " + path };\n`,
);
writeFileSync(join(dir, "script.yaml"), "- text: unused\n");
const config = join(dir, "hookwise.yaml");
writeFileSync(
  config,
  `models:
  default: scripted:./script.yaml
toolsets:
  fs: { kind: module, path: ./tools.mjs }
runtime:
  policies:
    - { decision: deny, tool: fs.read_file, when: 'args.path == "f7.md"', reason: "not f7" }
  hooks:
    - id: log-calls
      on: tool_call
      action: { type: log, message: "call", level: debug }
`,
);

/** A session of `runs` recorded runs as `hookwise history --jsonl` writes it. */
function session(runs: number): string {
  const lines = [JSON.stringify({ type: "session", id: "s1", runs })];
  const usage = { inputTokens: 40, outputTokens: 8, totalTokens: 48 };
  for (let index = 0; index < runs; index++) {
    const call = { id: `call-${index}`, name: "fs_read_file", args: { path: `f${index}.md` } };
    const run = {
      format: 1,
      runId: `run-${index}`,
      sessionId: "s1",
      agent: "default",
      input: `read f${index}.md`,
      startedAt: index,
      endedAt: index,
      outcome: "completed",
      text: "done",
      attempts: [
        { step: 0, attempt: 0, answer: { text: "", toolCalls: [call], finishReason: "tool-calls", usage } },
        { step: 1, attempt: 0, answer: { text: "done", toolCalls: [], finishReason: "stop", usage } },
      ],
      steps: [
        {
          index: 0,
          text: "",
          finishReason: "tool-calls",
          usage,
          hooks: [],
          calls: [
            {
              toolCallId: call.id,
              toolName: call.name,
              qualifiedName: "fs.read_file",
              args: call.args,
              ranArgs: call.args,
              executed: true,
              result: `contents of f${index}.md`,
              hooks: [],
            },
          ],
        },
        { index: 1, text: "done", finishReason: "stop", usage, calls: [], hooks: [] },
      ],
      hooks: [],
    };
    lines.push(JSON.stringify({ type: "run", run }));
  }
  return `${lines.join("\n")}\n`;
}

const files = new Map<number, string>();
for (const size of [100, ...SIZES]) {
  const file = join(dir, `session-${size}.jsonl`);
  writeFileSync(file, session(size));
  files.set(size, file);
}

const io: CliIO = {
  stdout: { line() {} },
  stderr: { line: (text: string) => console.error(text) },
} as unknown as CliIO;

/** Replays `size` runs; CPU seconds. Checks the replay found the one difference. */
async function replay(size: number): Promise<number> {
  const start = process.cpuUsage();
  const report = await replayReport(config, { from: files.get(size)! }, io);
  const used = process.cpuUsage(start);
  if (report.runs.length !== size || report.changes !== (size > 7 ? 1 : 0))
    throw new Error(`replay of ${size} runs: ${report.runs.length} runs, ${report.changes} changes`);
  return (used.user + used.system) / 1e6;
}

// Warmed up until the code is optimised: a first 1,000-run replay takes several times what
// the next one does, which would flatter the larger size.
await replay(100);
await replay(SIZES[0]!);
const times = new Map<number, number[]>(SIZES.map((size) => [size, []]));
for (let round = 0; round < ROUNDS; round++)
  for (const size of SIZES) times.get(size)!.push(await replay(size));

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`replay · ${ROUNDS} rounds · CPU seconds (median) · load ${loadavg()[0]!.toFixed(1)}`);
for (const size of SIZES) {
  const value = median(times.get(size)!);
  console.log(
    `  ${String(size).padStart(6)} runs  ${value.toFixed(2)} s  (${((value / size) * 1e3).toFixed(2)} ms a run; rounds ${times
      .get(size)!
      .map((time) => time.toFixed(2))
      .join(", ")})`,
  );
}
const [small, large] = [SIZES[0]!, SIZES.at(-1)!];
const ratio = median(times.get(large)!) / median(times.get(small)!);
const expected = large / small;
console.log(
  `  ratio ${large}/${small} runs: ${ratio.toFixed(2)} (linear: ${expected}, quadratic: ${expected ** 2})`,
);
if (ratio > (LIMIT * expected) / 4) {
  console.error(
    `replay is not linear in the number of runs: ratio ${ratio.toFixed(2)} > ${(LIMIT * expected) / 4}`,
  );
  process.exitCode = 1;
}
