#!/usr/bin/env node
// A plain command hook for the real-harness tests, in the protocol all three harnesses share:
// it reads one hook event as JSON on stdin, appends the shell command it names to the log file
// given as its first argument, and denies (exit 2, the reason on stderr) any command containing
// "forbidden". Anything else is allowed (exit 0, nothing printed).
import { appendFileSync } from "node:fs";

const reason = "hookwise-test-policy: commands containing the word forbidden are not allowed";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const event = JSON.parse(input);
  const command = String(event.tool_input?.command ?? "");
  const log = process.argv[2];
  if (log) appendFileSync(log, `${JSON.stringify({ event: event.hook_event_name, command })}\n`);
  if (command.includes("forbidden")) {
    process.stderr.write(reason);
    process.exitCode = 2;
  }
});
