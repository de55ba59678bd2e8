/**
 * The hook protocol Claude Code defined and Codex CLI follows: JSON on stdin with
 * `hook_event_name`, `session_id`, `cwd`, `tool_name`/`tool_input`/`tool_use_id`; the answer
 * as JSON on stdout (`hookSpecificOutput.permissionDecision`, `updatedInput`,
 * `additionalContext`, `decision: "block"` with a `reason`, `continue: false`), or exit 2
 * with the reason on stderr.
 */

import { eventName, firstText, flag, type Payload, text, toolInput } from "../read-payload.js";
import type { HarnessAnswer, HarnessEvent, HarnessEventKind, HarnessName, HarnessVerdict } from "../types.js";

/** The events of the wire that are about a tool (`tool_name` and `tool_input` are required). */
const TOOL_EVENTS: ReadonlySet<HarnessEventKind> = new Set([
  "tool_call",
  "tool_result",
  "tool_error",
  "approval_request",
]);

export function parseClaudeWire(
  harness: HarnessName,
  label: string,
  events: Readonly<Record<string, HarnessEventKind>>,
  payload: Payload,
): HarnessEvent {
  const name = eventName(payload, "hook_event_name", events, label);
  const kind = events[name]!;
  const sessionId = text(payload, "session_id", true);
  const base = { harness, name, kind, sessionId, cwd: text(payload, "cwd"), payload };
  if (TOOL_EVENTS.has(kind)) {
    const tool = text(payload, "tool_name", true);
    const callId = firstText(payload, ["tool_use_id", "call_id", "tool_call_id"]) ?? "";
    return {
      ...base,
      tool: {
        name: tool,
        input: toolInput(payload, "tool_input"),
        callId,
        ...(kind === "tool_result" ? { response: payload.tool_response ?? payload.tool_output } : {}),
        ...(kind === "tool_error" ? { error: firstText(payload, ["error"]) ?? "the tool failed" } : {}),
      },
    };
  }
  switch (kind) {
    case "run_start":
      return { ...base, prompt: text(payload, "prompt", true) };
    case "run_end": {
      const output = firstText(payload, ["last_assistant_message", "last_agent_message"]);
      const stopActive = flag(payload, "stop_hook_active");
      return {
        ...base,
        ...(output !== undefined ? { output } : {}),
        ...(stopActive !== undefined ? { stopActive } : {}),
      };
    }
    default: {
      const detail = firstText(payload, ["source", "reason", "trigger", "message"]);
      return { ...base, ...(detail !== undefined ? { detail } : {}) };
    }
  }
}

function json(value: Record<string, unknown>): HarnessAnswer {
  return { exitCode: 0, stdout: `${JSON.stringify(value)}\n` };
}

const NOTHING: HarnessAnswer = { exitCode: 0 };

/** `continue: false` with the reason, when a hook ended the run; added to any answer. */
function stopping(verdict: HarnessVerdict): Record<string, unknown> {
  return verdict.stop === undefined ? {} : { continue: false, stopReason: verdict.stop };
}

function contextOf(verdict: HarnessVerdict): string | undefined {
  return verdict.context?.length ? verdict.context.join("\n\n") : undefined;
}

/** Where Codex CLI reads the wire otherwise than Claude Code. */
export interface WireDialect {
  /** `updatedInput` is run only with `permissionDecision: "allow"` (Codex): a rewrite then allows the call. */
  rewriteNeedsAllow?: boolean;
  /**
   * A PostToolUse `decision: "block"` replaces the tool's output with its reason, an MCP tool's
   * too: `updatedMCPToolOutput` is not taken (Codex).
   */
  blockReplacesOutput?: boolean;
}

export function answerClaudeWire(
  event: HarnessEvent,
  verdict: HarnessVerdict,
  dialect: WireDialect = {},
): HarnessAnswer {
  const context = contextOf(verdict);
  // Never a blank reason: Codex CLI takes a deny or a block without one as the hook's failure
  // and lets the call (the prompt, the tool's output) through.
  const reason = verdict.reason?.trim() ? verdict.reason : "blocked by hookwise";
  switch (event.kind) {
    case "tool_call": {
      const specific: Record<string, unknown> = { hookEventName: event.name };
      if (verdict.decision !== "none") specific.permissionDecision = verdict.decision;
      else if (dialect.rewriteNeedsAllow && verdict.updatedInput !== undefined)
        specific.permissionDecision = "allow";
      if (verdict.decision === "deny" || verdict.decision === "ask" || verdict.reason !== undefined)
        specific.permissionDecisionReason = reason;
      if (verdict.updatedInput !== undefined && verdict.decision !== "deny")
        specific.updatedInput = verdict.updatedInput;
      if (context) specific.additionalContext = context;
      if (Object.keys(specific).length === 1 && verdict.stop === undefined) return NOTHING;
      return json({ ...stopping(verdict), hookSpecificOutput: specific });
    }
    case "tool_result":
    case "tool_error": {
      const specific: Record<string, unknown> = { hookEventName: event.name };
      const out: Record<string, unknown> = { ...stopping(verdict) };
      const parts = context ? [context] : [];
      if (verdict.updatedOutput !== undefined) {
        if (dialect.blockReplacesOutput) {
          out.decision = "block";
          out.reason = printable(verdict.updatedOutput).trim()
            ? printable(verdict.updatedOutput)
            : "(hookwise replaced this tool's output with nothing)";
        } else if (event.tool?.name.startsWith("mcp__"))
          specific.updatedMCPToolOutput = verdict.updatedOutput;
        else {
          // Only an MCP tool's output can be replaced; the model is told what to read instead.
          out.decision = "block";
          out.reason = `hookwise rewrote this tool's result${verdict.hook ? ` (hook ${verdict.hook})` : ""}; use this instead of the output above: ${printable(verdict.updatedOutput)}`;
        }
      }
      if (verdict.decision === "deny") {
        out.decision = "block";
        out.reason = reason;
      }
      if (parts.length) specific.additionalContext = parts.join("\n\n");
      if (Object.keys(specific).length > 1) out.hookSpecificOutput = specific;
      return Object.keys(out).length ? json(out) : NOTHING;
    }
    case "run_start":
    case "session_start": {
      const out: Record<string, unknown> = { ...stopping(verdict) };
      if (verdict.decision === "deny" && event.kind === "run_start") {
        out.decision = "block";
        out.reason = reason;
      }
      if (context) out.hookSpecificOutput = { hookEventName: event.name, additionalContext: context };
      return Object.keys(out).length ? json(out) : NOTHING;
    }
    case "run_end":
    case "pre_compact": {
      const out: Record<string, unknown> = { ...stopping(verdict) };
      if (verdict.decision === "deny") {
        out.decision = "block";
        out.reason = reason;
      }
      return Object.keys(out).length ? json(out) : NOTHING;
    }
    case "approval_request": {
      if (verdict.decision === "allow" || verdict.decision === "deny") {
        const decision: Record<string, unknown> = { behavior: verdict.decision };
        if (verdict.decision === "deny") decision.message = reason;
        if (verdict.decision === "allow" && verdict.updatedInput !== undefined)
          decision.updatedInput = verdict.updatedInput;
        return json({ ...stopping(verdict), hookSpecificOutput: { hookEventName: event.name, decision } });
      }
      return verdict.stop === undefined ? NOTHING : json(stopping(verdict));
    }
    default:
      return verdict.stop === undefined ? NOTHING : json(stopping(verdict));
  }
}

/** Exit 2 with the reason on stderr: what every event of the wire reads as a block. */
export function refuseClaudeWire(reason: string): HarnessAnswer {
  return { exitCode: 2, stderr: `${reason}\n` };
}

function printable(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}
