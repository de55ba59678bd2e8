/** Builds the Evaluation a config hook's condition and action see, with lazy statistics. */
import type { AnyEventPayload, ModelMessage } from "../events/payloads.js";
import type { HookContext } from "../hooks/hook-context.js";
import type { Evaluation, RunStats, ToolView } from "./evaluation.js";

export interface StatsOptions {
  /** The model's context window in tokens (models.<name>.context_window); default 128 000. */
  contextWindow?: number;
  maxTurns?: number;
}

export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** A rough token estimate (4 characters a token) for when the provider reported none. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let characters = 0;
  for (const message of messages) {
    characters +=
      typeof message.content === "string" ? message.content.length : JSON.stringify(message.content).length;
  }
  return Math.ceil(characters / 4);
}

function countToolCalls(messages: readonly ModelMessage[]): number {
  let count = 0;
  for (const message of messages) {
    if (message.role === "assistant" && Array.isArray(message.content)) {
      for (const part of message.content) if (part.type === "tool-call") count++;
    }
  }
  return count;
}

function toolView(event: AnyEventPayload): ToolView | undefined {
  switch (event.type) {
    case "tool_call":
      return { name: event.toolName, fqn: event.qualifiedName, params: event.args };
    case "tool_result":
      return {
        name: event.toolName,
        fqn: event.qualifiedName,
        params: event.args,
        result: event.result,
        ...(event.isError ? { error: event.error ?? String(event.result) } : {}),
      };
    case "tool_error":
      return {
        name: event.toolName,
        fqn: event.qualifiedName,
        params: event.args,
        error: event.error instanceof Error ? event.error.message : String(event.error),
      };
    case "invalid_tool_call":
      return { name: event.toolName, fqn: event.toolName, params: event.args, error: event.message };
    case "approval_request":
      return { name: event.toolName, fqn: event.qualifiedName, params: event.args };
    default:
      return undefined;
  }
}

export function makeEvaluation(
  event: AnyEventPayload,
  context: HookContext,
  hookId: string,
  options: StatsOptions = {},
): Evaluation {
  const messages = event.type === "model_request" ? event.history : context.messages;
  let tokens: number | undefined;
  const tokenCount = () => {
    tokens ??= Math.max(estimateTokens(messages), 0);
    return tokens;
  };
  const stats: RunStats = {
    turn: context.turn,
    get tools() {
      return countToolCalls(messages);
    },
    messages: messages.length,
    get tokens() {
      return tokenCount();
    },
    get pressure() {
      return tokenCount() / (options.contextWindow ?? DEFAULT_CONTEXT_WINDOW);
    },
    max_turns: options.maxTurns ?? 20,
  };
  return {
    event,
    context,
    stats,
    tool: toolView(event),
    error:
      event.type === "model_error" ? { type: event.error.type, message: event.error.message } : undefined,
    messages,
    hookId,
  };
}
