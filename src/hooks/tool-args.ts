/**
 * The type of `event.args` in a hook whose `match` names one tool of a known schema: the
 * tool's input, as its `execute` takes it (`tool()`, the AI SDK's `tool()`) or as its zod /
 * Standard Schema `inputSchema` parses it; `unknown` otherwise (a glob, several names, a
 * JSON Schema, a tool the agent does not have).
 */

/** Events whose payload carries a call's `args`. */
export type ArgsEvent = "tool_call" | "tool_result" | "tool_error" | "approval_request";

type IsAny<T> = 0 extends 1 & T ? true : false;

type SchemaOutput<S> = S extends { readonly _zod: { readonly output: infer T } }
  ? T
  : S extends { readonly _output: infer T }
    ? T
    : S extends { readonly "~standard": { readonly types?: infer TYPES } }
      ? NonNullable<TYPES> extends { readonly output: infer T }
        ? T
        : unknown
      : S extends { readonly _type: infer T; readonly jsonSchema: unknown }
        ? T
        : unknown;

/** What a tool's `execute` takes (`unknown` when it declares nothing more precise than `any`). */
type ExecuteInput<TOOL> = [TOOL] extends [{ execute?: infer F }]
  ? NonNullable<F> extends (args: infer A, ...rest: any[]) => any
    ? IsAny<A> extends true
      ? unknown
      : A
    : unknown
  : unknown;

/** A tool's input: what its `execute` takes, else what its `inputSchema` validates to. */
export type ToolInput<TOOL> =
  unknown extends ExecuteInput<TOOL>
    ? [TOOL] extends [{ inputSchema: infer S }]
      ? SchemaOutput<S>
      : unknown
    : ExecuteInput<TOOL>;

/** True when `M` is one string literal (not `string`, not a union, not `never`). */
type IsOneName<M, ALL = M> = [M] extends [never]
  ? false
  : string extends M
    ? false
    : M extends unknown
      ? [ALL] extends [M]
        ? true
        : false
      : false;

/** `event.args` of a hook matching `M` among `TOOLS` (a record of tools by name). */
export type ToolArgs<TOOLS, M> = [TOOLS] extends [never]
  ? unknown
  : IsOneName<M> extends true
    ? M extends keyof TOOLS
      ? ToolInput<TOOLS[M]>
      : unknown
    : unknown;
