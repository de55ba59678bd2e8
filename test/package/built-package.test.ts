/**
 * The package as it ships: built (tsdown, as `npm run build` does, into a folder of this
 * test's own), then used by an app with its own zod, and run as the CLI. The built code loads
 * packages through files of its own (`deps/*.cjs`: zod, yaml, the CEL engine, picomatch), which code run
 * from the sources never does, so this is where a member missing from one of them, or an app's
 * schema read differently by hookwise's zod than by the app's, shows.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import nodeModule from "node:module";
import { basename, dirname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { validateConfigText } from "../../src/index.js";

const root = resolve(import.meta.dirname, "../..");
const BAD_CONFIG = [
  "tools:",
  "  calc: { module: ./tools.mjs }",
  "hooks:",
  "  - event: tool_call",
  "    tool_name: 3",
  "    action: { deny: { reason: 5 } }",
  "",
].join("\n");

let out: string;
/** The CLI as installed: `bin/hookwise.js` beside the build. */
let bin: string;

beforeAll(() => {
  mkdirSync(join(root, "test-artifacts"), { recursive: true });
  // Inside the checkout, so the built code finds node_modules as an installed package does.
  const installed = mkdtempSync(join(root, "test-artifacts", "built-"));
  out = join(installed, "dist");
  bin = join(installed, "bin", "hookwise.js");
  cpSync(join(root, "bin"), join(installed, "bin"), { recursive: true });
  execFileSync(
    process.execPath,
    [join(root, "node_modules/tsdown/dist/run.mjs"), "--out-dir", out, "--no-dts", "--log-level", "error"],
    { cwd: root, stdio: "pipe" },
  );
}, 120_000);

afterAll(() => {
  if (out) rmSync(dirname(out), { recursive: true, force: true });
});

/** What Claude Code sends its PreToolUse hook for a Bash command, run in `dir`. */
function bashEvent(dir: string, command = "ls"): string {
  return JSON.stringify({
    session_id: "s1",
    transcript_path: join(dir, "t.jsonl"),
    cwd: dir,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_1",
  });
}

/** One `hookwise hook` call of the built CLI, as Claude Code makes it, in `cwd`. */
function hookCall(
  config: string,
  options: { cwd: string; input: string; env?: NodeJS.ProcessEnv; preload?: readonly string[] },
) {
  return spawnSync(
    process.execPath,
    [...(options.preload ?? []), bin, "hook", config, "--harness", "claude"],
    {
      cwd: options.cwd,
      input: options.input,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, ...options.env },
    },
  );
}

/** What importing a built entry loads: its file and every file it imports, transitively. */
function loadedByImporting(entry: string): string {
  const reached = new Set<string>();
  const visit = (file: string) => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const [, chunk] of readFileSync(join(out, file), "utf8").matchAll(
      /^import .* from "\.\/([^"]+)";$/gm,
    ))
      visit(chunk!);
  };
  visit(entry);
  return [...reached].map((file) => readFileSync(join(out, file), "utf8")).join("\n");
}

function node(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; stdout: string; stderr: string } {
  const child = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...process.env,
      NO_COLOR: "1",
      HOOKWISE_CLI: "1",
      NODE_COMPILE_CACHE: join(out, "compile-cache"),
      ...env,
    },
  });
  return { status: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("the built package", () => {
  it("ships zod, yaml, the CEL engine and picomatch as one file each, named by a hash of its content", () => {
    for (const name of ["zod", "yaml", "cel-js", "picomatch"]) {
      const source = readFileSync(join(out, "deps", `${name}.cjs`), "utf8");
      const [first, ...rest] = source.split("\n");
      const hash = createHash("sha256").update(rest.join("\n")).digest("hex").slice(0, 16);
      expect(first).toBe(`// content-hash: ${hash}`);
    }
  });

  it("ships hookwise hook's build and the bundled packages minified, the names of their functions and classes kept, and the ES modules as written", () => {
    // Each hook call reads these files and holds their text: no region comments, long lines
    // (unminified, a line holds about 40 characters), the content hash still first.
    for (const file of [
      "hook.cjs",
      "code-cache.cjs",
      ...readdirSync(join(out, "deps")).map((name) => `deps/${name}`),
    ]) {
      const source = readFileSync(join(out, file), "utf8");
      const [first, ...rest] = source.split("\n");
      expect(first, file).toMatch(/^\/\/ content-hash: [0-9a-f]{16}$/);
      expect(source, file).not.toMatch(/^\/\/#region /m);
      expect(source.length / rest.length, file).toBeGreaterThan(500);
    }
    // Error classes, `.name` and stack traces read the names the sources give.
    const names = node([
      "-e",
      `const m = require(${JSON.stringify(join(out, "hook.cjs"))}); console.log(JSON.stringify(Object.values(m).map((v) => v.name)))`,
    ]);
    expect(names.status, names.stderr).toBe(0);
    expect(JSON.parse(names.stdout)).toEqual(
      expect.arrayContaining([
        "hookMain",
        "HookwiseError",
        "ConfigError",
        "StateStoreError",
        "MaskedTextStream",
      ]),
    );
    // What an app imports and debugs is not minified.
    const imported = loadedByImporting("index.mjs");
    expect(imported).toContain("//#region src/");
    expect(imported).toMatch(/^\t+return /m);
    expect(imported).toMatch(/^\s*\/\*\*/m);
  });

  it("keeps the bundled packages' compiled code between CLI runs on Node versions without a compile cache", () => {
    if ("enableCompileCache" in nodeModule) return; // Node's own cache covers it there
    const cli = join(out, "cli.mjs");
    const cache = join(out, "code-cache-test");
    const folder = join(cache, `v8-${process.version}-${process.arch}`);
    const hashOf = (name: string) =>
      /^\/\/ content-hash: (\w+)/.exec(readFileSync(join(out, "deps", `${name}.cjs`), "utf8"))![1];
    const entries = () => readdirSync(folder).sort();
    const validate = (env: NodeJS.ProcessEnv) => {
      const child = node([cli, "validate", "examples/quickstart/hookwise.yaml"], env);
      expect(child.stdout, child.stderr).toContain("valid");
      expect(child.status).toBe(0);
    };

    validate({ NODE_COMPILE_CACHE: cache, NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(existsSync(cache)).toBe(false);

    validate({ NODE_COMPILE_CACHE: cache });
    const written = entries();
    expect(written).toEqual(
      expect.arrayContaining([`yaml-${hashOf("yaml")}.code`, `zod-${hashOf("zod")}.code`]),
    );
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const entry of written) expect(statSync(join(folder, entry)).mode & 0o777).toBe(0o600);

    // A run that finds its entries reads them and writes nothing.
    const zodEntry = join(folder, `zod-${hashOf("zod")}.code`);
    const before = statSync(zodEntry).mtimeMs;
    validate({ NODE_COMPILE_CACHE: cache });
    expect(statSync(zodEntry).mtimeMs).toBe(before);

    // An entry V8 refuses is compiled afresh and replaced; an earlier build's entry is removed.
    writeFileSync(zodEntry, "not compiled code");
    writeFileSync(join(folder, "zod-0000000000000000.code"), "an earlier build");
    validate({ NODE_COMPILE_CACHE: cache });
    expect(readFileSync(zodEntry).length).toBeGreaterThan(10_000);
    expect(entries()).toEqual(written);
  });

  // Root alone can give the package's files to another user.
  it("keeps hookwise hook's compiled code between its calls on Node versions without a compile cache", () => {
    if ("enableCompileCache" in nodeModule) return; // Node's own cache covers it there
    const dir = mkdtempSync(join(out, "hook-cache-"));
    const config = join(dir, "hookwise.yaml");
    writeFileSync(
      config,
      "harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: shell, reason: no shell }\n",
    );
    const hash = /^\/\/ content-hash: (\w+)/.exec(readFileSync(join(out, "hook.cjs"), "utf8"))![1];
    const hook = (cache: string, env: NodeJS.ProcessEnv = {}) => {
      const child = hookCall(config, {
        cwd: dir,
        input: bashEvent(dir),
        env: { XDG_CACHE_HOME: cache, ...env },
      });
      expect(child.status, child.stderr).toBe(0);
      expect(JSON.parse(child.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    };
    const folderOf = (cache: string) => join(cache, "hookwise", `v8-${process.version}-${process.arch}`);

    hook(join(dir, "off"), { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(existsSync(folderOf(join(dir, "off")))).toBe(false);

    const cache = join(dir, "cache");
    hook(cache);
    const entry = join(folderOf(cache), `hook-${hash}.code`);
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    expect(statSync(entry).size).toBeGreaterThan(10_000);
    // A call that finds its entry reads it and writes nothing.
    const before = statSync(entry).mtimeMs;
    hook(cache);
    expect(statSync(entry).mtimeMs).toBe(before);
  });

  // Root alone can give the package's files to another user.
  it.skipIf("enableCompileCache" in nodeModule || process.getuid?.() !== 0)(
    "takes compiled code from the cache only for a package the running user owns: an entry compiled from other code never runs for an install of another user's",
    () => {
      const cache = join(out, "code-cache-owner");
      const folder = join(cache, `v8-${process.version}-${process.arch}`);
      const marker = join(out, "poisoned-code-ran");
      // What the poisoned code runs: it makes the marker file.
      const payloadScript = join(dirname(out), "poison.cjs");
      writeFileSync(payloadScript, `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "");\n`);
      /** An entry for `file` compiled from other code of its length, which makes the marker file. */
      const poison = (file: string) => {
        const source = readFileSync(file, "utf8");
        const hash = /^\/\/ content-hash: (\w+)/.exec(source)![1];
        // V8 checks an entry against the source's length, not its content: code of the same
        // length with a comment line replaced by a statement, compiled, stands in for the file's.
        // The line is the file's first, its content hash (the build is minified: it has no
        // other comment lines), which the loader reads from the file itself, not from the entry.
        const payload = "require(process.env.M)";
        const [first, ...rest] = source.split("\n");
        expect(first!.length).toBeGreaterThanOrEqual(payload.length);
        const other = [payload.padEnd(first!.length, " "), ...rest].join("\n");
        expect(other.length).toBe(source.length);
        mkdirSync(folder, { recursive: true });
        const script = new Script(
          `(function (exports, require, module, __filename, __dirname, __import) {${other}\n})`,
          { filename: file },
        );
        const name = basename(file).replace(/\.cjs$/, "");
        writeFileSync(join(folder, `${name}-${hash}.code`), script.createCachedData());
      };
      const dir = mkdtempSync(join(out, "hook-owner-"));
      const config = join(dir, "hookwise.yaml");
      writeFileSync(config, "harness: claude\nruntime:\n  policies: []\n");
      const runs = {
        // `hookwise validate` loads zod through the cache, `hookwise hook` its own build.
        [join(out, "deps", "zod.cjs")]: () => {
          const child = node([join(out, "cli.mjs"), "validate", "examples/quickstart/hookwise.yaml"], {
            NODE_COMPILE_CACHE: cache,
            M: payloadScript,
          });
          expect(child.stdout, child.stderr).toContain("valid");
        },
        [join(out, "hook.cjs")]: () => {
          const child = hookCall(config, {
            cwd: dir,
            input: JSON.stringify({ session_id: "s1", cwd: dir, hook_event_name: "SessionStart" }),
            env: { NODE_COMPILE_CACHE: cache, M: payloadScript },
          });
          expect(child.status, child.stderr).toBe(0);
        },
      };
      const built = [
        ...readdirSync(out)
          .filter((name) => name.endsWith(".cjs"))
          .map((name) => join(out, name)),
        ...readdirSync(join(out, "deps")).map((name) => join(out, "deps", name)),
      ];
      for (const [file, run] of Object.entries(runs)) {
        // The user's own install: whoever writes the cache could change the package's files as well.
        poison(file);
        run();
        expect(existsSync(marker), file).toBe(true);
        rmSync(marker);
        try {
          for (const path of built) chownSync(path, 65534, 65534);
          poison(file);
          run();
          expect(existsSync(marker), file).toBe(false);
        } finally {
          for (const path of built) chownSync(path, 0, 0);
        }
      }
    },
  );

  it("reads an app's own zod schemas as the app's zod does, checks arguments and validates configs as the sources do", () => {
    const child = node([join(root, "test/fixtures/built-package/app.mjs"), out, BAD_CONFIG]);
    expect(child.status, child.stderr).toBe(0);
    const seen = JSON.parse(child.stdout) as {
      sentSchema: Record<string, unknown>;
      results: { result: unknown; executed: boolean }[];
      greeted: string[];
      outcome: string;
      configIssues: unknown[];
    };

    // The schema the model is sent is the app's zod's own JSON Schema, descriptions included.
    const appSchema = z.toJSONSchema(
      z.object({ name: z.string().describe("who to greet"), times: z.number().int().min(1).optional() }),
      { io: "input" },
    );
    delete appSchema.$schema;
    expect(seen.sentSchema).toEqual(appSchema);

    // A call with a wrong argument is refused before the tool runs, with zod's message.
    expect(seen.results[0]).toEqual({
      result: 'invalid arguments for "greet": name: Invalid input: expected string, received number',
      executed: false,
    });
    expect(seen.results[1]).toEqual({ result: "hello Ada", executed: true });
    expect(seen.greeted).toEqual(["Ada"]);
    expect(seen.outcome).toBe("completed");

    // The built config compiler reports exactly what the sources report.
    const fromSources = validateConfigText(BAD_CONFIG, "hookwise.yaml").issues.map(
      ({ line, column, path, message }) => ({ line, column, path, message }),
    );
    expect(fromSources.length).toBeGreaterThan(0);
    expect(seen.configIssues).toEqual(fromSources);
  });

  it("loads the config compiler, the Claude Code settings compiler and the REST toolset at their first use, and they work", () => {
    const loadedAtImport = loadedByImporting("index.mjs");
    expect(loadedAtImport).toContain("//#region src/loop/drive.ts");
    for (const part of [
      "src/config/check/validate-config.ts",
      "src/config/load-config.ts",
      "src/harnesses/claude/hooks/claude-hooks.ts",
      "src/tools/openapi/openapi-toolset.ts",
      "src/tools/mcp/mcp-toolset.ts",
    ]) {
      expect(loadedAtImport).not.toContain(`//#region ${part}`);
    }
    // Nor node:crypto, which a run first needs when it starts (it costs the import ~6 ms).
    expect(loadedAtImport).not.toMatch(/from "node:crypto"|^const .*getBuiltinModule\("node:crypto"\)/m);
    // Node's own modules are taken with process.getBuiltinModule, not imported (no ES module
    // facade of each: tsdown.config.ts).
    expect(loadedAtImport).not.toMatch(/^import .* from "node:/m);
    expect(loadedAtImport).toMatch(/^const \{[^}]*\} = process\.getBuiltinModule\("node:path"\);$/m);
    // Nor does `import "hookwise/ai-sdk"` load the config compiler before loadHookwiseConfig.
    const loadedByAiSdk = loadedByImporting("ai-sdk.mjs");
    expect(loadedByAiSdk).toContain("//#region src/ai-sdk/hookwise-tools.ts");
    for (const part of ["src/config/check/validate-config.ts", "src/config/load-config.ts"])
      expect(loadedByAiSdk).not.toContain(`//#region ${part}`);

    const child = node([join(root, "test/fixtures/built-package/app.mjs"), out, "hooks: []\n"]);
    expect(child.status, child.stderr).toBe(0);
    const seen = JSON.parse(child.stdout) as {
      readConfig: string[];
      quickstart: string;
      claudeHandlers: string[];
      billingTools: string[];
      aiSdkHooks: number;
    };
    expect(seen.readConfig).toContain("hooks");
    expect(seen.quickstart).toContain("42");
    expect(seen.claudeHandlers).toContain("tool_call");
    expect(seen.billingTools).toContain("create_invoice");
    expect(seen.aiSdkHooks).toBeGreaterThan(0);
  });

  it("validates a config without loading the agent loop", () => {
    const chunk = readdirSync(out).find(
      (file) =>
        file.endsWith(".mjs") &&
        readFileSync(join(out, file), "utf8").includes("//#region src/cli/commands/validate-command.ts"),
    );
    const loaded = loadedByImporting(chunk!);
    expect(loaded).toContain("//#region src/config/check/validate-config.ts");
    for (const part of ["src/loop/drive.ts", "src/agent/create-agent.ts", "src/hooks/hook-runner.ts"])
      expect(loaded).not.toContain(`//#region ${part}`);
  });

  it("throws the entry's own error classes from the parts it loads at first use", () => {
    const child = node([join(root, "test/fixtures/built-package/app.mjs"), out, BAD_CONFIG]);
    expect(child.status, child.stderr).toBe(0);
    const { errors } = JSON.parse(child.stdout) as { errors: Record<string, Record<string, unknown>> };
    const config = { name: "ConfigError", config: true, toolset: false, hookwise: true };
    expect(errors).toEqual({
      loadConfig: config,
      readConfig: config,
      claudeHooks: config,
      openapiToolset: { name: "OpenApiToolsetError", config: false, toolset: true, hookwise: true },
    });
  });

  it("writes every built file in ASCII, its strings reading as they did", () => {
    const files = [
      ...readdirSync(out).filter((file) => /\.(mjs|cjs)$/.test(file)),
      ...readdirSync(join(out, "deps")).map((file) => join("deps", file)),
    ];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files)
      expect(/[\u0080-\uffff]/.test(readFileSync(join(out, file), "latin1")), file).toBe(false);
    // The hook command's help holds an ellipsis: printed as the character, not its escape.
    const help = node([join(out, "cli.mjs"), "hook", "--help"]);
    expect(help.stdout).toContain('"hook_event_name":"PreToolUse",\u2026}');
  });

  it("answers a harness's hook event read from its stdin without loading the network modules or a model's packages, or looking for a package by its name", () => {
    const dir = mkdtempSync(join(out, "hook-"));
    const config = join(dir, "hookwise.yaml");
    writeFileSync(
      config,
      "harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: shell, when: 'args.command.contains(\"rm -rf\")', reason: no deletes }\n",
    );
    const event = {
      session_id: "s1",
      transcript_path: join(dir, "t.jsonl"),
      cwd: dir,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "toolu_1",
    };
    const listLoaded = join(root, "test/fixtures/built-package/list-loaded.cjs");
    // The preload lists what the process loads: the built-in modules, the files read (the
    // scripts Node's `require` and the code cache run), or (a module hook, itself run on a
    // worker, which loads the network modules) the ES module files.
    const hook = (preload: string[], cache = join(dir, "cache")) =>
      hookCall(config, { cwd: dir, input: JSON.stringify(event), env: { XDG_CACHE_HOME: cache }, preload });
    const child = hook(["--require", listLoaded]);
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: "no deletes",
    });
    const loaded = JSON.parse(child.stderr.split("\n").find((line) => line.startsWith("["))!) as string[];
    expect(loaded).not.toContain("NativeModule net");

    // It runs its own build: CommonJS scripts, no ES module of the package (the CLI's
    // argument parser and the chunks the package entry shares are not loaded).
    const modules = hook(["--import", join(root, "test/fixtures/built-package/list-loaded-files.mjs")]);
    expect(modules.status, modules.stderr).toBe(0);
    const esm = [...modules.stderr.matchAll(/^loaded-file (file:.*)$/gm)].map(([, url]) => url!);
    expect(esm.filter((url) => url.startsWith(pathToFileURL(out).href))).toEqual([]);
    const listed = hook(["--require", join(root, "test/fixtures/built-package/list-read-files.cjs")]);
    expect(listed.status, listed.stderr).toBe(0);
    const scripts = [...listed.stderr.matchAll(/^read-file (.*\.cjs)$/gm)]
      .map(([, path]) => path!)
      .filter((path) => path.startsWith(out + sep) && /^(hook|code-cache)\b/.test(basename(path)));
    expect(scripts.sort()).toEqual([join(out, "code-cache.cjs"), join(out, "hook.cjs")].sort());
    // The SQLite driver's JavaScript is hookwise's one-file copy (the installed package's
    // addon and error class), not the package's own files.
    const read = [...listed.stderr.matchAll(/^read-file (.*)$/gm)].map(([, path]) => path!);
    expect(read).toContain(join(out, "deps", "better-sqlite3.cjs"));
    expect(
      read
        .filter((path) => path.includes(`${sep}better-sqlite3${sep}lib${sep}`))
        .map((path) => basename(path)),
    ).toEqual(["sqlite-error.js"]);
    // Nothing is looked for through `node_modules` by its package's name: the installed
    // driver's folder is found once, and its error class is required by its path there.
    expect([...listed.stderr.matchAll(/^required-name (.*)$/gm)].map(([, name]) => name)).toEqual([]);
    // What a hook runs is its config's hooks and policies over its store: no agent, loop,
    // model, toolset or language server is loaded (a new process on every tool call). Its
    // build is minified, without the modules' region comments; the names of functions are
    // kept, so a module is known by a function it declares (each declared in the package's
    // ES modules, so a function renamed in the sources fails here rather than passing unseen).
    const code = scripts.map((path) => readFileSync(path, "utf8")).join("\n");
    const packageModules = readdirSync(out)
      .filter((file) => file.endsWith(".mjs"))
      .map((file) => readFileSync(join(out, file), "utf8"))
      .join("\n");
    const declares = (text: string, name: string) => new RegExp(`\\bfunction\\*? ${name}\\(`).test(text);
    expect(declares(code, "loadHarnessHooks")).toBe(true);
    for (const [part, name] of [
      ["src/loop/drive.ts", "runSteps"],
      ["src/agent/create-agent.ts", "createAgent"],
      ["src/config/build/build-toolsets.ts", "buildToolsets"],
      ["src/tools/coding/coding-toolset.ts", "codingToolset"],
      ["src/lsp/lsp-toolset.ts", "lspToolset"],
      ["src/harnesses/claude/hooks/claude-hooks.ts", "claudeHooks"],
    ]) {
      expect(declares(packageModules, name!), part).toBe(true);
      expect(declares(code, name!), part).toBe(false);
    }
    // Nor the AI SDK's provider package: its errors are a model's, and a hook runs none (the
    // minifier writes strings between backquotes).
    expect(code).not.toMatch(/\brequire\(["'`]@ai-sdk\/provider["'`]\)/);
  });

  it("runs what hookwise hook loads at its first use from its own build: a claude_hooks file's hooks, the Redis store's package", () => {
    const dir = mkdtempSync(join(out, "hook-parts-"));
    writeFileSync(
      join(dir, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: "echo 'not from settings' >&2; exit 2" }],
            },
          ],
        },
      }),
    );
    writeFileSync(join(dir, "claude.yaml"), "harness: claude\nclaude_hooks: ./settings.json\n");
    writeFileSync(
      join(dir, "redis.yaml"),
      'harness: claude\nruntime:\n  state: { kind: redis, url: "redis://127.0.0.1:1" }\n',
    );
    const cache = join(dir, "cache");
    const hook = (config: string) => {
      const child = spawnSync(process.execPath, [bin, "hook", join(dir, config), "--harness", "claude"], {
        cwd: dir,
        input: bashEvent(dir),
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, XDG_CACHE_HOME: cache, HOOKWISE_STATE_URL: "" },
      });
      expect(child.status, child.stderr).toBe(0);
      return JSON.parse(child.stdout).hookSpecificOutput.permissionDecisionReason as string;
    };
    expect(hook("claude.yaml")).toBe("not from settings");
    // The store's package is imported (the build's `import()`, through the code cache's loader):
    // the answer is the store's own, that no server listens there.
    expect(hook("redis.yaml")).toContain("Cannot reach Redis at redis://127.0.0.1:1");
    if ("enableCompileCache" in nodeModule) return;
    const hash = /^\/\/ content-hash: (\w+)/.exec(
      readFileSync(join(out, "hook-claude-hooks.cjs"), "utf8"),
    )![1];
    const folder = join(cache, "hookwise", `v8-${process.version}-${process.arch}`);
    expect(readdirSync(folder)).toContain(`hook-claude-hooks-${hash}.code`);
  });

  it("answers from a config it validated before without loading zod, and decides as the first call did", () => {
    const dir = mkdtempSync(join(out, "hook-warm-"));
    const config = join(dir, "hookwise.yaml");
    // Nested conditions and actions: each is parsed by its schema where it compiles and where
    // the tools it names are checked. The log's `level` is a default the schema fills in.
    writeFileSync(
      config,
      [
        "harness: claude",
        "runtime:",
        "  hooks:",
        "    - id: no-rm",
        "      on: tool_call",
        "      condition:",
        "        type: all_of",
        "        conditions:",
        "          - { type: tool_name, match: Bash }",
        "          - { type: not, condition: { type: expression, expr: 'args.command.startsWith(\"ls\")' } }",
        "      action: { type: chain, actions: [{ type: log, message: seen }, { type: gate, reason: no rm here }] }",
        "",
      ].join("\n"),
    );
    const readZod = join(root, "test/fixtures/built-package/list-read-files.cjs");
    const cache = join(dir, "cache");
    const hook = (command: string) => {
      const child = hookCall(config, {
        cwd: dir,
        input: bashEvent(dir, command),
        env: { XDG_CACHE_HOME: cache, HOOKWISE_STATE_URL: "" },
        preload: ["--require", readZod],
      });
      expect(child.status, child.stderr).toBe(0);
      return {
        decision: child.stdout ? JSON.parse(child.stdout).hookSpecificOutput : undefined,
        zod: child.stderr.split("\n").includes(`read-file ${join(out, "deps", "zod.cjs")}`),
      };
    };
    const denied = { permissionDecision: "deny", permissionDecisionReason: "no rm here" };
    // The first call validates the config (with zod) and keeps it.
    const first = hook("rm -rf /");
    expect(first.zod).toBe(true);
    expect(first.decision).toMatchObject(denied);
    // The next ones compile its hooks, nested ones included, from what validation kept.
    for (const [command, decision] of [
      ["rm -rf /", denied],
      ["ls", undefined],
    ] as const) {
      const warm = hook(command);
      expect(warm.zod, command).toBe(false);
      if (decision) expect(warm.decision).toMatchObject(decision);
      else expect(warm.decision?.permissionDecision).not.toBe("deny");
    }
  });

  it("decides the common guard conditions without loading the CEL engine, and loads it for any other", () => {
    const dir = mkdtempSync(join(out, "hook-cel-"));
    const readFiles = join(root, "test/fixtures/built-package/list-read-files.cjs");
    const engine = join(out, "deps", "cel-js.cjs");
    const hook = (when: string, command: string) => {
      const config = join(dir, `${Buffer.from(when).toString("hex")}.yaml`);
      writeFileSync(
        config,
        `harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: Bash, when: ${JSON.stringify(when)}, reason: stopped }\n`,
      );
      const child = hookCall(config, {
        cwd: dir,
        input: bashEvent(dir, command),
        env: { XDG_CACHE_HOME: join(dir, "cache"), HOOKWISE_STATE_URL: "" },
        preload: ["--require", readFiles],
      });
      expect(child.status, child.stderr).toBe(0);
      return {
        denied: child.stdout.includes('"permissionDecision":"deny"'),
        engine: child.stderr.split("\n").includes(`read-file ${engine}`),
      };
    };
    const common = 'args.command.contains("rm -rf") || args.command.startsWith("sudo ")';
    hook(common, "ls");
    expect(hook(common, "sudo rm x")).toEqual({ denied: true, engine: false });
    expect(hook(common, "ls")).toEqual({ denied: false, engine: false });
    // A field the event does not have: the engine gives CEL's error, and the guard fails closed.
    const missing = 'args.file_path.endsWith(".env")';
    hook(missing, "ls");
    expect(hook(missing, "ls")).toEqual({ denied: true, engine: true });
    const other = "size(args.command) > 3";
    hook(other, "ls");
    expect(hook(other, "ls -la")).toEqual({ denied: true, engine: true });
  });

  it("answers from a config it validated before without loading node:crypto or the stream modules it loads, or the abort controller", () => {
    // node:crypto (or Web Crypto) makes Node compile about thirty built-in modules on every
    // call: the run's id and the validation cache's entry take none of it. The call's abort
    // signal is made only when a hook waits (the first `AbortController` loads a module too).
    const dir = mkdtempSync(join(out, "hook-crypto-"));
    const config = join(dir, "hookwise.yaml");
    writeFileSync(
      config,
      [
        "harness: claude",
        "runtime:",
        "  policies:",
        "    - { decision: deny, tool: shell, when: 'args.command.contains(\"rm -rf\")', reason: no deletes }",
        "  hooks:",
        "    - { id: gate-curl, on: tool_call, condition: { type: expression, expr: 'args.command.startsWith(\"curl\")' }, action: { type: gate, reason: no curl } }",
        "",
      ].join("\n"),
    );
    const cache = join(dir, "cache");
    const listLoaded = join(root, "test/fixtures/built-package/list-loaded.cjs");
    const loadedBy = (child: { stderr: string }) =>
      JSON.parse(child.stderr.split("\n").find((line) => line.startsWith("["))!) as string[];
    // What any script loads (Node's own start-up, a few stream helpers among it) is not counted.
    writeFileSync(join(dir, "empty.cjs"), "");
    const atStart = new Set(
      loadedBy(
        spawnSync(process.execPath, ["--require", listLoaded, join(dir, "empty.cjs")], { encoding: "utf8" }),
      ),
    );
    expect(atStart.has("NativeModule crypto")).toBe(false);
    const hook = (command: string) => {
      const child = hookCall(config, {
        cwd: dir,
        input: bashEvent(dir, command),
        env: { XDG_CACHE_HOME: cache, HOOKWISE_STATE_URL: "" },
        preload: ["--require", listLoaded],
      });
      expect(child.status, child.stderr).toBe(0);
      return {
        decision: child.stdout ? JSON.parse(child.stdout).hookSpecificOutput : undefined,
        crypto: loadedBy(child).filter(
          (entry) => !atStart.has(entry) && /crypto|^NativeModule (stream|internal\/streams\/)/.test(entry),
        ),
        abort: loadedBy(child).filter((entry) => !atStart.has(entry) && /abort_controller/.test(entry)),
      };
    };
    // The first call validates the config and keeps it.
    expect(hook("rm -rf /").decision).toMatchObject({ permissionDecision: "deny" });
    expect(readdirSync(join(cache, "hookwise", "validated"))).toHaveLength(1);
    for (const [command, reason] of [
      ["rm -rf /", "no deletes"],
      ["curl example.com", "no curl"],
      ["ls", undefined],
    ] as const) {
      const warm = hook(command);
      expect(warm.crypto, command).toEqual([]);
      expect(warm.abort, command).toEqual([]);
      if (reason)
        expect(warm.decision, command).toMatchObject({
          permissionDecision: "deny",
          permissionDecisionReason: reason,
        });
      else expect(warm.decision?.permissionDecision, command).not.toBe("deny");
    }
  });

  it("ships better-sqlite3's JavaScript as one file that makes the installed package's own SqliteError", () => {
    // In a process of its own: the copy that opens a database first gives the addon its error class.
    const script = [
      `const { createRequire } = require("node:module");`,
      `const fromBuild = createRequire(${JSON.stringify(join(out, "deps", "x.cjs"))});`,
      // What the copy requires as it loads: its version is text of its own, not the installed package's.
      `const Module = require("node:module"); const asked = []; const load = Module._load;`,
      `Module._load = function (request, ...rest) { asked.push(request); return load.call(this, request, ...rest); };`,
      `const bundled = fromBuild(${JSON.stringify(join(out, "deps", "better-sqlite3.cjs"))});`,
      `Module._load = load;`,
      `const pkg = fromBuild("better-sqlite3");`,
      `const addon = require("node:path").join(require("node:path").dirname(fromBuild.resolve("better-sqlite3")), "..", "build", "Release", "better_sqlite3.node");`,
      `const db = new bundled.Database(":memory:", { nativeBinding: addon });`,
      `let error; try { db.exec("SELECT * FROM missing"); } catch (caught) { error = caught; }`,
      `console.log(JSON.stringify({ version: bundled.version === fromBuild("better-sqlite3/package.json").version, builtIn: !asked.some((request) => request.endsWith("package.json")), own: error instanceof pkg.SqliteError, code: error.code }));`,
    ].join("\n");
    const child = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual({
      version: true,
      builtIn: true,
      own: true,
      code: "SQLITE_ERROR",
    });
  });

  it("validates afresh after a bundled package changed, even to the same size and npm's fixed file time", () => {
    const dir = mkdtempSync(join(out, "hook-deps-changed-"));
    const config = join(dir, "hookwise.yaml");
    writeFileSync(config, "harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: Read }\n");
    const readFiles = join(root, "test/fixtures/built-package/list-read-files.cjs");
    /** Whether the call validated the config (it read the validation part) rather than taking its entry. */
    const validated = () => {
      const child = hookCall(config, {
        cwd: dir,
        input: bashEvent(dir),
        env: { XDG_CACHE_HOME: join(dir, "cache"), HOOKWISE_STATE_URL: "" },
        preload: ["--require", readFiles],
      });
      expect(child.status, child.stderr).toBe(0);
      return /^read-file .*hook-validate-config\.cjs$/m.test(child.stderr);
    };
    const zod = join(out, "deps", "zod.cjs");
    const original = readFileSync(zod, "utf8");
    // Every file npm installs has this time.
    const npmTime = new Date("1985-10-26T08:15:00Z");
    try {
      utimesSync(zod, npmTime, npmTime);
      expect(validated()).toBe(true);
      expect(validated()).toBe(false);
      // Another build of the package, of the same size, installed by npm.
      const [first, ...rest] = original.split("\n");
      const other = first!.replace(/[0-9a-f]$/, (digit) => (digit === "0" ? "1" : "0"));
      writeFileSync(zod, [other, ...rest].join("\n"));
      utimesSync(zod, npmTime, npmTime);
      expect(statSync(zod).size).toBe(Buffer.byteLength(original));
      expect(validated()).toBe(true);
    } finally {
      writeFileSync(zod, original);
    }
  });

  it("reads a part of hookwise hook's build only for a config that uses it: validation on a change, a shell action's rule, a store kind, another harness, telemetry", () => {
    const dir = mkdtempSync(join(out, "hook-parts-read-"));
    const readFiles = join(root, "test/fixtures/built-package/list-read-files.cjs");
    const hook = (config: string, harness = "claude") => {
      const child = spawnSync(
        process.execPath,
        ["--require", readFiles, bin, "hook", join(dir, config), "--harness", harness],
        {
          cwd: dir,
          input: JSON.stringify({
            session_id: "s1",
            transcript_path: join(dir, "t.jsonl"),
            cwd: dir,
            ...(harness === "gemini"
              ? { hook_event_name: "BeforeTool", tool_name: "run_shell_command" }
              : { hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "toolu_1" }),
            tool_input: { command: "ls" },
          }),
          encoding: "utf8",
          timeout: 60_000,
          env: { ...process.env, XDG_CACHE_HOME: join(dir, "cache"), HOOKWISE_STATE_URL: "" },
        },
      );
      expect(child.status, child.stderr).toBe(0);
      return [...child.stderr.matchAll(/^read-file (.*)$/gm)]
        .map(([, path]) => path!)
        .filter((path) => path.startsWith(out + sep) && /^hook-/.test(basename(path)))
        .map((path) => basename(path))
        .sort();
    };
    const parts = readdirSync(out).filter((file) => /^hook-.*\.cjs$/.test(file));
    for (const part of [
      "hook-shell-rule.cjs",
      "hook-validate-config.cjs",
      "hook-check-references.cjs",
      "hook-memory-store.cjs",
      "hook-file-store.cjs",
      "hook-redis-store.cjs",
      "hook-run-telemetry.cjs",
    ])
      expect(parts).toContain(part);
    writeFileSync(
      join(dir, "plain.yaml"),
      "harness: [claude, gemini]\nruntime:\n  policies:\n    - { decision: deny, tool: shell, when: 'args.command.contains(\"rm\")' }\n",
    );
    // The first call validates the config; the next ones are answered from the cache, which
    // reads no part at all.
    const first = hook("plain.yaml");
    expect(first).toContain("hook-validate-config.cjs");
    expect(first).not.toContain("hook-shell-rule.cjs");
    expect(hook("plain.yaml")).toEqual([]);
    // A shell action's rule; the file store (the state kind this config names); and the
    // references checked on every call (the program could go missing); nothing else's.
    writeFileSync(
      join(dir, "shell.yaml"),
      "harness: claude\nruntime:\n  state: { kind: file, path: ./state }\n  hooks:\n    - { id: s, on: tool_call, action: { type: shell, command: 'echo {{tool.params.command}}' } }\n",
    );
    hook("shell.yaml");
    const shell = hook("shell.yaml");
    expect(shell).toContain("hook-shell-rule.cjs");
    expect(shell).toContain("hook-file-store.cjs");
    expect(shell).toContain("hook-check-references.cjs");
    for (const unused of ["hook-memory-store.cjs", "hook-redis-store.cjs", "hook-scripted-model.cjs"])
      expect(shell).not.toContain(unused);
    expect(shell.filter((file) => file.startsWith("hook-protocol"))).toEqual([]);
    expect(shell).not.toContain("hook-validate-config.cjs");
    // Another harness's protocol.
    const gemini = hook("plain.yaml", "gemini");
    expect(gemini.filter((file) => file.startsWith("hook-protocol")).length).toBe(1);
    expect(gemini).not.toContain("hook-validate-config.cjs");
    // The spans' code, for a config with telemetry only (plain.yaml's calls above read no part).
    writeFileSync(
      join(dir, "traced.yaml"),
      "harness: claude\nruntime:\n  telemetry: {}\n  policies:\n    - { decision: deny, tool: shell, when: 'args.command.contains(\"rm\")' }\n",
    );
    hook("traced.yaml");
    expect(hook("traced.yaml")).toContain("hook-run-telemetry.cjs");
  });

  it("checks a config's references to files again on a call answered from the validation cache: a shell program gone missing blocks", () => {
    const dir = mkdtempSync(join(out, "hook-refs-"));
    const config = join(dir, "hookwise.yaml");
    writeFileSync(join(dir, "check.sh"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    writeFileSync(
      config,
      "harness: claude\nruntime:\n  hooks:\n    - { id: s, on: tool_call, action: { type: shell, command: ./check.sh } }\n",
    );
    const hook = () =>
      hookCall(config, {
        cwd: dir,
        input: bashEvent(dir),
        env: { XDG_CACHE_HOME: join(dir, "cache"), HOOKWISE_STATE_URL: "" },
      });
    const first = hook();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).not.toContain('"deny"');
    // The second call is answered from the entry the first one kept.
    expect(readdirSync(join(dir, "cache", "hookwise", "validated")).length).toBe(1);
    rmSync(join(dir, "check.sh"));
    const second = hook();
    expect(second.stdout + second.stderr).toContain("program ./check.sh does not exist");
    expect(second.stdout).toContain('"deny"');
  });

  it("reads hookwise hook's usual command lines itself and leaves the others to the whole CLI", () => {
    const dir = mkdtempSync(join(out, "hook-"));
    const config = join(dir, "hookwise.yaml");
    writeFileSync(
      config,
      "harness: [claude, codex]\nruntime:\n  policies:\n    - { decision: deny, tool: shell, reason: no shell }\n",
    );
    const event = {
      session_id: "s1",
      cwd: dir,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "ls" },
    };
    const hook = (args: string[]) =>
      spawnSync(process.execPath, [bin, "hook", ...args], {
        cwd: dir,
        input: JSON.stringify({ ...event, transcript_path: join(dir, "t.jsonl"), tool_use_id: "toolu_1" }),
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, NO_COLOR: "1", XDG_CACHE_HOME: join(dir, "cache") },
      });
    for (const args of [
      [config, "--harness", "claude"],
      ["--harness=claude", config, "--timeout", "30"],
      [config, "--harness", "claude", "-a", "main"],
    ]) {
      const answered = hook(args);
      expect(answered.status, answered.stderr).toBe(0);
      expect(JSON.parse(answered.stdout).hookSpecificOutput, args.join(" ")).toMatchObject({
        permissionDecision: "deny",
        permissionDecisionReason: "no shell",
      });
    }
    // An unknown agent is the command's own answer: blocked, with the reason.
    const unknown = hook([config, "--harness", "claude", "--agent", "nobody"]);
    expect(unknown.status, unknown.stderr).toBe(0);
    expect(JSON.parse(unknown.stdout).hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining('unknown agent "nobody"'),
    });
    // What the whole CLI reads: its help, and its errors about the command line.
    expect(hook(["--help"]).stdout).toContain("--harness <name>");
    const mistakes: [string[], string][] = [
      [[config], "required option '--harness <name>' not specified"],
      [[config, "--harness", "vscode"], "Allowed choices are claude, codex, gemini, cursor"],
      [[config, "--harness", "claude", "--timeout", "0"], "expected a number of seconds above 0"],
      [[config, "--harness", "claude", "--verbose"], "unknown option '--verbose'"],
    ];
    for (const [args, error] of mistakes) {
      const refused = hook(args);
      expect(refused.status, args.join(" ")).toBe(2);
      expect(refused.stderr).toContain(error);
      expect(refused.stdout).toBe("");
    }
  });

  it("runs as the CLI: validate, and the quickstart agent on its scripted model", () => {
    const cli = join(out, "cli.mjs");
    const valid = node([cli, "validate", "examples/quickstart/hookwise.yaml"]);
    expect(valid.stdout).toContain("valid");
    expect(valid.status).toBe(0);

    const run = node([cli, "run", "examples/quickstart/hookwise.yaml", "--prompt", "What is 17 + 25?"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("42");
  });

  it("prints validate's answer without loading the terminal or stream modules, and stops quietly at a closed pipe", () => {
    const cli = join(out, "cli.mjs");
    const listLoaded = join(root, "test/fixtures/built-package/list-loaded.cjs");
    const valid = node(["--require", listLoaded, cli, "validate", "examples/quickstart/hookwise.yaml"]);
    expect(valid.status, valid.stderr).toBe(0);
    expect(valid.stdout).toContain("examples/quickstart/hookwise.yaml: valid");
    const loaded = JSON.parse(valid.stderr.split("\n").find((line) => line.startsWith("["))!) as string[];
    expect(loaded).not.toContain("NativeModule tty");
    expect(loaded).not.toContain("NativeModule net");

    // `hookwise schema | head -c 10`: the reader leaves early; no EPIPE stack trace.
    const piped = spawnSync(
      "bash",
      [
        "-o",
        "pipefail",
        "-c",
        `"${process.execPath}" "${cli}" schema | head -c 10 >/dev/null; echo "exit $?"`,
      ],
      {
        cwd: root,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, NODE_COMPILE_CACHE: join(out, "compile-cache") },
      },
    );
    expect(piped.stderr).toBe("");
    expect(piped.stdout).toBe("exit 0\n");
  });
});
