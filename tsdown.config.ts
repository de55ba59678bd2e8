import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { index: "src/index.ts", cli: "src/cli/main.ts", "ai-sdk": "src/ai-sdk/index.ts" },
  format: "esm",
  dts: true,
  platform: "node",
  target: "node20",
  clean: true,
});
