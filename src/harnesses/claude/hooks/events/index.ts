/**
 * The Claude Code events hookwise runs, by name: one module each. Adding one is a module
 * and a line here. Any other event in a settings file is reported as unsupported.
 */
import type { ClaudeEvent } from "./claude-event.js";
import { notification } from "./notification.js";
import { permissionRequest } from "./permission-request.js";
import { postToolUse } from "./post-tool-use.js";
import { postToolUseFailure } from "./post-tool-use-failure.js";
import { preCompact } from "./pre-compact.js";
import { preToolUse } from "./pre-tool-use.js";
import { sessionEnd } from "./session-end.js";
import { sessionStart } from "./session-start.js";
import { stop } from "./stop.js";
import { subagentStart } from "./subagent-start.js";
import { subagentStop } from "./subagent-stop.js";
import { userPromptSubmit } from "./user-prompt-submit.js";

export type { ClaudeCall, ClaudeEvent, ClaudeVerdict } from "./claude-event.js";

export const CLAUDE_EVENTS: ReadonlyMap<string, ClaudeEvent> = new Map(
  [
    preToolUse,
    postToolUse,
    postToolUseFailure,
    permissionRequest,
    userPromptSubmit,
    stop,
    subagentStart,
    subagentStop,
    preCompact,
    sessionStart,
    sessionEnd,
    notification,
  ].map((event) => [event.name, event]),
);
