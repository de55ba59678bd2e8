/**
 * The in-process decision bench (decide.ts) compiled to plain JavaScript, as hookwise ships:
 * under tsx each closure a decision makes would also be named by tsx's helper, a cost no user
 * pays. Only the bench's and hookwise's own files are bundled (packages stay imports).
 */
import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { "harness-decide": "decide.ts" },
  outDir: "../.build/harness",
  format: "esm",
  platform: "node",
  target: "node20",
  dts: false,
  clean: true,
  report: false,
  deps: { skipNodeModulesBundle: true },
});
