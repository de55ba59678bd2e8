/**
 * The JSON a handler receives on stdin (or as an http body): Claude Code's common fields —
 * `session_id`, `transcript_path` (the session written as JSONL), `cwd`,
 * `permission_mode` (always `default`: hookwise has no permission modes), `hook_event_name`,
 * and `agent_id` / `agent_type` when the event fires inside a sub-agent's run — then the
 * event's own fields.
 */

import type { ClaudeTranscripts } from "./claude-transcripts.js";
import type { ClaudeCall, ClaudeEvent } from "./events/index.js";

export function claudeInput(
  call: ClaudeCall,
  event: ClaudeEvent,
  where: { projectDir: string; transcripts: ClaudeTranscripts },
): Record<string, unknown> {
  const { context } = call;
  const input: Record<string, unknown> = {
    session_id: context.sessionId,
    transcript_path: where.transcripts.write(context.sessionId, context.messages, where.projectDir),
    cwd: where.projectDir,
    permission_mode: "default",
    hook_event_name: event.name,
  };
  if (context.agentPath.length > 1) {
    input.agent_id = context.runId;
    input.agent_type = context.agentName;
  }
  return Object.assign(input, event.input(call));
}
