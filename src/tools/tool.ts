/**
 * `tool()`: a typed identity helper for tool definitions. Plain objects of the same shape
 * are accepted everywhere a tool is (so a tools module needs no import of hookwise), and so
 * are the AI SDK's own `tool()` objects, unchanged.
 */

import type { ModelMessage, ToolResultOutput } from "@ai-sdk/provider-utils";
import type { ToolAlias } from "./tool-alias.js";
import type { HookContextView } from "./tool-context.js";

export interface ToolExecutionOptions {
  toolCallId: string;
  /** Cancelled when the run is aborted (the AI SDK's name for it). */
  abortSignal: AbortSignal;
  /** The same signal as `abortSignal`. */
  signal: AbortSignal;
  /**
   * The transcript the model saw when it asked for this call (without the system prompt and
   * without the assistant message that holds the call).
   */
  messages: ModelMessage[];
  /** The hook context of the call (session, run, step), for tools that need identity. */
  context: HookContextView;
}

/** Whether a call needs a human's approval first: `true`, or a function of the arguments. */
export type NeedsApproval<Args> =
  | boolean
  | ((args: Args, options: ToolExecutionOptions) => boolean | PromiseLike<boolean>);

/** Maps a tool's result to what the model is sent (the transcript keeps the same). */
export type ToModelOutput<Args, Result> = (options: {
  toolCallId: string;
  input: Args;
  output: Result;
}) => ToolResultOutput | PromiseLike<ToolResultOutput>;

export interface ToolDefinition<Args = any, Result = unknown> {
  /**
   * What the tool does, as the model is told. An AI SDK tool's description function is
   * called once, when the agent is created, with an empty `context`.
   */
  description?: string | ((options: { context: any }) => string);
  /**
   * A zod (3 or 4) schema, a Standard Schema with a JSON Schema converter, an AI SDK schema
   * (`jsonSchema()`, `zodSchema()`), or a plain JSON Schema object. Arguments are validated
   * before `execute`.
   */
  inputSchema: unknown;
  /** Optional: a rewritten result is validated against it. */
  outputSchema?: unknown;
  /** Optional: the name and argument shape hooks written for Claude Code know this tool by. */
  alias?: ToolAlias;
  /** Optional: every call (or those for which the function answers true) asks a human first. */
  needsApproval?: NeedsApproval<Args>;
  /** Optional: what the model is sent of a result, instead of the result as JSON or text. */
  toModelOutput?(options: {
    toolCallId: string;
    input: Args;
    output: Result;
  }): ToolResultOutput | PromiseLike<ToolResultOutput>;
  /**
   * Runs the call. It may return its result, a promise of it, or an async iterable of
   * preliminary results whose last one is the result.
   */
  execute(args: Args, options: ToolExecutionOptions): Result | PromiseLike<Result> | AsyncIterable<Result>;
}

type ZodLike<T> = {
  _zod: unknown;
  safeParse(value: unknown): { success: true; data: T } | { success: false };
};

type InferArgs<S> =
  S extends ZodLike<infer T>
    ? T
    : S extends { "~standard": { types?: { output: infer T } } }
      ? T
      : S extends { _type: infer T; jsonSchema: unknown }
        ? T
        : any;

export function tool<Schema, Result>(definition: {
  description?: ToolDefinition["description"];
  inputSchema: Schema;
  outputSchema?: unknown;
  alias?: ToolAlias;
  needsApproval?: NeedsApproval<InferArgs<Schema>>;
  toModelOutput?: ToModelOutput<InferArgs<Schema>, Result>;
  execute(
    args: InferArgs<Schema>,
    options: ToolExecutionOptions,
  ): Result | PromiseLike<Result> | AsyncIterable<Result>;
}): ToolDefinition<InferArgs<Schema>, Result> {
  return definition;
}

/**
 * A tool as `createAgent` takes it: a `ToolDefinition`, or an AI SDK `tool()` object (AI SDK 6
 * or 7) as it is. The functions are typed loosely here because AI SDK 7's message and output
 * types come from a newer provider package; what they answer is checked when they run. The
 * AI SDK marks `execute` optional (for tools its client runs); hookwise runs every tool
 * itself, so a tool without `execute` is refused when the agent is created.
 */
export type AgentTool = Omit<
  ToolDefinition,
  "description" | "needsApproval" | "toModelOutput" | "execute"
> & {
  description?: string | ((options: { context: any }) => string);
  needsApproval?: boolean | ((args: any, options: any) => boolean | PromiseLike<boolean>);
  toModelOutput?: (options: any) => unknown;
  execute?: (args: any, options: any) => unknown;
};
