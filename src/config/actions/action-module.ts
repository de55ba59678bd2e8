/**
 * An action kind: its schema, the events it can act on, the hook kind it
 * compiles to, and its implementation. Each kind is its own module, listed once in `index.ts`.
 */
import type { z } from "zod";
import type { EventName, HookKind } from "../../events/catalogue.js";
import type { Flow } from "../../hooks/flow.js";
import type { ActionServices, Evaluation } from "../build/evaluation.js";
import { withLazySchema } from "../schema/lazy-schema.js";

/** Runs the action; returns the flow the config hook answers with (or undefined). */
export type ActionRun = (evaluation: Evaluation) => Flow | undefined | Promise<Flow | undefined>;

export type CompileChildAction = (value: unknown, path: readonly (string | number)[]) => CompiledAction;

export interface CompiledAction {
  run: ActionRun;
  kind: HookKind;
  type: string;
}

export interface ActionModule<C extends { type: string } = any> {
  readonly type: string;
  /** Other names accepted in config (legacy spellings). */
  readonly aliases?: readonly string[];
  readonly description: string;
  readonly schema: z.ZodType<C>;
  /** The events it can act on; "any" for observers (log, notify). */
  readonly events: readonly EventName[] | "any";
  /** The hook kind it compiles to (chain derives it from its children). */
  kind(config: C, childKinds: readonly HookKind[]): HookKind;
  /** What `validate` reports as warnings about a valid config (a risk the author took on). */
  warnings?(config: C): { path: readonly (string | number)[]; message: string }[];
  /** Nested actions (chain), validated recursively by the loader. */
  children?(config: C): { value: unknown; path: readonly (string | number)[] }[];
  compile(config: C, services: ActionServices, compileChild: CompileChildAction): ActionRun;
  /** An example for docs and tests. */
  /** NoInfer: the config type comes from the schema, never from the example's literals. */
  readonly example: NoInfer<C>;
}

/** An action module as written: its schema is built at first use (zod loads with the first config). */
export type ActionDefinition<C extends { type: string }> = Omit<ActionModule<C>, "schema"> & {
  schema(): z.ZodType<C>;
};

export function defineAction<C extends { type: string }>(definition: ActionDefinition<C>): ActionModule<C> {
  return withLazySchema(definition);
}
