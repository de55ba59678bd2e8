import { defineConfig } from "tsdown";

export default defineConfig([
  {
    entry: { index: "src/index.ts", cli: "src/cli/main.ts", "ai-sdk": "src/ai-sdk/index.ts" },
    format: "esm",
    dts: true,
    platform: "node",
    target: "node20",
    clean: true,
    // Only the CLI uses commander: built into dist/cli.mjs, one file to load instead of five.
    deps: { alwaysBundle: ["commander"] },
  },
  {
    // Packages only hookwise's own code calls (for zod, the part it calls: see
    // src/deps/bundled/zod.ts), each built into
    // one file that `deps/load-package.ts` loads at first use: a config's start-up reads two
    // files instead of about ninety.
    entry: {
      "deps/yaml": "src/deps/bundled/yaml.ts",
      "deps/cel-js": "src/deps/bundled/cel-js.ts",
      "deps/zod": "src/deps/bundled/zod.ts",
    },
    format: "esm",
    dts: false,
    platform: "node",
    target: "node20",
    clean: false,
    deps: { alwaysBundle: ["yaml", "@marcbachmann/cel-js", "zod"] },
  },
]);
