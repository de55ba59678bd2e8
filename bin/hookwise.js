#!/usr/bin/env node
// The installed CLI runs the built bundle (npm run build). In a checkout, use `npx tsx src/cli/main.ts`.
//
// A CommonJS script (bin/package.json says so): `hookwise hook`, a new process on every tool
// call of a harness, then starts without Node's ES module loader, which an ES module entry
// loads with the file-system promises, streams and line reader it reads files with. The rest
// of the CLI is an ES module, imported below.
"use strict";
const { statSync } = require("node:fs");
const module_ = require("node:module");
const { homedir } = require("node:os");
const { join } = require("node:path");

// On Node 22.1 and later, Node keeps the CLI's compiled code between runs (its own compile
// cache; NODE_DISABLE_COMPILE_CACHE=1 turns it off). Node 20 has none: the call is skipped.
// A cached entry is code that runs (V8 checks it against the source's length, not its
// content): it is kept only for an install the running user owns, who could change its files
// as well, and in a folder of that user's own, never the shared temporary folder.
function ownedByUs(path) {
  try {
    return process.getuid === undefined || statSync(path).uid === process.getuid();
  } catch {
    return false;
  }
}
if (module_.enableCompileCache && ownedByUs(join(__dirname, "..", "dist", "cli.mjs")))
  module_.enableCompileCache(
    process.env.NODE_COMPILE_CACHE ||
      join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "hookwise", "node-compile-cache"),
  );
process.env.HOOKWISE_CLI = "1";
// `hookwise hook`, a new process on every tool call of a harness, runs from a build of its
// own (one CommonJS file), through the code cache the CLI keeps on Node 20, which holds the
// compiled code of every function that ran (ES modules are compiled afresh on each start
// there). A command line it does not read (--help, a mistake) goes to the whole CLI.
const answered = process.argv[2] === "hook" ? hookCommand() : undefined;
if (answered)
  answered.then((code) => {
    process.exitCode = code;
  });
else import("../dist/cli.mjs");

function hookCommand() {
  const { cacheCompiledDeps, loadCached } = require("../dist/code-cache.cjs");
  cacheCompiledDeps();
  return loadCached(require.resolve("../dist/hook.cjs")).hookMain(process.argv.slice(2));
}
