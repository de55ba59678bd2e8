/**
 * Loads a package synchronously at its first use instead of when hookwise is imported,
 * so `import("hookwise")` and the CLI's start-up pay only for what they run.
 *
 * The package is resolved the way `import` resolves it and then required, so an ES module
 * package is the very instance an `import` of it gives (not a second copy), and a CommonJS
 * one is its `module.exports`. Built as CommonJS (`hookwise hook`'s own build), where there is
 * no `import.meta.resolve`, it is resolved as `require` resolves it.
 *
 * A package that only hookwise's own code uses (`bundled`) is built into one CommonJS file
 * beside the built code (`deps/<bundled>.cjs`, see tsdown.config.ts); that file is loaded
 * when it is there (through the CLI's compiled-code cache when it is on: `code-cache.ts`),
 * the package itself otherwise (running from the sources).
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compiledDepsCached, loadCached } from "./code-cache.js";

/**
 * Made at first use, as is the folder of the bundled packages: a process that loads them
 * through the compiled-code cache (`hookwise hook`) needs no `require` of its own here, and
 * each URL made from `import.meta.url` is a noticeable part of that process's start.
 */
let require: NodeRequire | undefined;
const requireHere = () => (require ??= createRequire(import.meta.url));

/** `deps/` beside the built code. */
const depsFolder = lazy(() => fileURLToPath(new URL("./deps/", import.meta.url)));

export function loadPackage<T>(name: string, bundled?: string): T {
  if (bundled !== undefined) {
    const built = loadBundled<T>(bundled);
    if (built !== undefined) return built;
  }
  let path: string | undefined;
  try {
    const url = import.meta.resolve?.(name);
    if (url?.startsWith("file:")) path = fileURLToPath(url);
  } catch {
    // resolved by require below, which names the package when it is missing
  }
  return requireHere()(path ?? name) as T;
}

/**
 * The built file `deps/<bundled>.cjs` beside the built code, or undefined when there is none.
 * `found`: the paths of modules it requires by name that the caller already knows (through the
 * compiled-code cache, they are not looked for again).
 */
export function loadBundled<T>(bundled: string, found?: Readonly<Record<string, string>>): T | undefined {
  const file = join(depsFolder(), `${bundled}.cjs`);
  if (!existsSync(file)) return undefined;
  return (compiledDepsCached() ? loadCached(file, found) : requireHere()(file)) as T;
}

/** A value built once, at its first use. */
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
