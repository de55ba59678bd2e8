/** Where Cursor keeps its hooks: `.cursor/hooks.json` (project) or `~/.cursor/hooks.json`, `{ version: 1, hooks: { event: [{ command }] } }`. */
import type { HarnessSettings } from "../types.js";

/** The events whose answer decides whether something happens. */
const GATES = new Set([
  "preToolUse",
  "beforeShellExecution",
  "beforeMCPExecution",
  "beforeReadFile",
  "beforeSubmitPrompt",
]);

export const cursorSettings: HarnessSettings = {
  files: { project: ".cursor/hooks.json", local: undefined, user: ".cursor/hooks.json" },
  eventsFor: {
    session_start: ["sessionStart"],
    session_end: ["sessionEnd"],
    run_start: ["beforeSubmitPrompt"],
    run_end: ["stop"],
    // preToolUse is asked before every tool (Write, Edit, Delete… have no other event); the
    // older events before a shell command, an MCP tool and a file read, which Cursor versions
    // before preToolUse send alone. A call that comes as both is decided once.
    tool_call: ["preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile"],
    tool_result: ["afterShellExecution", "afterMCPExecution", "afterFileEdit"],
  },
  // A gate's hook that fails (a crash, a timeout, an answer that is not JSON) is let through
  // by Cursor unless it says `failClosed`.
  group: (command, event) => ({ command, ...(GATES.has(event) ? { failClosed: true } : {}) }),
  commandsOf: (group) => {
    const command = (group as { command?: unknown } | null)?.command;
    return typeof command === "string" ? [command] : [];
  },
  fileDefaults: { version: 1 },
};
