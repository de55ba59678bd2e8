/**
 * `PostToolUse` → `tool_result` of a call that did not fail. The tool already ran: exit 2 or
 * `decision: "block"` sends the reason to the model, like `additionalContext` (at the end of
 * the step, as a user message); `updatedMCPToolOutput` replaces an MCP tool's result (checked
 * against its output schema when it has one); `continue: false` ends the run.
 */
import type { EventPayload } from "../../../../events/payloads.js";
import { flow } from "../../../../hooks/flow.js";
import { blockOf, contextOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent, ClaudeVerdict } from "./claude-event.js";

export const postToolUse: ClaudeEvent = {
  name: "PostToolUse",
  event: "tool_result",
  kind: "transform",
  scope: "all",
  scopable: true,
  subject: (call) => call.tool!.names,
  fires: (payload) => !(payload as EventPayload<"tool_result">).isError,
  input(call) {
    const payload = call.payload as EventPayload<"tool_result">;
    return {
      tool_name: call.tool!.name,
      tool_input: call.tool!.input,
      tool_response: call.tool!.response(payload.result),
      tool_use_id: payload.toolCallId,
    };
  },
  verdict(answer, call) {
    const stop = stopOf(answer);
    if (stop !== undefined) return { flow: flow.terminate(stop) };
    const verdict: ClaudeVerdict = {};
    const context: string[] = [];
    const block = blockOf(answer);
    if (block?.reason) context.push(block.reason);
    const extra = contextOf(answer);
    if (extra) context.push(extra);
    if (context.length) verdict.context = context;
    const replaced = answer.output?.hookSpecificOutput?.updatedMCPToolOutput;
    if (replaced !== undefined) {
      if (call.tool!.mcp) verdict.flow = flow.rewriteResult(replaced);
      else
        verdict.notice = `updatedMCPToolOutput applies to MCP tools only; ${call.tool!.name} keeps its result`;
    }
    return verdict;
  },
};
