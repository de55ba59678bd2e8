#!/usr/bin/env node
// A hook command that saves what it is given: its stdin to <dir>/<Event>-<n>.json and its
// environment to <dir>/<Event>-<n>.env.json. Used to capture the real harnesses' hook payloads.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [dir, event] = process.argv.slice(2);
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  mkdirSync(dir, { recursive: true });
  let n = 0;
  while (existsSync(join(dir, `${event}-${n}.json`))) n++;
  writeFileSync(join(dir, `${event}-${n}.json`), input);
  writeFileSync(
    join(dir, `${event}-${n}.env.json`),
    JSON.stringify({ cwd: process.cwd(), env: process.env }, null, 2),
  );
});
