#!/usr/bin/env node
/**
 * Mutation probe: plants one-line bugs (scripts/mutants.json) in the code they name, one at a
 * time, runs only the test files mapped to the mutant's area, restores the file, and reports
 * which mutants the tests killed (a test failed) and which survived (every test passed).
 * Not shipped in the package; a developer's tool.
 *
 *   node scripts/mutation-probe.mjs                     every mutant
 *   node scripts/mutation-probe.mjs --only a,b          these mutants
 *   node scripts/mutation-probe.mjs --area leases       one area
 *   node scripts/mutation-probe.mjs --no-baseline       skip checking each area's tests pass unmutated
 *   node scripts/mutation-probe.mjs --out report.json   also write the results as JSON
 *   MUTANT_TIMEOUT_MS=240000                            per test run (a run over it counts as killed, noted)
 *
 * It refuses to start on a tree with uncommitted changes to tracked files (a mutant's file is
 * restored from what it read, so a dirty tree could mix two edits), and restores every file
 * it changed in a finally block and on SIGINT/SIGTERM.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const timeoutMs = Number(process.env.MUTANT_TIMEOUT_MS ?? 240_000);
const data = JSON.parse(readFileSync(join(root, "scripts/mutants.json"), "utf8"));

const dirty = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" });
if (dirty.status !== 0 || dirty.stdout.trim() !== "") {
  console.error(
    `mutation-probe: refusing to start: the tree has uncommitted changes to tracked files:\n${dirty.stdout}commit or stash them first`,
  );
  process.exit(2);
}

let mutants = data.mutants;
const only = option("--only");
if (only) {
  const ids = new Set(only.split(","));
  mutants = mutants.filter((mutant) => ids.has(mutant.id));
  for (const id of ids) if (!mutants.some((mutant) => mutant.id === id)) console.error(`unknown mutant: ${id}`);
}
const area = option("--area");
if (area) mutants = mutants.filter((mutant) => mutant.area === area);

/** The file a mutant changed, as it was: put back whatever happens. */
let planted;
const restore = () => {
  if (planted) {
    writeFileSync(planted.path, planted.text);
    planted = undefined;
  }
};
let child;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (child) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
    restore();
    process.exit(130);
  });
}
process.on("exit", restore);

/** Runs test files; resolves to "pass", "fail" or "timeout". Kills the whole process group on timeout. */
function runTests(files) {
  return new Promise((resolve) => {
    const started = Date.now();
    child = spawn(join(root, "node_modules/.bin/vitest"), ["run", "--reporter=dot", ...files], {
      cwd: root,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CI: "1", FORCE_COLOR: "0", NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      child = undefined;
      const seconds = Math.round((Date.now() - started) / 1000);
      resolve({ verdict: timedOut ? "timeout" : code === 0 ? "pass" : "fail", seconds, output });
    });
  });
}

const results = [];
const areas = [...new Set(mutants.map((mutant) => mutant.area))];
const broken = new Set();
if (!args.includes("--no-baseline")) {
  for (const name of areas) {
    const { verdict, seconds, output } = await runTests(data.areas[name]);
    console.log(`baseline ${name}: ${verdict} (${seconds} s)`);
    if (verdict !== "pass") {
      broken.add(name);
      console.log(output.split("\n").filter((line) => /FAIL|✗|×|Error/.test(line)).slice(0, 10).join("\n"));
    }
  }
}

for (const mutant of mutants) {
  if (broken.has(mutant.area)) {
    results.push({ ...mutant, result: "skipped: the area's tests fail unmutated" });
    continue;
  }
  const path = join(root, mutant.file);
  const text = readFileSync(path, "utf8");
  const count = text.split(mutant.from).length - 1;
  if (count !== 1) {
    results.push({ ...mutant, result: `invalid: the line occurs ${count} times` });
    console.log(`${mutant.id}: invalid (${count} occurrences)`);
    continue;
  }
  let outcome;
  try {
    planted = { path, text };
    writeFileSync(path, text.replace(mutant.from, mutant.to));
    outcome = await runTests(data.areas[mutant.area]);
  } finally {
    restore();
  }
  const result = outcome.verdict === "pass" ? "survived" : outcome.verdict === "timeout" ? "killed (timeout)" : "killed";
  // What killed it: the failing tests' names (a type error or a crash shows as such).
  const evidence = outcome.output
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split("\n")
    .filter((line) => /^\s*(FAIL|×|✗)|TypeCheckError|Error:/.test(line) && !/no errors/.test(line))
    .slice(0, 3)
    .map((line) => line.trim().slice(0, 200));
  results.push({ ...mutant, result, seconds: outcome.seconds, evidence });
  console.log(`${result.padEnd(16)} ${mutant.id} (${mutant.area}, ${outcome.seconds} s): ${mutant.what}`);
  if (result !== "survived" && evidence.length) console.log(`                 ${evidence[0]}`);
}

// A mutant marked `equivalent` behaves as the code does (no test can tell): listed, not counted.
const equivalent = results.filter((entry) => entry.equivalent && entry.result === "survived");
if (equivalent.length) console.log(`\nequivalent (not counted): ${equivalent.map((entry) => entry.id).join(", ")}`);
const counted = results.filter(
  (entry) => !equivalent.includes(entry) && (entry.result === "survived" || entry.result.startsWith("killed")),
);
const killed = counted.filter((entry) => entry.result.startsWith("killed")).length;
console.log(
  `\n${killed} of ${counted.length} mutants killed (${counted.length ? Math.round((killed / counted.length) * 100) : 0}%)`,
);
const survivors = counted.filter((entry) => entry.result === "survived");
if (survivors.length) console.log(`survived: ${survivors.map((entry) => entry.id).join(", ")}`);
const out = option("--out");
if (out) writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
const after = spawnSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" });
if (after.stdout.trim() !== "") {
  console.error(`mutation-probe: the tree is not as it was:\n${after.stdout}`);
  process.exit(3);
}
