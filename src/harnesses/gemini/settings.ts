/** Where Gemini CLI keeps its hooks: `hooks` of `.gemini/settings.json` (project) or `~/.gemini/settings.json`. */
import type { HarnessSettings } from "../types.js";

const TOOL_EVENTS = new Set(["BeforeTool", "AfterTool"]);

export const geminiSettings: HarnessSettings = {
  files: { project: ".gemini/settings.json", local: undefined, user: ".gemini/settings.json" },
  eventsFor: {
    session_start: ["SessionStart"],
    session_end: ["SessionEnd"],
    run_start: ["BeforeAgent"],
    run_end: ["AfterAgent"],
    model_request: ["BeforeModel"],
    model_response: ["AfterModel"],
    tool_call: ["BeforeTool"],
    tool_result: ["AfterTool"],
    pre_compact: ["PreCompress"],
  },
  group: (command, event) => ({
    ...(TOOL_EVENTS.has(event) ? { matcher: ".*" } : {}),
    hooks: [{ type: "command", name: "hookwise", command }],
  }),
  commandsOf: (group) => {
    const hooks = (group as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(hooks)) return [];
    return hooks
      .map((hook) => (hook as { command?: unknown } | null)?.command)
      .filter((command): command is string => typeof command === "string");
  },
  projectDirVariable: "GEMINI_PROJECT_DIR",
};
