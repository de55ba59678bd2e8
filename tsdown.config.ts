import { realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { defineConfig } from "tsdown";

/** hookwise's sources, as the bundler names the modules it reads (symbolic links resolved). */
const SOURCES = realpathSync(join(import.meta.dirname, "src")) + sep;

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      cli: "src/cli/main.ts",
      "ai-sdk": "src/ai-sdk/index.ts",
      // Parts the package entry loads at their first use (see the plugin below).
      "config-compiler": "src/config/compiler.ts",
      "remote-toolsets": "src/tools/remote-toolsets.ts",
      "claude-hooks": "src/config/claude-hooks/compile-settings.ts",
    },
    format: "esm",
    dts: true,
    platform: "node",
    target: "node20",
    clean: true,
    // Only the CLI uses commander: built into dist/cli.mjs, one file to load instead of five.
    deps: { alwaysBundle: ["commander"] },
    // A module `x.link.ts` is how the package entry reaches a part it loads at first use
    // (the config compiler, the REST and MCP toolsets, the Claude Code settings compiler):
    // run from the sources it imports that part; built, `x.link.built.ts` takes its place and
    // loads the part's own entry above at the first call, so `import "hookwise"` does not.
    plugins: [
      {
        name: "hookwise:parts-loaded-at-first-use",
        resolveId(source: string, importer: string | undefined) {
          // Only hookwise's own relative imports: never a dependency's file that happens to
          // share the suffix.
          if (importer === undefined || !importer.startsWith(SOURCES)) return null;
          if (!source.startsWith(".") || !source.endsWith(".link.js")) return null;
          return join(dirname(importer), source.replace(/\.link\.js$/, ".link.built.ts"));
        },
      },
    ],
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
