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
  get abortSignal() {
    return this.signal;
  },
  messages: [],
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
      "fs_edit_file",
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

  it("edits one occurrence, or every one with replace_all; refuses a missing or ambiguous old_string", async () => {
    writeFileSync(join(root, "edit.txt"), "a-b-a");
    await expect(call("edit_file", { path: "edit.txt", old_string: "a", new_string: "c" })).rejects.toThrow(
      "occurs 2 times",
    );
    await expect(call("edit_file", { path: "edit.txt", old_string: "z", new_string: "c" })).rejects.toThrow(
      "not found",
    );
    expect(readFileSync(join(root, "edit.txt"), "utf8")).toBe("a-b-a");
    expect(await call("edit_file", { path: "edit.txt", old_string: "b", new_string: "$&$1" })).toBe(
      "replaced 1 occurrence in edit.txt",
    );
    expect(readFileSync(join(root, "edit.txt"), "utf8")).toBe("a-$&$1-a");
    expect(
      await call("edit_file", { path: "edit.txt", old_string: "a", new_string: "x", replace_all: true }),
    ).toBe("replaced 2 occurrences in edit.txt");
    expect(readFileSync(join(root, "edit.txt"), "utf8")).toBe("x-$&$1-x");
  });

  it("declares Claude Code's names and shapes: Read, Write, Edit with an absolute file_path", () => {
    const byName = new Map(fs.tools.map((tool) => [tool.name, tool]));
    expect(byName.get("read_file")?.alias?.name).toBe("Read");
    expect(byName.get("write_file")?.alias?.name).toBe("Write");
    expect(byName.get("edit_file")?.alias?.name).toBe("Edit");
    expect(byName.get("list_directory")?.alias).toBeUndefined();
    const write = byName.get("write_file")!.alias!;
    expect(write.toAliasInput!({ path: "docs/a.md", content: "x" })).toEqual({
      file_path: join(root, "docs", "a.md"),
      content: "x",
    });
    expect(write.fromAliasInput!({ file_path: join(root, "docs", "b.md"), content: "y" })).toEqual({
      path: join("docs", "b.md"),
      content: "y",
    });
    // A path outside the root stays as given: the tool refuses it when it runs.
    expect(write.fromAliasInput!({ file_path: "/etc/passwd", content: "y" })).toEqual({
      path: "/etc/passwd",
      content: "y",
    });
    expect(() => byName.get("read_file")!.alias!.fromAliasInput!({ file_path: "a", limit: 5 })).toThrow(
      "Read here takes file_path; not limit",
    );
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
      ["edit_file", { path: path(), old_string: "secret", new_string: "pwned" }],
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
