/**
 * The model interface hookwise drives: any AI SDK provider model, spec V3 (AI SDK 6
 * providers) or V4 (AI SDK 7 providers). Both specs share the subset the loop uses
 * (prompt, tools, toolChoice, generation settings; text, reasoning and tool-call output),
 * so the loop reads results through one normalised shape (`ModelTurn`).
 */
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";

/**
 * A V4 model, typed structurally so users of AI SDK 6 need no V4 types installed. V4's call
 * options are not assignable from V3's (tagged file data, `reasoning`), so the parameter is
 * `never`: every V4 model is accepted, and the loop calls it through `callableModel` with
 * the subset both specs share.
 */
export interface LanguageModelV4Like {
  readonly specificationVersion: "v4";
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: never): PromiseLike<unknown>;
  doStream(options: never): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

export type LanguageModel = LanguageModelV3 | LanguageModelV4Like;

export type CallOptions = LanguageModelV3CallOptions;

/** A model as the loop calls it: with call options in the shape V3 and V4 share. */
export interface CallableModel {
  doGenerate(options: CallOptions): PromiseLike<unknown>;
  doStream(options: CallOptions): PromiseLike<{ stream: ReadableStream<unknown> }>;
}

export function callableModel(model: LanguageModel): CallableModel {
  return model as CallableModel;
}

export interface ModelUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
  /** Input tokens read from the provider's prompt cache (part of `inputTokens`), when it says. */
  cacheReadTokens?: number | undefined;
  /** Input tokens written to the provider's prompt cache (part of `inputTokens`), when it says. */
  cacheWriteTokens?: number | undefined;
}

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** The arguments as the model sent them (a JSON string from providers). */
  rawInput: string;
  /** `rawInput` parsed once (`{}` when empty); the raw string itself when it is not JSON. */
  args: unknown;
  /** Whether `rawInput` was valid JSON. */
  argsParsed: boolean;
}

export type AssistantPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };

/** One attempt's output, the same shape whether it came from doGenerate or doStream. */
export interface ModelTurn {
  text: string;
  reasoning: string;
  toolCalls: ModelToolCall[];
  finishReason: string;
  usage: ModelUsage;
  response?: { id?: string; modelId?: string };
}

export function isSupportedModel(model: unknown): model is LanguageModel {
  if (typeof model !== "object" || model === null) return false;
  const candidate = model as { specificationVersion?: unknown; doGenerate?: unknown; doStream?: unknown };
  return (
    (candidate.specificationVersion === "v3" || candidate.specificationVersion === "v4") &&
    typeof candidate.doGenerate === "function" &&
    typeof candidate.doStream === "function"
  );
}
