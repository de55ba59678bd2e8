/**
 * zod, loaded at its first use. `z` is used as zod's own `z`; zod itself loads when a
 * schema is first built, so a schema a module keeps is built inside `lazy(() => …)`.
 *
 * Built code loads `deps/zod.cjs`, the members of `z` listed in `bundled/zod.ts` in one
 * file; `z` offers only those, so using another is a type error until it is listed there.
 */
import type * as Zod from "zod";
import type bundled from "./bundled/zod.js";
import { loadPackage } from "./load-package.js";

type ZodNamespace = typeof bundled;

let loaded: ZodNamespace | undefined;

function zod(): ZodNamespace {
  // The package (running from the sources) has every member of `z` at its top level.
  loaded ??= loadPackage<ZodNamespace>("zod", "zod");
  return loaded;
}

export const z: ZodNamespace = new Proxy({} as ZodNamespace, {
  get: (_target, key) => Reflect.get(zod(), key),
  has: (_target, key) => Reflect.has(zod(), key),
});

/** The types of zod's `z` that hookwise's code names. */
export declare namespace z {
  export type ZodType<Output = unknown, Input = unknown> = Zod.z.ZodType<Output, Input>;
  export type ZodError<T = unknown> = Zod.z.ZodError<T>;
  export type RefinementCtx<T = unknown> = Zod.z.RefinementCtx<T>;
  export type output<T> = Zod.z.output<T>;
  export type input<T> = Zod.z.input<T>;
  export type infer<T> = Zod.z.infer<T>;
  export namespace core {
    export type $ZodIssue = Zod.z.core.$ZodIssue;
  }
}
