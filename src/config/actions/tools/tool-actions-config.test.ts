/**
 * `lsp_diagnose` and `shell` end to end: a config, the scripted model on both surfaces,
 * a real typescript-language-server, real processes.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../../test/support/surfaces.js";
import type { ScriptedModel } from "../../../models/scripted-model.js";
import { MemoryStore } from "../../../state/memory-store.js";
import { openResourceCount } from "../../../tools/open-resources.js";
import { recordingLogger } from "../../build/test-evaluation.js";
import { loadConfig } from "../../load-config.js";
import type { Notification } from "../../notification-bus.js";

const RECORD_ARGV = fileURLToPath(
  new URL("../../../../test/fixtures/shell/record-argv.mjs", import.meta.url),
);
const ATTACK = "a.txt; touch PWNED && echo $(id)";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-actions-"));
  mkdirSync(join(dir, "workspace"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  expect(openResourceCount()).toBe(0);
});

function write(files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, "hookwise.yaml");
}

function allFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" });
}

describe("lsp_diagnose: the model sees TypeScript's errors after a write (self-correction)", () => {
  const config = (action: string) =>
    write({
      "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  fs: { kind: builtin, module: filesystem, root: ./workspace }
runtime:
  hooks:
    - id: lint-after-write
      on: tool_end
      condition: { type: tool_name, match: "fs.write_file" }
      action: ${action}
`,
      "script.yaml": `
- tool_calls: [{ name: fs_write_file, args: { path: src/a.ts, content: "const x: number = 'text';\\nexport {};\\n" } }]
- tool_calls: [{ name: fs_write_file, args: { path: src/a.ts, content: "const x: number = 1;\\nexport {};\\n" } }]
- text: fixed
`,
    });

  const variants: [string, string][] = [
    [
      "content from the arguments",
      "{ type: lsp_diagnose, path_field: [path], content_field: [content], root: ./workspace }",
    ],
    [
      "read from disk",
      "{ type: lsp_diagnose, path_field: [path], content_field: [text], read_from_disk: true, root: ./workspace }",
    ],
  ];

  for (const surface of SURFACES) {
    it.each(variants)(
      `${surface}: %s`,
      async (_name, action) => {
        const loaded = await loadConfig(config(action), {
          store: new MemoryStore(),
          logger: recordingLogger(),
        });
        const published: Notification[] = [];
        loaded.notifications.subscribe((note) => published.push(note));
        try {
          const agent = await loaded.createAgent();
          const { result } = await runOn(surface, agent, "write a.ts");
          expect(result.outcome).toBe("completed");
          const [first, second] = result.steps.map((step) => step.toolResults[0]!);
          expect(first!.result).toBe(
            "wrote 37 bytes to src/a.ts\n\n[LSP] 1 problem in src/a.ts:\n" +
              "src/a.ts:1:7 error TS2322: Type 'string' is not assignable to type 'number'.",
          );
          expect(second!.result).toBe("wrote 32 bytes to src/a.ts"); // clean: nothing added
          // What the model received on its next call: the error, in the tool result.
          const model = agent.runtime.model as ScriptedModel;
          expect(JSON.stringify(model.calls[1]!.prompt.at(-1))).toContain("error TS2322: Type 'string'");
          expect(JSON.stringify(model.calls[2]!.prompt.at(-1))).not.toContain("TS2322");
          expect(published.map((note) => [note.tag, note.level, note.title])).toEqual([
            ["diagnostics", "error", "diagnostics: src/a.ts"],
            ["diagnostics", "info", "diagnostics: src/a.ts"],
          ]);
          expect((published[0]!.data as { diagnostics: { code: number }[] }).diagnostics[0]!.code).toBe(2322);
        } finally {
          await loaded.close();
        }
      },
      60_000,
    );
  }
});

describe("lsp_diagnose: the model's path stays inside the root", () => {
  const SECRET = "sk_live_9f8e7d6c5b4a";

  it.each([
    ["a path that climbs out", "../outside.ts"],
    ["an absolute path elsewhere", "OUTSIDE"],
    ["a symlink inside that leads out", "link.ts"],
  ])(
    "%s is refused and logged; the outside file's content reaches neither the result nor a notification",
    async (_name, path) => {
      // Undefined as TypeScript: its diagnostic would quote the secret (Cannot find name 'sk_live_…').
      writeFileSync(join(dir, "outside.ts"), `export const key = ${SECRET};\n`);
      symlinkSync(join(dir, "outside.ts"), join(dir, "workspace", "link.ts"));
      writeFileSync(
        join(dir, "tools.mjs"),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the module's own source, a template literal in it
        'export const open_doc = { description: "Open a page", inputSchema: { type: "object", properties: { path: { type: "string" } } }, execute: ({ path }) => `opened ${path}` };\n',
      );
      const target = path === "OUTSIDE" ? join(dir, "outside.ts") : path;
      const logger = recordingLogger();
      const loaded = await loadConfig(
        write({
          "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  docs: { kind: module, path: ./tools.mjs }
runtime:
  hooks:
    - { id: lint, on: tool_end, condition: { type: tool_name, match: "docs.*" }, action: { type: lsp_diagnose, root: ./workspace } }
`,
          "script.yaml": `- tool_calls: [{ name: docs_open_doc, args: { path: ${JSON.stringify(target)} } }]\n- text: done\n`,
        }),
        { store: new MemoryStore(), logger },
      );
      const published: Notification[] = [];
      loaded.notifications.subscribe((note) => published.push(note));
      try {
        const { result } = await runOn("run", await loaded.createAgent(), "open it");
        expect(result.steps[0]!.toolResults[0]!.result).toBe(`opened ${target}`);
        expect(published).toEqual([]);
        expect(JSON.stringify(result)).not.toContain(SECRET);
        const warnings = logger.records
          .filter((record) => record.level === "warn")
          .map((record) => record.message);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain(
          `hook "lint": diagnostics for ${target} failed: path "${target}" is refused`,
        );
      } finally {
        await loaded.close();
      }
    },
    60_000,
  );
});

describe("shell: a tool argument never reaches a shell", () => {
  it.each(SURFACES)("%s: the attack string is one literal argv element; no PWNED file", async (surface) => {
    const config = write({
      "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  fs: { kind: builtin, module: filesystem, root: ./workspace }
runtime:
  hooks:
    - id: check-written-file
      on: tool_end
      condition: { type: tool_name, match: "fs.write_file" }
      action:
        type: shell
        command: "${process.execPath} ${RECORD_ARGV} {{tool.params.path}}"
        cwd: ./workspace
        on_error: inject
        templates_are_data: true
`,
      "script.yaml": `
- tool_calls: [{ name: fs_write_file, args: { path: "${ATTACK}", content: "x" } }]
- text: done
`,
    });
    const loaded = await loadConfig(config, { store: new MemoryStore(), logger: recordingLogger() });
    try {
      const { result } = await runOn(surface, await loaded.createAgent(), "write");
      expect(result.outcome).toBe("completed");
      expect(result.steps[0]!.toolResults[0]!.result).toBe(`wrote 1 bytes to ${ATTACK}`);
      expect(JSON.parse(readFileSync(join(dir, "workspace", "argv.json"), "utf8"))).toEqual([ATTACK]);
      const pwned = (name: string) => name === "PWNED" || name.endsWith("/PWNED");
      expect(allFiles(dir).filter(pwned)).toEqual([]);
      expect(readdirSync(process.cwd()).filter(pwned)).toEqual([]);
    } finally {
      await loaded.close();
    }
  });
});
