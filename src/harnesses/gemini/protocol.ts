/**
 * Gemini CLI's hooks: JSON on stdin (`hook_event_name`, `session_id`, `tool_name`,
 * `tool_input`, `prompt`, `llm_request`…), the answer as JSON on stdout (`decision: "deny"`
 * with a `reason`, `hookSpecificOutput.tool_input` to rewrite a call, `additionalContext`
 * after it, `continue: false` to stop), or exit 2 with the reason on stderr. A rewritten
 * result is an AfterTool deny whose reason is the new result: Gemini CLI then gives the model
 * `Tool result blocked: <reason>` instead of the tool's output. Gemini CLI has no "ask": a
 * call hookwise would ask about is denied with the reason.
 */
import { HarnessInputError } from "../harness-input-error.js";
import { eventName, firstText, flag, type Payload, text, toolInput } from "../read-payload.js";
import type {
  HarnessAnswer,
  HarnessEvent,
  HarnessEventKind,
  HarnessProtocol,
  HarnessVerdict,
} from "../types.js";
import { geminiSettings } from "./settings.js";
import { GEMINI_TOOLS } from "./tools.js";

const EVENTS: Readonly<Record<string, HarnessEventKind>> = {
  SessionStart: "session_start",
  SessionEnd: "session_end",
  BeforeAgent: "run_start",
  AfterAgent: "run_end",
  BeforeModel: "model_request",
  AfterModel: "model_response",
  BeforeTool: "tool_call",
  AfterTool: "tool_result",
  PreCompress: "pre_compact",
  Notification: "notification",
  BeforeToolSelection: "notification",
};

/**
 * An MCP tool by hookwise's name, `mcp__<server>__<tool>`: Gemini CLI names it
 * `mcp_<server>_<tool>`, which cannot be split where a server's name has an underscore, and
 * says which server and tool in `mcp_context`. Without that context, the name is split at its
 * first underscore, as Gemini CLI's own policies split it, and its server counts as unknown.
 */
function mcpToolName(name: string, context: unknown): { tool: string; serverUnknown?: true } {
  const { server_name: server, tool_name: tool } = (context ?? {}) as Record<string, unknown>;
  if (typeof server === "string" && server !== "" && typeof tool === "string" && tool !== "")
    return { tool: `mcp__${server}__${tool}` };
  if (name.startsWith("mcp__") || !name.startsWith("mcp_")) return { tool: name };
  const split = /^mcp_([^_]+)_(.+)$/.exec(name);
  return { tool: split ? `mcp__${split[1]}__${split[2]}` : name, serverUnknown: true };
}

function parse(payload: Payload): HarnessEvent {
  const name = eventName(payload, "hook_event_name", EVENTS, "Gemini CLI");
  const kind = EVENTS[name]!;
  const base = {
    harness: "gemini" as const,
    name,
    kind,
    sessionId: text(payload, "session_id", true),
    cwd: text(payload, "cwd"),
    payload,
  };
  if (kind === "tool_call" || kind === "tool_result") {
    const named = text(payload, "tool_name", true);
    const { tool, serverUnknown } = mcpToolName(named, payload.mcp_context);
    const input = toolInput(payload, "tool_input");
    // Gemini CLI gives a call no id: one is made of what identifies it within the session.
    const callId =
      firstText(payload, ["tool_call_id", "call_id"]) ?? `${tool}@${text(payload, "timestamp") ?? ""}`;
    return {
      ...base,
      tool: {
        name: tool,
        input,
        callId,
        ...(kind === "tool_result" ? { response: payload.tool_response } : {}),
        ...(serverUnknown ? { serverUnknown } : {}),
      },
    };
  }
  if (kind === "run_start") return { ...base, prompt: text(payload, "prompt", true) };
  if (kind === "run_end") {
    const output = text(payload, "prompt_response");
    const prompt = text(payload, "prompt");
    const stopActive = flag(payload, "stop_hook_active");
    return {
      ...base,
      ...(output !== undefined ? { output } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
      ...(stopActive !== undefined ? { stopActive } : {}),
    };
  }
  if (kind === "model_request" || kind === "model_response") {
    if (typeof payload.llm_request !== "object" || payload.llm_request === null)
      throw new HarnessInputError('the event has no "llm_request" object');
  }
  const detail = firstText(payload, ["source", "reason", "trigger", "message"]);
  return { ...base, ...(detail !== undefined ? { detail } : {}) };
}

function json(value: Record<string, unknown>): HarnessAnswer {
  return Object.keys(value).length ? { exitCode: 0, stdout: `${JSON.stringify(value)}\n` } : { exitCode: 0 };
}

function answer(event: HarnessEvent, verdict: HarnessVerdict): HarnessAnswer {
  const out: Record<string, unknown> = {};
  if (verdict.stop !== undefined) {
    out.continue = false;
    out.stopReason = verdict.stop;
  }
  const specific: Record<string, unknown> = {};
  const context = verdict.context?.length ? verdict.context.join("\n\n") : undefined;
  const blocks = verdict.decision === "deny" || (verdict.decision === "ask" && event.kind === "tool_call");
  if (blocks && event.kind !== "session_start" && event.kind !== "session_end") {
    out.decision = "deny";
    out.reason =
      verdict.decision === "ask"
        ? `needs approval, which Gemini CLI hooks cannot ask for: ${verdict.reason ?? "approval required"}`
        : (verdict.reason ?? "blocked by hookwise");
  } else if (verdict.decision === "allow" && event.kind === "tool_call") out.decision = "allow";
  if (event.kind === "tool_call" && verdict.updatedInput !== undefined && !blocks)
    specific.tool_input = verdict.updatedInput;
  // Gemini CLI reads no new result from an AfterTool hook (it has no `tool_output`): a deny
  // replaces the result the model reads with its reason, so the rewritten result is that reason.
  // The model then reads the reason alone (an AfterTool deny's `additionalContext` does not
  // reach it): the context the hooks added goes after the new result.
  const replaced = event.kind === "tool_result" && verdict.updatedOutput !== undefined && !blocks;
  if (replaced) {
    const output =
      typeof verdict.updatedOutput === "string"
        ? verdict.updatedOutput
        : JSON.stringify(verdict.updatedOutput);
    const result = output.trim() ? output : "(hookwise replaced this tool's output with nothing)";
    out.decision = "deny";
    out.reason = context ? `${result}\n\n${context}` : result;
  }
  if (
    context &&
    !replaced &&
    (event.kind === "tool_result" || event.kind === "run_start" || event.kind === "session_start")
  )
    specific.additionalContext = context;
  if (Object.keys(specific).length) out.hookSpecificOutput = { hookEventName: event.name, ...specific };
  return json(out);
}

export const geminiProtocol: HarnessProtocol = {
  name: "gemini",
  label: "Gemini CLI",
  events: EVENTS,
  tools: GEMINI_TOOLS,
  shellTool: "run_shell_command",
  settings: geminiSettings,
  parse,
  answer,
  // It reads nothing a PreCompress hook answers.
  stopIgnoredAt: ["pre_compact"],
  refuse: (reason) => ({ exitCode: 2, stderr: `${reason}\n` }),
};
