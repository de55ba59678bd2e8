import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { parseAst } from "rolldown/parseAst";
import { defineConfig } from "tsdown";

/** hookwise's sources, as the bundler names the modules it reads (symbolic links resolved). */
const SOURCES = realpathSync(join(import.meta.dirname, "src")) + sep;

/**
 * The modules each entry loads before it runs (its static imports, followed), recorded as the
 * bundler parses them so that the chunks can be cut along what an entry loads.
 */
function staticImports() {
  const imports = new Map<string, readonly string[]>();
  const reached = new Map<string, Set<string>>();
  const reach = (entry: string): Set<string> => {
    let found = reached.get(entry);
    if (found) return found;
    found = new Set();
    const pending = [entry];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (found.has(id)) continue;
      found.add(id);
      pending.push(...(imports.get(id) ?? []));
    }
    reached.set(entry, found);
    return found;
  };
  return {
    plugin: {
      name: "hookwise:static-imports",
      moduleParsed(info: { id: string; importedIds: readonly string[] }) {
        imports.set(info.id, info.importedIds);
      },
    },
    /** Whether `entry` (a path under src/) loads module `id` before it runs. */
    loads: (entry: string, id: string) => reach(SOURCES + entry).has(id),
  };
}

const graph = staticImports();

/** Whether `hookwise validate` loads module `id` before it runs. */
const validates = (id: string) => graph.loads("cli/commands/validate-command.ts", id);

/** Whether `hookwise hook` loads module `id` (its command imports the config's hooks when it runs). */
const hooks = (id: string) =>
  graph.loads("cli/commands/hook-command.ts", id) || graph.loads("config/load-harness-hooks.ts", id);

/** The part of a rendered chunk this plugin reads. */
interface RenderedChunk {
  fileName: string;
  imports?: readonly string[];
}

/**
 * Node's own modules, taken with `process.getBuiltinModule` instead of `import`. On Node 20
 * each `import { … } from "node:…"` makes an ES module facade of the built-in, reading every
 * export once (lazy ones too: the facade of `node:fs` loads the streams), and the package
 * entry imports nine of them: without the facades `import "hookwise"` took 5 ms less on an
 * idle machine (52 → 47 ms, medians of 25) and 12 ms less on a busy one. A chunk's built-ins are then constants set when the chunk runs, so
 * no chunk may import another in a cycle, or one could call into a chunk that has not run
 * yet: the build checks this (the bundler makes none today). Declaration files keep their
 * imports.
 */
const builtinsAtRun = {
  name: "hookwise:builtins-at-run",
  renderChunk(code: string, chunk: RenderedChunk) {
    if (chunk.fileName.endsWith(".d.mts")) return null;
    const rewritten = code.replace(
      /^import \{([^}]*)\} from "(node:[\w/]+)";$/gm,
      (_line, names: string, id: string) =>
        `const {${names.replace(/ as /g, ": ")}} = process.getBuiltinModule(${JSON.stringify(id)});`,
    );
    if (/^import [^;]*from "node:/m.test(rewritten))
      throw new Error(`${chunk.fileName}: an import of a built-in this plugin does not rewrite`);
    return rewritten === code ? null : { code: rewritten, map: null };
  },
  generateBundle(_options: unknown, bundle: Record<string, RenderedChunk & { type: string }>) {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (file: string, path: string[]) => {
      if (done.has(file)) return;
      if (visiting.has(file))
        throw new Error(`chunks import each other in a cycle: ${[...path, file].join(" → ")}`);
      visiting.add(file);
      for (const imported of bundle[file]?.imports ?? []) visit(imported, [...path, file]);
      visiting.delete(file);
      done.add(file);
    };
    for (const [file, output] of Object.entries(bundle))
      if (output.type === "chunk" && !file.endsWith(".d.mts")) visit(file, []);
  },
};

/**
 * Every built file in ASCII: each character past it written as a `\uXXXX` escape (UTF-16
 * code units), which strings, template literals, regular expressions, identifiers and
 * comments all read as the character itself. Node 20 decodes an ES module's file with
 * TextDecoder and V8 keeps a file with one such character as a two-byte string, which it
 * parses and compiles more slowly: the dashes and arrows of doc comments made decoding the
 * chunks `hookwise hook` loads (about a megabyte) several times slower, on every tool call
 * of a harness. Where an escape would not read the same the build stops instead: a tagged
 * template (its raw text), a backslash before the character, or a line separator (which
 * ends a `//` comment).
 */
const asciiOutput = {
  name: "hookwise:ascii-output",
  // The files as written: strings a plugin's renderChunk escaped are printed back as
  // characters by the bundler's own last pass.
  generateBundle(_options: unknown, bundle: Record<string, { type: string; code?: string }>) {
    for (const [file, output] of Object.entries(bundle))
      if (output.type === "chunk" && output.code !== undefined && !file.endsWith(".d.mts"))
        output.code = inAscii(file, output.code);
  },
};

function inAscii(file: string, code: string): string {
  if (!/[\u0080-\uffff]/.test(code)) return code;
  const refuse = (what: string) => {
    throw new Error(`${file}: ${what}; write the character as an escape in the source`);
  };
  if (/[\u2028\u2029]/.test(code)) refuse("a line or paragraph separator");
  if (/\\[\u0080-\uffff]/.test(code)) refuse("a backslash before a character past ASCII");
  const tagged: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const { type, quasi } = node as { type?: string; quasi?: unknown };
    const text = type === "TaggedTemplateExpression" ? JSON.stringify(quasi) : "";
    if (/[\u0080-\uffff]/.test(text)) tagged.push(text.slice(0, 80));
    for (const value of Object.values(node)) walk(value);
  };
  walk(parseAst(code, { lang: "js" }));
  if (tagged.length) refuse(`a tagged template with a character past ASCII: ${tagged[0]}`);
  return code.replace(
    /[\u0080-\uffff]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * commander takes `node:child_process` when it loads, for subcommands that are programs of
 * their own, which hookwise has none of. Loading it (with the network and stream modules it
 * pulls in) cost every CLI command about 12 ms; here commander takes it at its first use.
 */
const commanderChildProcessAtUse = {
  name: "hookwise:commander-child-process-at-use",
  transform(code: string, id: string) {
    if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
    const eager = "const childProcess = require('node:child_process');";
    if (!code.includes(eager))
      throw new Error(`${id}: commander no longer reads "${eager}"; update this plugin`);
    const atUse =
      "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
    if (/childProcess\.(?!spawn\()/.test(code))
      throw new Error(`${id}: commander uses more of node:child_process than spawn`);
    return { code: code.replace(eager, atUse), map: null };
  },
};

/**
 * A hash of each CommonJS file's content (the bundled packages, `hookwise hook`'s build),
 * written on its first line: the code cache names its entry after it (V8 itself checks only
 * the source's length). `whole`: each file's hash is that of every file of the build, so the
 * first line of one (`hook.cjs`, which the validation cache's entries are keyed by) changes
 * with any of them, the parts loaded at first use among them.
 */
function contentHash(whole = false) {
  return {
    name: "hookwise:content-hash",
    generateBundle(_options: unknown, bundle: Record<string, { type: string; code?: string }>) {
      const chunks = Object.entries(bundle)
        .filter(([, output]) => output.type === "chunk" && output.code !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : 1));
      const everyFile = createHash("sha256");
      for (const [file, output] of chunks) everyFile.update(`${file}\0${output.code}\0`);
      const ofBuild = everyFile.digest("hex").slice(0, 16);
      for (const [, output] of chunks) {
        const hash = whole ? ofBuild : createHash("sha256").update(output.code!).digest("hex").slice(0, 16);
        output.code = `// content-hash: ${hash}\n${output.code}`;
      }
    },
  };
}

/**
 * The bundled copy of better-sqlite3's JavaScript takes the error class from the installed
 * package (`better-sqlite3/lib/sqlite-error.js`), not a copy of its own: the first copy to
 * open a database gives the native addon the class its errors are made of, so an app's own
 * `require("better-sqlite3")` in the same process still sees its errors as `SqliteError`s.
 */
const sqliteErrorOfThePackage = {
  name: "hookwise:sqlite-error-of-the-package",
  resolveId(source: string, importer: string | undefined) {
    if (importer === undefined || !/[\\/]better-sqlite3[\\/]lib[\\/]/.test(importer)) return null;
    if (source !== "./sqlite-error" && source !== "../sqlite-error") return null;
    return { id: "better-sqlite3/lib/sqlite-error.js", external: true };
  },
};

/**
 * Parts of `hookwise hook`'s build loaded at their first use, synchronously: a module
 * `x.part.ts` reaches the part (`import * as part from "./x.js"; export const name = (): typeof part => part;`).
 * Run from the sources and in the package's own build it is a plain import; in `hookwise
 * hook`'s build the part becomes a file of its own (`hook-x.cjs`), which the first call of
 * `name()` loads with `require` (through the code cache's loader): a config that never uses it
 * never reads it. What the part shares with the rest stays in `hook.cjs`.
 */
const PART =
  /^import \* as part from "(\.\/[\w.-]+\.js)";\n\nexport const (\w+) = \(\): typeof part => part;\n$/;

const partsAtFirstUse = {
  name: "hookwise:parts-at-first-use",
  transform(code: string, id: string) {
    if (!id.startsWith(SOURCES) || !id.endsWith(".part.ts")) return null;
    // The module's doc comment aside, exactly the form above.
    const found = PART.exec(code.replace(/^\/\*\*[\s\S]*?\*\/\n/, ""));
    if (!found) throw new Error(`${id}: a part module is exactly ${PART.source} (after its doc comment)`);
    const [, specifier, name] = found;
    return {
      code: `let loaded;\nexport const ${name} = () => (loaded ??= __partAtFirstUse(import(${JSON.stringify(specifier)})));\n`,
      map: null,
    };
  },
  renderChunk(code: string) {
    if (!code.includes("__partAtFirstUse(")) return null;
    const rewritten = code.replace(
      /__partAtFirstUse\(Promise\.resolve\(\)\.then\(\(\) => (require\("\.\/hook-[\w.-]+\.cjs"\))\)(?:\.then\(\((\w+)\) => \2\.(\w+)\))?\)/g,
      (_call, required: string, _n: string | undefined, member: string | undefined) =>
        member === undefined ? required : `${required}.${member}`,
    );
    if (rewritten.includes("__partAtFirstUse("))
      throw new Error(
        `a part loaded at first use the build does not rewrite: ${/__partAtFirstUse\(.{0,120}/.exec(rewritten)![0]}`,
      );
    return { code: rewritten, map: null };
  },
};

const hookGraph = staticImports();

/** Whether `hookwise hook` loads module `id` on every call (its own start and the config's hooks). */
const hookRuns = (id: string) =>
  hookGraph.loads("cli/hook-main.ts", id) || hookGraph.loads("config/load-harness-hooks.ts", id);

/**
 * `import()` in `hookwise hook`'s build as `__import()` where the code cache ran the file (it
 * passes that function: a script it compiles has no module loader to import with), `import()`
 * where Node's `require` did (src/deps/code-cache.ts).
 */
const importThroughLoader = {
  name: "hookwise:import-through-loader",
  renderChunk(code: string) {
    const calls: {
      start: number;
      end: number;
      source: { start: number; end: number };
      options?: unknown;
    }[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        for (const item of node) walk(item);
        return;
      }
      if (typeof node !== "object" || node === null) return;
      const found = node as {
        type?: string;
        start: number;
        end: number;
        source?: { start: number; end: number };
        options?: unknown;
      };
      if (found.type === "ImportExpression" && found.source) calls.push(found as (typeof calls)[number]);
      for (const value of Object.values(node)) walk(value);
    };
    walk(parseAst(code, { lang: "js" }));
    if (calls.length === 0) return null;
    let out = "";
    let at = 0;
    for (const call of calls.sort((a, b) => a.start - b.start)) {
      const specifier = code.slice(call.source.start, call.source.end);
      if (/\bimport\(/.test(specifier)) throw new Error("an import() inside an import()'s specifier");
      // The rewrite passes the specifier alone: import attributes (`{ with: … }`) would be lost.
      if (call.options)
        throw new Error(
          `an import() with options, which the rewrite would drop: ${code.slice(call.start, call.end)}`,
        );
      out += `${code.slice(at, call.start)}(typeof __import === "function" ? __import(${specifier}) : import(${specifier}))`;
      at = call.end;
    }
    return { code: out + code.slice(at), map: null };
  },
};

/**
 * The CommonJS builds (the bundled packages and `hookwise hook`'s own) minified: a hook is a
 * new process on every tool call of a harness, and its start is paid in bytes, each file read
 * into a string and held (the code cache's entries hardly shrink: they hold compiled code, not
 * text). Compressed and with short local names, `hook.cjs` is 38% smaller and the packages a
 * call loads 42%: a call took about 4 ms less (medians of 120 interleaved runs on a busy
 * machine, 1.78x to 1.75x of `node -e 0`); whitespace alone, or compressed without short names,
 * saved no measurably different time. The names of functions and classes are kept: stack traces
 * and `.name` read them (error classes name themselves with a field). What the package's users
 * import and debug (its ES modules, their types) is left as written; the bundled packages,
 * which those load too, are others' code.
 *
 * No source maps: Node reads one only with `--enable-source-maps`, a stack trace shows the
 * functions' own names, and the same code ships unminified as the package's ES modules; a map
 * would also have to follow what the plugins above write after the minifier (the ASCII escapes,
 * the content-hash line).
 */
const MINIFIED = {
  compress: { target: "node20", keepNames: { function: true, class: true } },
  mangle: { keepNames: true },
};

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      cli: "src/cli/main.ts",
      "ai-sdk": "src/ai-sdk/index.ts",
      // Parts the package entry loads at their first use (see the plugin below).
      "config-compiler": "src/config/compiler.ts",
      "remote-toolsets": "src/tools/remote-toolsets.ts",
      "claude-hooks": "src/harnesses/claude/hooks/compile-settings.ts",
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
    // Few, large chunks. Left to itself the bundler makes a chunk for every set of entries
    // sharing modules: about thirty files for `import "hookwise"`, and on Node 20 each file
    // costs more to resolve, load and link than its size does to compile (measured: 74 ms
    // for thirty-five files, 56 ms for the same code in five). So what the package entry loads
    // is a few chunks: what it shares with the CLI's start-up (errors, secrets: small), what it
    // shares with `hookwise validate` (the config schema, conditions and actions: "checked"),
    // what it shares with `hookwise/ai-sdk` (the loop and hooks), and the rest. `validate`
    // loads "checked" and the rest of what it needs ("checks"), not the loop: half the code
    // it loaded before. `hookwise hook`, a new process on every tool call of a harness, loads
    // the part of each of these it uses ("…-for-hook") and its own ("harness-hook"), not the whole: no
    // loop, agent, model, toolset or language server. The parts loaded at first use and the
    // CLI's other commands keep chunks of their own.
    outputOptions: {
      codeSplitting: {
        groups: [
          {
            name: "shared",
            test: (id: string) => graph.loads("index.ts", id) && graph.loads("cli/main.ts", id),
            priority: 3,
          },
          {
            name: "checked-for-hook",
            test: (id: string) => validates(id) && graph.loads("index.ts", id) && hooks(id),
            priority: 2.65,
          },
          {
            name: "checked",
            test: (id: string) => validates(id) && graph.loads("index.ts", id),
            priority: 2.6,
          },
          { name: "checks-for-hook", test: (id: string) => validates(id) && hooks(id), priority: 2.55 },
          { name: "checks", test: validates, priority: 2.5 },
          {
            name: "loop-for-hook",
            test: (id: string) =>
              hooks(id) && graph.loads("index.ts", id) && graph.loads("ai-sdk/index.ts", id),
            priority: 2.25,
          },
          {
            name: "runtime-for-hook",
            test: (id: string) => hooks(id) && graph.loads("index.ts", id),
            priority: 2.2,
          },
          // Only `hookwise hook` loads these (the config's loading among them, which the package
          // entry loads at first use).
          { name: "harness-hook", test: hooks, priority: 2.1 },
          {
            name: "loop",
            test: (id: string) => graph.loads("index.ts", id) && graph.loads("ai-sdk/index.ts", id),
            priority: 2,
          },
          { name: "runtime", test: (id: string) => graph.loads("index.ts", id), priority: 1 },
          // The config compiler (`validate`, `run` and the package's `loadConfig` load it).
          { name: "config", test: (id: string) => graph.loads("config/compiler.ts", id), priority: 0 },
        ],
      },
    },
    plugins: [
      graph.plugin,
      builtinsAtRun,
      asciiOutput,
      commanderChildProcessAtUse,
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
      "deps/picomatch": "src/deps/bundled/picomatch.ts",
      "deps/better-sqlite3": "src/deps/bundled/better-sqlite3.ts",
    },
    // CommonJS: the CLI loads them through V8's code cache on Node 20 (src/deps/code-cache.ts),
    // which compiles scripts, not modules; `require` of a CommonJS file is also the cheaper load.
    format: "cjs",
    dts: false,
    platform: "node",
    target: "node20",
    clean: false,
    minify: MINIFIED,
    deps: {
      alwaysBundle: [
        "yaml",
        "@marcbachmann/cel-js",
        "zod",
        "picomatch",
        "better-sqlite3",
        // Its version, as text in the copy: the version the copy was built from, which
        // bundledDriverFits compares with the installed package's (required at run time, it
        // was the installed package's own, and the comparison always held).
        "better-sqlite3/package.json",
      ],
      // better-sqlite3 finds its native addon with it only when not given one, which the
      // bundled copy always is (src/state/sqlite-native-addon.ts).
      neverBundle: ["bindings"],
    },
    plugins: [sqliteErrorOfThePackage, asciiOutput, contentHash()],
  },
  {
    // `hookwise hook`, a new process on every tool call of a harness, as CommonJS: the installed
    // CLI runs it (bin/hookwise.js) through the code cache on Node 20 (src/deps/code-cache.ts),
    // which keeps the compiled code of every function that ran, where Node compiles an ES
    // module afresh on each start. What every call runs is one file (`hook.cjs`), what only
    // some configs need (a `claude_hooks:` file, the approval inbox) files of their own
    // (`hook-<name>.cjs`, names without a hash: the code cache names its entries after their
    // content). `code-cache.cjs` is what the CLI loads them with (Node's own `require`).
    entry: { hook: "src/cli/hook-main.ts", "code-cache": "src/deps/code-cache.ts" },
    format: "cjs",
    // CommonJS has no `import.meta.resolve` (deps/load-package.ts resolves as `require` then);
    // `import.meta.url` the bundler writes as the file's own URL.
    define: { "import.meta.resolve": "undefined" },
    dts: false,
    platform: "node",
    target: "node20",
    clean: false,
    minify: MINIFIED,
    outputOptions: {
      // Licence comments only (a fifth of the code was doc comments): every call reads the file
      // and holds its text. Minified, the build keeps these and drops the others as well.
      comments: { legal: true, annotation: false, jsdoc: false },
      entryFileNames: "[name].cjs",
      chunkFileNames: "hook-[name].cjs",
      codeSplitting: {
        // What the core's modules import is in the core only when `hookRuns` says so: the code
        // cache's own module stays in `code-cache.cjs`.
        includeDependenciesRecursively: false,
        groups: [
          {
            name: "core",
            test: (id: string) => hookRuns(id) && !hookGraph.loads("deps/code-cache.ts", id),
            priority: 1,
          },
        ],
      },
    },
    plugins: [
      partsAtFirstUse,
      hookGraph.plugin,
      commanderChildProcessAtUse,
      importThroughLoader,
      asciiOutput,
      contentHash(true),
    ],
  },
]);
