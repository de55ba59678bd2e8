/**
 * bench/harness: what `hookwise hook` costs a coding-agent harness on every tool call.
 *
 * A PreToolUse round trip (stdin in, answer out, process gone) on a 50-rule config, side by
 * side in one run with what any hook command costs: bare `node -e 0`, a `cat` hook (a shell
 * that reads stdin and answers `{}`), the same in bash (the floor of the served command, which
 * execs bash) and a Python hook that `json.load`s its stdin. The config keeps its state in
 * SQLite where better-sqlite3 is installed, and a copy of it on the file store (what a project
 * without better-sqlite3, an optional peer, uses) is timed beside it. Each is a fresh process
 * per call, as the harness starts it, the commands taken in turn; wall time, p50 and p95 over
 * RUNS calls. hookwise runs as it ships (`dist/`, `bin/hookwise.js`), with its compile cache
 * and its validated config (`.hookwise/cache/`) kept by a first call that
 * is not counted (printed beside), as a user's first tool call keeps theirs. The commands are
 * timed twice: started by this Node.js process, as a Node.js harness starts its hooks, and by
 * a lean one (python3's subprocess, bench/harness/lean-spawner.py, when python3 is there),
 * since what starting a process costs depends on who starts it.
 *
 * Then the decision itself, in process: one PreToolUse event through the 50 rules (policies
 * and hooks), µs per event, store in memory, taken in turns with a config of no rule (the
 * floor: what any event costs), compiled as hookwise ships (decide.ts).
 *
 *   npm run bench:harness        (builds first)
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fiftyRules, preToolUse } from "./fifty-rules.js";

const ROOT = resolve(import.meta.dirname, "../..");
const RUNS = Number(process.env.HARNESS_RUNS ?? 30);
const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-harness-"));
const cache = join(dir, "compile-cache");
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

const config = join(dir, "hookwise.yaml");
writeFileSync(config, fiftyRules());
// The same rules on the file store: what a project gets that has not installed better-sqlite3
// (an optional peer), the default of `npm install -D hookwise`. Where better-sqlite3 is
// installed, the config above keeps its state in SQLite.
const fileConfig = join(dir, "hookwise-file.yaml");
writeFileSync(fileConfig, fiftyRules("{ kind: file, path: .hookwise/file-state }"));
const sqlite =
  spawnSync(process.execPath, ["-e", "require.resolve('better-sqlite3')"], { cwd: ROOT }).status === 0;
const event = JSON.stringify(preToolUse(dir));

function timed(command: string, args: string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    input: event,
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NODE_COMPILE_CACHE: cache },
  });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Row {
  name: string;
  p50: number;
  p95: number;
  first?: number;
}

interface Command {
  name: string;
  command: string;
  args: string[];
}

/**
 * The commands taken in turn, one call of each per round: on a shared machine whose load
 * changes from minute to minute, each sees the same load, so their ratios hold.
 */
function measureTogether(commands: readonly Command[]): Row[] {
  const first = commands.map(({ command, args }) => timed(command, args));
  const samples = commands.map((): number[] => []);
  for (let run = 0; run < RUNS; run++)
    commands.forEach(({ command, args }, index) => {
      samples[index]!.push(timed(command, args));
    });
  return commands.map(({ name }, index) => ({
    name,
    p50: percentile(samples[index]!, 50),
    p95: percentile(samples[index]!, 95),
    first: first[index]!,
  }));
}

/** The commands timed in turns by bench/harness/lean-spawner.py. */
function measureLean(commands: readonly Command[]): Row[] {
  const spec = join(dir, "lean-spawner.json");
  writeFileSync(
    spec,
    JSON.stringify({
      runs: RUNS,
      cwd: dir,
      input: event,
      env: { ...process.env, NODE_COMPILE_CACHE: cache },
      commands: commands.map(({ name, command, args }) => ({ name, argv: [command, ...args] })),
    }),
  );
  const timedThere = spawnSync("python3", [join(import.meta.dirname, "lean-spawner.py"), spec], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (timedThere.status !== 0) throw new Error(`bench/harness/lean-spawner.py failed: ${timedThere.stderr}`);
  const samples = JSON.parse(timedThere.stdout) as Record<string, number[]>;
  return commands.map(({ name }) => ({
    name,
    p50: percentile(samples[name]!, 50),
    p95: percentile(samples[name]!, 95),
  }));
}

// Through a running `hookwise serve` of the config: the command `setup --server` writes, as
// the harness runs it. On this machine (127.0.0.1) bash reads the event and posts it over its
// own /dev/tcp; for any other host curl posts it: 127.0.0.2, also this machine, stands for
// one, so the two are timed side by side against servers of the same config.
function startServer(host: string): Promise<{ url: string; stop: () => void }> {
  const server = spawn(
    process.execPath,
    [join(ROOT, "bin", "hookwise.js"), "serve", config, "--host", host, "--port", "0"],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  process.on("exit", () => server.kill("SIGKILL"));
  return new Promise((resolveServer, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`hookwise serve did not start: ${out}`)), 60_000);
    server.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const found = /API and web UI at (http:\/\/[^\s/]+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolveServer({ url: found[1]!, stop: () => server.kill("SIGTERM") });
      }
    });
    server.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  });
}

function servedCommand(url: string): string {
  const setup = spawnSync(
    process.execPath,
    [join(ROOT, "bin", "hookwise.js"), "setup", "claude", config, "--project", dir, "--server", url],
    { encoding: "utf8" },
  );
  if (setup.status !== 0) throw new Error(`hookwise setup --server failed: ${setup.stderr}`);
  const command = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8")).hooks.PreToolUse[0]
    .hooks[0].command as string;
  const answered = spawnSync("sh", ["-c", command], {
    input: event.replace("ls -la", "blocked-3 now"),
    encoding: "utf8",
  });
  if (!answered.stdout.includes('"deny"'))
    throw new Error(`the served hook did not deny: ${answered.stdout}`);
  return command;
}

const servers = await Promise.all([startServer("127.0.0.1"), startServer("127.0.0.2")]);
const viaBash = servedCommand(servers[0].url);
const viaCurl = servedCommand(servers[1].url);
if (!viaCurl.includes("curl ") || viaBash.includes("curl "))
  throw new Error("setup --server did not write bash for 127.0.0.1 and curl for 127.0.0.2");

const python = spawnSync("python3", ["-c", "0"]).status === 0;
const commands: Command[] = [
  { name: "node -e 0", command: process.execPath, args: ["-e", "0"] },
  { name: "cat hook (sh: cat; echo {})", command: "sh", args: ["-c", "cat >/dev/null; echo '{}'"] },
  // What any hook the served command's way pays before its request: the shell gives its
  // place to bash, which reads the event with its own builtin and answers.
  {
    name: "bash hook (sh: exec bash: read)",
    command: "sh",
    args: ["-c", "exec bash -c 'IFS= read -r -N 1048577 event; echo {}'"],
  },
  ...(python
    ? [
        {
          name: "python3 json.load hook",
          command: "python3",
          args: ["-c", "import json,sys; json.load(sys.stdin); print('{}')"],
        },
      ]
    : []),
  {
    name: `hookwise hook (50 rules, ${sqlite ? "SQLite" : "file store"})`,
    command: process.execPath,
    args: [join(ROOT, "bin", "hookwise.js"), "hook", config, "--harness", "claude"],
  },
  ...(sqlite
    ? [
        {
          name: "hookwise hook (50 rules, file store)",
          command: process.execPath,
          args: [join(ROOT, "bin", "hookwise.js"), "hook", fileConfig, "--harness", "claude"],
        },
      ]
    : []),
  { name: "through hookwise serve (bash)", command: "sh", args: ["-c", viaBash] },
  { name: "through hookwise serve (curl)", command: "sh", args: ["-c", viaCurl] },
];
const rows = measureTogether(commands);
// The same commands started by a lean process. Starting any command from this one (Node.js,
// with the bench's TypeScript loaded) first copies this process's memory map, which on a
// virtual machine costs milliseconds that grow with the parent's size: a hook pays that when
// a Node.js harness (Gemini CLI) starts it, far less from a small one (Claude Code and Codex CLI
// are native binaries).
const lean = python ? measureLean(commands) : undefined;
for (const server of servers) server.stop();

// The decision alone, compiled as hookwise ships and run in a process of its own.
const bundled = spawnSync(
  process.execPath,
  [join(ROOT, "node_modules", "tsdown", "dist", "run.mjs"), "-c", "tsdown.config.ts", "--log-level", "error"],
  { cwd: join(ROOT, "bench", "harness"), encoding: "utf8" },
);
if (bundled.status !== 0) throw new Error(`building bench/harness/decide.ts failed: ${bundled.stderr}`);
const decided = spawnSync(
  process.execPath,
  [join(ROOT, "bench", ".build", "harness", "harness-decide.mjs")],
  {
    encoding: "utf8",
  },
);
if (decided.status !== 0) throw new Error(`bench/harness/decide.ts failed: ${decided.stderr}`);
const decision = JSON.parse(decided.stdout.trim().split("\n").pop()!) as {
  rules: number;
  floor: number;
  own: number;
};

function print(title: string, timed: readonly Row[]): void {
  const node = timed[0]!;
  console.log(title);
  for (const row of timed) {
    const ratio = row.p50 / node.p50;
    console.log(
      `  ${row.name.padEnd(38)} p50 ${row.p50.toFixed(1).padStart(6)}  p95 ${row.p95.toFixed(1).padStart(6)}  ${ratio.toFixed(2)}× node -e 0${row.first !== undefined ? `  (first call ${row.first.toFixed(1)})` : ""}`,
    );
  }
}

console.log(`bench/harness · ${RUNS} calls each · load ${loadavg()[0]!.toFixed(1)} · ${process.version}`);
print(
  `PreToolUse round trip, a fresh process per call started by this Node.js process (${Math.round(process.memoryUsage().rss / 2 ** 20)} MB resident), wall ms:`,
  rows,
);
if (lean) print("The same, started by a lean process (python3's subprocess), wall ms:", lean);
console.log(
  `decision alone (50 rules, in process): ${decision.rules.toFixed(1)} µs per event (a config of no rule: ${decision.floor.toFixed(1)} µs; the rules' own: ${decision.own.toFixed(1)} µs)`,
);
