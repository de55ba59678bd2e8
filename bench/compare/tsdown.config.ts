/**
 * The comparison compiled to plain JavaScript before it runs, so its processes start on
 * plain Node: under tsx, loading LangChain, OpenAI Agents and the AI SDK costs about 2.5×
 * the CPU, paid again by each of the bench's 100-odd processes. Only the bench's own files
 * are bundled (packages stay imports). The output is one flat folder two levels below the
 * repository, as bench/shared/ is, because bench/shared/hookwise.ts finds dist/ relative to
 * its own location.
 */
import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { run: "run.ts" },
  outDir: "../.build",
  format: "esm",
  platform: "node",
  target: "node20",
  dts: false,
  clean: true,
  report: false,
  deps: { skipNodeModulesBundle: true },
});
