/**
 * A condition kind: its schema, the events it can be evaluated on, and how it
 * compiles to a predicate. Each kind is its own module, listed once in `index.ts`.
 */
import type { z } from "zod";
import type { EventName } from "../../events/catalogue.js";
import type { Evaluation } from "../build/evaluation.js";
import { withLazySchema } from "../schema/lazy-schema.js";

export type Predicate = (evaluation: Evaluation) => boolean | Promise<boolean>;

/** Compiles a nested condition (composites); `path` is relative to the parent condition. */
export type CompileChild = (value: unknown, path: readonly (string | number)[]) => Predicate;

export interface ChildRef {
  value: unknown;
  path: readonly (string | number)[];
}

export interface ConditionModule<C extends { type: string } = any> {
  readonly type: string;
  readonly description: string;
  /** Validates the whole condition object (its `type` included). */
  readonly schema: z.ZodType<C>;
  /** The events it can be evaluated on; omitted = any event. */
  readonly events?: readonly EventName[];
  /** Nested conditions, validated recursively by the loader. */
  children?(config: C): ChildRef[];
  compile(config: C, compileChild: CompileChild): Predicate;
  /** An example for docs and tests (YAML-shaped object). */
  /** NoInfer: the config type comes from the schema, never from the example's literals. */
  readonly example: NoInfer<C>;
}

/** A condition module as written: its schema is built at first use (zod loads with the first config). */
export type ConditionDefinition<C extends { type: string }> = Omit<ConditionModule<C>, "schema"> & {
  schema(): z.ZodType<C>;
};

export function defineCondition<C extends { type: string }>(
  definition: ConditionDefinition<C>,
): ConditionModule<C> {
  return withLazySchema(definition);
}
