import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { createAgent, scriptedModel } from "../../index.js";
import type { ToolExecutionOptions } from "../tool.js";
import type { Toolset } from "../toolset.js";
import { filesystemToolset } from "./filesystem-toolset.js";
import { PathEscapeError } from "./path-escape-error.js";

let base: string;
let root: string;
let outside: string;
let fs: Toolset;

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), "hookwise-fs-"));
  root = join(base, "root");
  outside = join(base, "outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "notes.md"), "# Notes\nhookwise is hookable\n");
  writeFileSync(join(root, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(outside, "secret.txt"), "TOP SECRET");
  fs = await filesystemToolset("fs", { root });
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const execution: ToolExecutionOptions = {
  toolCallId: "t",
  signal: new AbortController().signal,
  context: { sessionId: "s", runId: "r", step: 0, agentName: "main" },
};
const call = (name: string, args: unknown) => {
  const tool = fs.tools.find((item) => item.name === name)!;
  const checked = tool.input.validate(args);
  if (!checked.ok) throw new Error(checked.message);
  return tool.execute(checked.value, execution);
};

describe("builtin filesystem toolset", () => {
  it("names its tools fs.read_file … (function fs_read_file …)", () => {
    expect(fs.tools.map((tool) => tool.functionName)).toEqual([
      "fs_read_file",
      "fs_write_file",
      "fs_list_directory",
      "fs_search_files",
      "fs_delete_file",
    ]);
  });

  it("reads, writes (creating folders), lists, searches and deletes under the root", async () => {
    expect(await call("read_file", { path: "notes.md" })).toBe("# Notes\nhookwise is hookable\n");
    expect(await call("write_file", { path: "docs/new.md", content: "hello" })).toBe(
      "wrote 5 bytes to docs/new.md",
    );
    expect(readFileSync(join(root, "docs", "new.md"), "utf8")).toBe("hello");
    expect(await call("list_directory", {})).toEqual({
      path: ".",
      entries: [
        { name: "docs", kind: "directory" },
        { name: "notes.md", kind: "file", size: 29 },
        { name: "src", kind: "directory" },
      ],
    });
    expect(await call("search_files", { pattern: "**/*.ts" })).toEqual({
      matches: [{ path: "src/a.ts" }],
      truncated: false,
    });
    expect(await call("search_files", { query: "HOOKABLE" })).toEqual({
      matches: [{ path: "notes.md", line: 2, text: "hookwise is hookable" }],
      truncated: false,
    });
    expect(await call("delete_file", { path: "docs/new.md" })).toBe("deleted docs/new.md");
    expect(existsSync(join(root, "docs", "new.md"))).toBe(false);
    await expect(call("delete_file", { path: "src" })).rejects.toThrow('"src" is a folder');
    // An absolute path inside the root is fine.
    expect(await call("read_file", { path: join(root, "src", "a.ts") })).toBe("export const a = 1;\n");
  });

  const escapes: [string, () => string, PathEscapeError["via"]][] = [
    ["..", () => "../outside/secret.txt", "parent"],
    ["nested ..", () => "src/../../outside/secret.txt", "parent"],
    ["absolute", () => join(outside, "secret.txt"), "absolute"],
    ["/etc/passwd", () => "/etc/passwd", "absolute"],
  ];
  it.each(escapes)("refuses a path that climbs out: %s", async (_name, path, via) => {
    for (const [tool, args] of [
      ["read_file", { path: path() }],
      ["write_file", { path: path(), content: "pwned" }],
      ["delete_file", { path: path() }],
      ["list_directory", { path: path() }],
      ["search_files", { path: path() }],
    ] as const) {
      const error = await (call(tool, args) as Promise<unknown>).catch((caught) => caught);
      expect(PathEscapeError.isInstance(error), `${tool}`).toBe(true);
      expect((error as PathEscapeError).via).toBe(via);
      expect((error as Error).message).toContain("is refused");
    }
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET");
  });

  it("refuses symlinks that lead out: a linked folder, a linked file, a dangling link", async () => {
    symlinkSync(outside, join(root, "escape-dir"));
    symlinkSync(join(outside, "secret.txt"), join(root, "escape-file"));
    symlinkSync(join(outside, "not-yet.txt"), join(root, "dangling"));
    const attempts: [string, unknown][] = [
      ["read_file", { path: "escape-dir/secret.txt" }],
      ["read_file", { path: "escape-file" }],
      ["write_file", { path: "escape-dir/planted.txt", content: "x" }],
      ["write_file", { path: "escape-dir/deeper/planted.txt", content: "x" }],
      ["write_file", { path: "escape-file", content: "overwritten" }],
      ["write_file", { path: "dangling", content: "created outside" }],
      ["delete_file", { path: "escape-file" }],
      ["list_directory", { path: "escape-dir" }],
    ];
    for (const [tool, args] of attempts) {
      const error = await (call(tool, args) as Promise<unknown>).catch((caught) => caught);
      expect(PathEscapeError.isInstance(error), `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect((error as PathEscapeError).via).toBe("symlink");
    }
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("TOP SECRET");
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    expect(existsSync(join(outside, "not-yet.txt"))).toBe(false);
    // Search never follows links, so it never reports what is behind them.
    expect(await call("search_files", { query: "SECRET" })).toEqual({ matches: [], truncated: false });
  });

  it("a symlink that stays inside the root is fine", async () => {
    symlinkSync(join(root, "src"), join(root, "source"));
    expect(await call("read_file", { path: "source/a.ts" })).toBe("export const a = 1;\n");
  });

  it("a root that does not exist is a clear error", async () => {
    await expect(filesystemToolset("fs", { root: join(base, "missing") })).rejects.toThrow(
      /toolsets\.fs: root .*missing is not an existing folder/,
    );
  });

  it.each(SURFACES)("%s: the model sees a refusal as a tool error and nothing is read", async (surface) => {
    const model = scriptedModel([
      { toolCalls: [{ id: "r1", name: "fs_read_file", args: { path: "../outside/secret.txt" } }] },
      { text: "I cannot read outside the workspace." },
    ]);
    const agent = createAgent({ name: "main", model, tools: fs.tools });
    const { result } = await runOn(surface, agent, "read the secret");
    const record = result.steps[0]!.toolResults[0]!;
    expect(record.isError).toBe(true);
    expect(String(record.result)).toContain('path "../outside/secret.txt" is refused');
    expect(JSON.stringify(result.messages)).not.toContain("TOP SECRET");
  });
});
