/**
 * A condition's or action's schema is written as a function and built at its first use,
 * so importing hookwise builds no config schema (and does not load zod).
 */
import { lazy } from "../../deps/load-package.js";

export function withLazySchema<M extends { schema(): unknown }>(
  definition: M,
): Omit<M, "schema"> & { readonly schema: ReturnType<M["schema"]> } {
  const schema = lazy(() => definition.schema() as ReturnType<M["schema"]>);
  const module = { ...definition } as Omit<M, "schema"> & { schema?: unknown };
  delete module.schema;
  return Object.defineProperty(module, "schema", { get: schema, enumerable: true }) as Omit<M, "schema"> & {
    readonly schema: ReturnType<M["schema"]>;
  };
}
