/**
 * bench/startup: what a new user waits for and downloads, against targets.
 *
 *   import("hookwise")                                  ≤ 60 ms   (a fresh node process)
 *   hookwise --help                                     ≤ 250 ms  (wall, node bin/hookwise.js)
 *   hookwise validate examples/quickstart/hookwise.yaml ≤ 250 ms  (wall)
 *   npm install <packed tarball>, production, no optional peers ≤ 40 MB
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
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readmeExample } from "../../test/support/doc-blocks.js";

const args = process.argv.slice(2);
const root = resolve(args.includes("--root") ? args[args.indexOf("--root") + 1]! : ".");
const install = !args.includes("--no-install");
const RUNS = Number(process.env.STARTUP_RUNS ?? 7);

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** One fresh node process; it reports its own CPU time on stderr's last line. */
function timeProcess(nodeArgs: string[], cwd: string): Sample {
  const probe = join(tmpdir(), "hookwise-startup-cpu.cjs");
  writeFileSync(
    probe,
    'process.on("exit", () => { const u = process.cpuUsage(); process.stderr.write("\\n@cpu " + (u.user + u.system) / 1000 + "\\n"); });',
  );
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ["--require", probe, ...nodeArgs], { cwd, encoding: "utf8" });
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

function measure(nodeArgs: string[], cwd: string): { wallMs: number; cpuMs: number; minMs: number } {
  timeProcess(nodeArgs, cwd); // warm the file cache
  const samples = Array.from({ length: RUNS }, () => timeProcess(nodeArgs, cwd));
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
  rows.push(
    `      (an empty node process here: ${empty.wallMs.toFixed(0)} ms wall, ${empty.cpuMs.toFixed(0)} ms cpu)`,
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
if (install) installed();
console.log(rows.join("\n"));
process.exitCode = failed ? 1 : 0;
