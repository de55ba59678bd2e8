/**
 * bench/startup: what a new user waits for and downloads, against targets.
 *
 *   import("hookwise")                                  ≤ 60 ms   (a fresh node process)
 *   hookwise --help                                     ≤ 250 ms  (wall, node bin/hookwise.js)
 *   hookwise validate examples/quickstart/hookwise.yaml ≤ 250 ms  (wall)
 *   hookwise serve examples/quickstart/hookwise.yaml    < 1 s     (wall, until GET /healthz answers)
 *   npm install <packed tarball>, production, no optional peers ≤ 40 MB
 *
 * The CLI keeps compiled code between runs (Node's compile cache on Node 22.1 and later, its
 * own cache of the bundled packages on Node 20): here in a folder of this bench's own, filled
 * by a first run that is not counted, as a user's first command fills theirs. The first
 * run's time, without that cache, is printed beside.
 *
 * Each timing is a fresh process, run several times; the median is compared with the
 * target, and the CPU time the process used (user + system) is printed beside it: on a
 * busy machine the wall clock includes waiting for a core, the CPU time does not.
 *
 * The install step packs this checkout (npm pack), installs the tarball into a temporary
 * app from the npm registry (production dependencies only, no optional peers), measures
 * node_modules, and then checks what a new user does first: the README's example, compiled
 * under `strict` against the installed package, runs. `--no-install` skips it (no network).
 *
 *   npm run bench:startup                    (builds, then measures dist/, what ships)
 *   npx tsx bench/startup/run.ts --root DIR  (measures another built checkout, e.g. an older one)
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readmeExample } from "../../test/support/doc-blocks.js";

const args = process.argv.slice(2);
const root = resolve(args.includes("--root") ? args[args.indexOf("--root") + 1]! : ".");
const install = !args.includes("--no-install");
const RUNS = Number(process.env.STARTUP_RUNS ?? 7);
/** The CLI's compiled-code cache for this bench's processes: a folder of its own, removed at the end. */
const compileCache = mkdtempSync(join(tmpdir(), "hookwise-startup-cache-"));
process.on("exit", () => rmSync(compileCache, { recursive: true, force: true }));

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** One fresh node process; it reports its own CPU time on stderr's last line. */
function timeProcess(nodeArgs: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Sample {
  const probe = join(tmpdir(), "hookwise-startup-cpu.cjs");
  writeFileSync(
    probe,
    'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("\\n@cpu " + (u.user + u.system) / 1000 + "\\n"); });',
  );
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ["--require", probe, ...nodeArgs], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NODE_COMPILE_CACHE: compileCache, ...env },
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = /@cpu ([\d.]+)/.exec(child.stderr ?? "");
  if (child.status !== 0 || !cpu) {
    throw new Error(`node ${nodeArgs.join(" ")} failed (${child.status}): ${child.stderr}${child.stdout}`);
  }
  return { wallMs, cpuMs: Number(cpu[1]) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

function measure(
  nodeArgs: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): { wallMs: number; cpuMs: number; minMs: number } {
  timeProcess(nodeArgs, cwd, env); // warm the file cache (and the CLI's compiled-code cache)
  const samples = Array.from({ length: RUNS }, () => timeProcess(nodeArgs, cwd, env));
  return {
    wallMs: median(samples.map((sample) => sample.wallMs)),
    cpuMs: median(samples.map((sample) => sample.cpuMs)),
    minMs: Math.min(...samples.map((sample) => sample.wallMs)),
  };
}

const rows: string[] = [];
let failed = 0;
function report(name: string, value: number, target: number, unit: string, extra = ""): void {
  const ok = value <= target;
  if (!ok) failed++;
  rows.push(
    `${ok ? "ok  " : "MISS"}  ${name.padEnd(52)} ${value.toFixed(unit === "MB" ? 1 : 0).padStart(7)} ${unit}  (target ≤ ${target} ${unit})${extra}`,
  );
}

function timings(): void {
  const index = join(root, "dist", "index.mjs");
  const importScript = `const t = performance.now(); await import(${JSON.stringify(index)}); process.stdout.write(String(performance.now() - t));`;
  // The import alone, as the program that imports it sees it (node's own start-up excluded).
  const imports: number[] = [];
  for (let run = 0; run <= RUNS; run++) {
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", importScript], {
      encoding: "utf8",
    });
    if (child.status !== 0) throw new Error(`import("hookwise") failed: ${child.stderr}`);
    if (run > 0) imports.push(Number(child.stdout));
  }
  const empty = measure(["-e", ""], root);
  const imported = measure(["--input-type=module", "-e", `await import(${JSON.stringify(index)})`], root);
  report(
    'import("hookwise")',
    median(imports),
    60,
    "ms",
    `  cpu ${(imported.cpuMs - empty.cpuMs).toFixed(0)} ms beyond an empty node`,
  );
  const bin = join(root, "bin", "hookwise.js");
  const help = measure([bin, "--help"], root);
  report(
    "hookwise --help",
    help.wallMs,
    250,
    "ms",
    `  cpu ${help.cpuMs.toFixed(0)} ms, fastest ${help.minMs.toFixed(0)} ms`,
  );
  const validate = measure([bin, "validate", "examples/quickstart/hookwise.yaml"], root);
  report(
    "hookwise validate examples/quickstart/hookwise.yaml",
    validate.wallMs,
    250,
    "ms",
    `  cpu ${validate.cpuMs.toFixed(0)} ms, fastest ${validate.minMs.toFixed(0)} ms`,
  );
  const uncached = measure([bin, "validate", "examples/quickstart/hookwise.yaml"], root, {
    NODE_DISABLE_COMPILE_CACHE: "1",
  });
  rows.push(
    `      (validate's first run, before the CLI has cached compiled code: ${uncached.wallMs.toFixed(0)} ms wall, ${uncached.cpuMs.toFixed(0)} ms cpu)`,
    `      (an empty node process here: ${empty.wallMs.toFixed(0)} ms wall, ${empty.cpuMs.toFixed(0)} ms cpu)`,
  );
}

/** A port nothing listens on right now (asked of the OS, then released). */
function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * `hookwise serve <config> --port <free>`: from the spawn until GET /healthz answers 200
 * (polled every 10 ms), then the server is stopped (SIGTERM) and awaited.
 */
/** The CPU time (user + system) a running process has used so far, from /proc (Linux); else NaN. */
function cpuOfPid(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return Number.NaN;
  }
}

async function timeServe(bin: string, config: string): Promise<Sample> {
  const port = await freePort();
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [bin, "serve", config, "--port", String(port)], {
    cwd: root,
    env: { ...process.env, NODE_COMPILE_CACHE: compileCache },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
  let failed = false;
  child.once("exit", () => {
    failed = true;
  });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (failed) throw new Error(`hookwise serve exited before it answered: ${stderr}`);
      if (Date.now() > deadline) throw new Error(`hookwise serve did not answer /healthz in 30 s: ${stderr}`);
      const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered)
        return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: cpuOfPid(child.pid) };
      await new Promise((wait) => setTimeout(wait, 10));
    }
  } finally {
    if (!failed) child.kill("SIGTERM");
    await exited;
  }
}

async function serveTiming(): Promise<void> {
  const bin = join(root, "bin", "hookwise.js");
  const config = "examples/quickstart/hookwise.yaml";
  await timeServe(bin, config); // warm the file cache
  const samples: Sample[] = [];
  for (let run = 0; run < RUNS; run++) samples.push(await timeServe(bin, config));
  const cpu = median(samples.map((sample) => sample.cpuMs));
  report(
    "hookwise serve examples/quickstart/hookwise.yaml",
    median(samples.map((sample) => sample.wallMs)),
    1000,
    "ms",
    `  until GET /healthz answers;${Number.isNaN(cpu) ? "" : ` cpu ${cpu.toFixed(0)} ms,`} fastest ${Math.min(...samples.map((sample) => sample.wallMs)).toFixed(0)} ms`,
  );
}

function run(command: string, commandArgs: string[], cwd: string): string {
  const child = spawnSync(command, commandArgs, { cwd, encoding: "utf8" });
  if (child.status !== 0) {
    throw new Error(
      `${command} ${commandArgs.join(" ")} failed (${child.status}):\n${child.stderr}${child.stdout}`,
    );
  }
  return child.stdout;
}

function sizeOf(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path)) total += sizeOf(join(path, entry));
  return total;
}

function installed(): void {
  const app = mkdtempSync(join(tmpdir(), "hookwise-install-"));
  try {
    const packed = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", app], root)) as {
      filename: string;
      size: number;
      unpackedSize: number;
    }[];
    const tarball = join(app, packed[0]!.filename);
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "scratch", private: true, type: "module" }),
    );
    run(
      "npm",
      [
        "install",
        tarball,
        "--omit=dev",
        "--omit=optional",
        "--omit=peer",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
      ],
      app,
    );
    const modules = join(app, "node_modules");
    const packages = readdirSync(modules).flatMap((name) =>
      name.startsWith("@") ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name],
    );
    report(
      "npm install hookwise (production, no optional peers)",
      sizeOf(modules) / 1e6,
      40,
      "MB",
      `  ${packages.filter((name) => !name.startsWith(".")).length} packages; tarball ${(packed[0]!.size / 1e3).toFixed(0)} kB`,
    );
    scratchApp(app);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

/** The README's example in a new app: compiled under strict against the installed package, then run. */
function scratchApp(app: string): void {
  const example = readmeExample(join(root, "README.md"));
  mkdirSync(join(app, "src"));
  writeFileSync(join(app, "src", "main.ts"), example);
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true, // as tsc --init writes it
        types: [],
        rootDir: "src",
        outDir: "out",
      },
      include: ["src"],
    }),
  );
  // The compiler is this checkout's (a user brings their own); the app adds @types/node.
  run("npm", ["install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", "@types/node@20"], app);
  const required = spawnSync(process.execPath, ["-e", 'require("hookwise"); require("hookwise/ai-sdk")'], {
    cwd: app,
    encoding: "utf8",
  });
  if (required.status !== 0) failed++;
  rows.push(
    `${required.status === 0 ? "ok  " : "MISS"}  require("hookwise") from CommonJS${required.status === 0 ? "" : `: ${required.stderr}`}`,
  );
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const compiled = spawnSync(process.execPath, [tsc, "-p", ".", "--types", "node"], {
    cwd: app,
    encoding: "utf8",
  });
  const runs =
    compiled.status === 0
      ? spawnSync(process.execPath, [join("out", "main.js")], {
          cwd: app,
          encoding: "utf8",
          env: { ...process.env },
        })
      : undefined;
  const ok = compiled.status === 0 && runs?.status === 0;
  if (!ok) failed++;
  rows.push(
    `${ok ? "ok  " : "MISS"}  the README example, in an app that installed the tarball: ${
      compiled.status !== 0
        ? `does not compile under strict:\n${compiled.stdout}${compiled.stderr}`
        : runs?.status !== 0
          ? `compiles, but fails when run:\n${runs?.stderr}${runs?.stdout}`
          : "compiles under strict and runs"
    }`,
  );
}

console.log(
  `bench/startup  ${root}\nnode ${process.version}, load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(" ")} (a busy machine inflates wall times; cpu times are steadier)\n`,
);
timings();
await serveTiming();
if (install) installed();
console.log(rows.join("\n"));
process.exitCode = failed ? 1 : 0;
