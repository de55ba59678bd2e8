/**
 * bench/stores: what the state store costs a run — memory vs SQLite (a file, WAL) vs Redis
 * (a real redis-server on loopback), side by side.
 *
 * The workload is a real run through the loop: 10 steps × 2 tool calls on a scripted model,
 * on a session of its own, under config hooks whose limits live in the store (a per-session
 * `max_fires` on run_start, a `cooldown` on step_start, a `rate_limit` on every tool call).
 * So each run makes the store operations a deployed run makes: the session lease, loading
 * and committing the session (compare-and-swap), its run counter, and every limit check.
 *
 *   µs per run      runs one after the other (median batch of 20 runs)
 *   runs/s          100 runs at once, on 100 sessions (median of 5 rounds)
 *
 *   npm run bench:stores   (builds, then measures dist/, what ships)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent, LoadedConfig, StateStore } from "../../src/index.js";
import { type RedisServer, redisAvailable, startRedis } from "../../test/support/redis-server.js";
import { hookwise } from "../shared/hookwise.js";
import { format, machine } from "../shared/measure.js";
import { INPUT, INSTRUCTIONS, toolSteps, tools } from "../shared/workload.js";

const { loadConfig, MemoryStore, SqliteStore, RedisStore } = hookwise;
const STEPS = 10;
const CONCURRENT = 100;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const CONFIG = `
runtime:
  max_steps: ${STEPS}
  hooks:
    - id: once-per-run
      on: run_start
      max_fires: 1000
      action: { type: log, message: "run", level: debug }
    - id: step-cooldown
      on: step_start
      cooldown: 1
      action: { type: log, message: "step", level: debug }
    - id: tool-rate
      on: tool_call
      rate_limit: { max: 1000, per_seconds: 60 }
      action: { type: log, message: "tool", level: debug }
`;

/** Counts the store operations a run makes (a sanity pass, not timed). */
function counting(store: StateStore, counts: Map<string, number>): StateStore {
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function" || property === "close") return value;
      return (...args: unknown[]) => {
        counts.set(String(property), (counts.get(String(property)) ?? 0) + 1);
        return value.apply(target, args);
      };
    },
  });
}

interface Subject {
  name: string;
  store: StateStore;
  loaded: LoadedConfig;
  agent: Agent;
  run(): Promise<unknown>;
}

let sessions = 0;

/** Answers step n of the script for a prompt holding n assistant turns: runs can share it. */
function sharedModel() {
  const script = toolSteps(STEPS);
  const respond = (call: { prompt: { role: string }[] }) =>
    script[call.prompt.filter((message) => message.role === "assistant").length]!;
  return hookwise.scriptedModel(Array.from({ length: 1_000_000 }, () => respond));
}

async function subject(name: string, store: StateStore, configPath: string): Promise<Subject> {
  const loaded = await loadConfig(configPath, { store, logger: silent });
  const agent = await loaded.createAgent(undefined, {
    instructions: INSTRUCTIONS,
    tools,
    model: sharedModel(),
  });
  const run = async () => {
    const result = await agent.run(INPUT, { sessionId: `bench-${name}-${sessions++}` });
    if (result.outcome !== "max_steps")
      throw new Error(`bench run ended ${result.outcome}: ${result.reason}`);
    return result;
  };
  return { name, store, loaded, agent, run };
}

async function timeSequential(subject: Subject, runs: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let index = 0; index < runs; index++) await subject.run();
  return Number(process.hrtime.bigint() - started) / runs / 1000;
}

async function timeConcurrent(subject: Subject): Promise<number> {
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENT }, () => subject.run()));
  return CONCURRENT / (Number(process.hrtime.bigint() - started) / 1e9);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-stores-"));
  const configPath = join(dir, "hookwise.yaml");
  writeFileSync(configPath, CONFIG);
  let server: RedisServer | undefined;
  const subjects: Subject[] = [];
  try {
    subjects.push(await subject("memory", new MemoryStore(), configPath));
    subjects.push(await subject("sqlite", new SqliteStore({ path: join(dir, "state.db") }), configPath));
    if (redisAvailable) {
      server = await startRedis();
      subjects.push(await subject("redis", new RedisStore({ url: server.url }), configPath));
    } else {
      console.log("redis-server is not installed: the Redis column is skipped");
    }

    const operations = new Map<string, Map<string, number>>();
    for (const current of subjects) {
      const counts = new Map<string, number>();
      const counted = await subject(current.name, counting(current.store, counts), configPath);
      await counted.run();
      operations.set(current.name, counts);
    }

    // Warm-up, then rounds that interleave the stores (a burst of machine load hits all alike).
    for (const current of subjects) await timeSequential(current, 20);
    const sequential = new Map<string, number[]>(subjects.map((current) => [current.name, []]));
    const concurrent = new Map<string, number[]>(subjects.map((current) => [current.name, []]));
    for (let round = 0; round < 5; round++) {
      for (const current of subjects) {
        sequential.get(current.name)!.push(await timeSequential(current, 20));
        concurrent.get(current.name)!.push(await timeConcurrent(current));
      }
    }

    const names = subjects.map((current) => current.name);
    const column = (text: string) => text.padStart(12);
    const [one, five] = loadavg();
    console.log(`bench/stores — ${machine()}, load ${one!.toFixed(1)} / ${five!.toFixed(1)}`);
    console.log(
      `a run: ${STEPS} steps × 2 tool calls, hooks with max_fires, cooldown and rate_limit; SQLite file in ${tmpdir()}; Redis on 127.0.0.1\n`,
    );
    console.log(`${"".padEnd(34)}${names.map(column).join("")}`);
    const memoryUs = median(sequential.get("memory")!);
    const rows: [string, (name: string) => string][] = [
      [
        "store operations per run",
        (name) => String([...operations.get(name)!.values()].reduce((a, b) => a + b, 0)),
      ],
      ["µs per run (one at a time)", (name) => format(median(sequential.get(name)!), 0)],
      ["  of which the store (vs memory)", (name) => format(median(sequential.get(name)!) - memoryUs, 0)],
      [`runs/s (${CONCURRENT} at once)`, (name) => format(median(concurrent.get(name)!), 0)],
    ];
    for (const [label, cell] of rows)
      console.log(`${label.padEnd(34)}${names.map((name) => column(cell(name).trim())).join("")}`);
    // A shared store's list: it also holds the session's lease (the memory store needs none).
    const breakdown = [...operations.get("sqlite")!.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([operation, count]) => `${operation} ×${count}`)
      .join(", ");
    console.log(`\noperations of one run on a shared store: ${breakdown}`);
  } finally {
    for (const current of subjects) await current.loaded.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
