/**
 * Loads one of hookwise's own built files (`dist/<name>.mjs`, an entry in tsdown.config.ts)
 * at its first use, synchronously: what a `*.link.built.ts` module does in the built package.
 * It shares every other module with the code that loads it, so what it makes (hooks, errors,
 * toolsets) is the package's own.
 */
import { createRequire } from "node:module";
import { lazy } from "./load-package.js";

const require = createRequire(import.meta.url);

export function ownFile<T>(name: string): () => T {
  return lazy(() => require(`./${name}.mjs`) as T);
}
