#!/usr/bin/env node
// Installs the pinned agent harness CLIs (Claude Code, Codex CLI, Gemini CLI) that the real-harness
// tests drive, into a cache folder outside the repository:
//   ${HOOKWISE_HARNESS_CACHE:-$HOME/.cache/hookwise-harnesses}/<hash of the pinned versions>
// A second run finds the finished install and does nothing. Prints the folder on stdout.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pinsFile = fileURLToPath(new URL("../test/support/harnesses/versions.json", import.meta.url));
const pins = JSON.parse(readFileSync(pinsFile, "utf8"));
const specs = Object.entries(pins.packages).map(([name, version]) => `${name}@${version}`);
const hash = createHash("sha256").update(specs.join("\n")).digest("hex").slice(0, 12);
const root = process.env.HOOKWISE_HARNESS_CACHE || join(homedir(), ".cache", "hookwise-harnesses");
const dir = join(root, hash);
const done = join(dir, ".installed");

if (existsSync(done)) {
  console.log(`harnesses already installed in ${dir}`);
  process.exit(0);
}

// Install into a sibling folder and rename it into place, so an interrupted install never looks finished.
const staging = `${dir}.partial-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
writeFileSync(join(staging, "package.json"), `${JSON.stringify({ name: "hookwise-harnesses", private: true }, null, 2)}\n`);
console.error(`installing ${specs.join(" ")} into ${dir} ...`);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const result = spawnSync(
  npm,
  ["install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", "--prefix", staging, ...specs],
  { stdio: ["ignore", "inherit", "inherit"] },
);
if (result.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  console.error(`install-harnesses: npm install failed (exit ${result.status ?? result.signal})`);
  process.exit(1);
}
writeFileSync(join(staging, ".installed"), `${specs.join("\n")}\n`);
rmSync(dir, { recursive: true, force: true });
renameSync(staging, dir);
console.log(`harnesses installed in ${dir}`);
