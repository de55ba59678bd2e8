/**
 * Builds the Evaluation a config hook's condition and action see, with lazy statistics.
 * `tokens` and `pressure` come from the loop's token accounting (`ctx.contextWindow`:
 * provider-reported usage where known, a tokenizer estimate for the rest); outside a loop,
 * from the tokenizer alone.
 */
import { contextWindowFor } from "../../context/context-window.js";
import { estimateTokens } from "../../context/count-tokens.js";
import type { AnyEventPayload, ModelMessage } from "../../events/payloads.js";
import type { HookContext } from "../../hooks/hook-context.js";
import type { Evaluation, RunStats, ToolView } from "./evaluation.js";

export interface StatsOptions {
  /**
   * The model's context window in tokens (models.<name>.context_window). Default: the
   * loop's (the agent's `contextWindow`, or the known window of its model), else 128 000.
   */
  contextWindow?: number;
  maxTurns?: number;
}

export { DEFAULT_CONTEXT_WINDOW } from "../../context/context-window.js";
export { estimateTokens };

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
  // Read when a condition or action asks: the history is a copy of the transcript (as long
  // as the session), and most hooks never look at it.
  let messages: readonly ModelMessage[] | undefined;
  const history = () => (messages ??= event.type === "model_request" ? event.history : context.messages);
  let tokens: number | undefined;
  const tokenCount = () => {
    tokens ??= context.contextWindow ? context.contextWindow.tokens(history()) : estimateTokens(history());
    return tokens;
  };
  const window =
    options.contextWindow ?? context.contextWindow?.window ?? contextWindowFor(context.model?.modelId);
  const stats: RunStats = {
    turn: context.turn,
    get tools() {
      return countToolCalls(history());
    },
    get messages() {
      return history().length;
    },
    get tokens() {
      return tokenCount();
    },
    get pressure() {
      return tokenCount() / window;
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
    get messages() {
      return history();
    },
    hookId,
  };
}
