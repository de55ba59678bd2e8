/**
 * `tool()`: a typed identity helper for tool definitions. Plain objects of the same shape
 * are accepted everywhere a tool is (so a tools module needs no import of hookwise).
 */

import type { ToolAlias } from "./tool-alias.js";
import type { HookContextView } from "./tool-context.js";

export interface ToolExecutionOptions {
  toolCallId: string;
  /** Cancelled when the run is aborted. */
  signal: AbortSignal;
  /** The hook context of the call (session, run, step), for tools that need identity. */
  context: HookContextView;
}

export interface ToolDefinition<Args = any, Result = unknown> {
  description?: string;
  /** A zod schema or a plain JSON Schema object. Arguments are validated before `execute`. */
  inputSchema: unknown;
  /** Optional: a rewritten result is validated against it. */
  outputSchema?: unknown;
  /** Optional: the name and argument shape hooks written for Claude Code know this tool by. */
  alias?: ToolAlias;
  execute(args: Args, options: ToolExecutionOptions): Result | Promise<Result>;
}

type ZodLike<T> = {
  _zod: unknown;
  safeParse(value: unknown): { success: true; data: T } | { success: false };
};

type InferArgs<S> = S extends ZodLike<infer T> ? T : any;

export function tool<Schema, Result>(definition: {
  description?: string;
  inputSchema: Schema;
  outputSchema?: unknown;
  alias?: ToolAlias;
  execute(args: InferArgs<Schema>, options: ToolExecutionOptions): Result | Promise<Result>;
}): ToolDefinition<InferArgs<Schema>, Result> {
  return definition;
}
