/**
 * The hookwise the benchmarks measure: the built package (`dist/`, what users install),
 * typed by its sources. Measuring the sources through tsx would add tsx's per-closure
 * naming helper to every function the loop creates. `npm run bench` builds first.
 */
import { existsSync } from "node:fs";
import type * as Hookwise from "../../src/index.js";

const built = new URL("../../dist/index.mjs", import.meta.url);
if (!existsSync(built)) {
  console.error("bench: dist/index.mjs is missing; run `npm run build` first (`npm run bench` does)");
  process.exit(2);
}

export const hookwise: typeof Hookwise = await import(built.href);
