/** picomatch, loaded when the first glob is compiled or scanned. */
import type Picomatch from "picomatch";
import { lazy, loadPackage } from "./load-package.js";

const load = lazy(() => loadPackage<typeof Picomatch>("picomatch", "picomatch"));

/** The package's default export: `picomatch(patterns, options)`, `picomatch.scan(…)`. */
export const picomatch: typeof Picomatch = new Proxy((() => undefined) as unknown as typeof Picomatch, {
  apply: (_target, self, args) => Reflect.apply(load(), self, args),
  get: (_target, key) => Reflect.get(load(), key),
});

export declare namespace picomatch {
  export type Matcher = Picomatch.Matcher;
}
