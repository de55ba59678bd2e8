/**
 * The coding toolset: Claude Code's tools by name and shape, confined to the root, Bash
 * killed with everything it started on timeout and abort.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResolvedTool } from "../resolved-tool.js";
import { codingToolset } from "./coding-toolset.js";

let dir: string;
let outside: string;
let tools: Record<string, ResolvedTool>;
const options = (signal = new AbortController().signal) => ({ signal, abortSignal: signal }) as never;
const call = (name: string, args: unknown, signal?: AbortSignal) =>
  tools[name]!.execute(args as never, options(signal));

beforeEach(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hookwise-coding-")));
  outside = realpathSync(mkdtempSync(join(tmpdir(), "hookwise-coding-out-")));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.ts"), "const a = 1;\n// TODO one\nconst b = 2;\n");
  writeFileSync(join(dir, "src", "b.py"), "x = 1  # todo two\n");
  writeFileSync(join(dir, ".env"), "TOKEN=secret-in-env\n");
  writeFileSync(join(outside, "secret.txt"), "outside secret\n");
  const toolset = await codingToolset("code", { root: dir });
  tools = Object.fromEntries(toolset.tools.map((tool) => [tool.name, tool]));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("coding toolset: names and schemas", () => {
  it("offers Claude Code's tools, sent unprefixed, with Claude's aliases and input fields", async () => {
    const toolset = await codingToolset("code", { root: dir });
    expect(toolset.tools.map((tool) => [tool.functionName, tool.qualifiedName, tool.alias?.name])).toEqual(
      ["Bash", "Read", "Write", "Edit", "MultiEdit", "Grep", "Glob", "LS"].map((name) => [
        name,
        `code.${name}`,
        name,
      ]),
    );
    const fields = (name: string) =>
      Object.keys((tools[name]!.input.jsonSchema as { properties: object }).properties);
    expect(fields("Bash")).toEqual(["command", "timeout", "description", "run_in_background"]);
    expect(fields("Read")).toEqual(["file_path", "offset", "limit"]);
    expect(fields("Write")).toEqual(["file_path", "content"]);
    expect(fields("Edit")).toEqual(["file_path", "old_string", "new_string", "replace_all"]);
    expect(fields("MultiEdit")).toEqual(["file_path", "edits"]);
    expect(fields("Grep")).toEqual([
      "pattern",
      "path",
      "glob",
      "type",
      "output_mode",
      "-i",
      "-n",
      "-A",
      "-B",
      "-C",
      "head_limit",
      "multiline",
    ]);
    expect(fields("Glob")).toEqual(["pattern", "path"]);
    expect(fields("LS")).toEqual(["path", "ignore"]);
    const prefixed = await codingToolset("code", { root: dir, prefix: true });
    expect(prefixed.tools[0]!.functionName).toBe("code_Bash");
  });
});

describe("coding toolset: files", () => {
  it("Read answers Claude's shape and the model sees numbered lines; offset and limit pick a window", async () => {
    const result = await call("Read", { file_path: join(dir, "src", "a.ts"), offset: 2, limit: 1 });
    expect(result).toEqual({
      type: "text",
      file: {
        filePath: join(dir, "src", "a.ts"),
        content: "// TODO one",
        numLines: 1,
        startLine: 2,
        totalLines: 3,
      },
    });
    const shown = await tools.Read!.toModelOutput!({ toolCallId: "c", input: {}, output: result });
    expect(shown).toEqual({ type: "text", value: "     2\t// TODO one" });
  });

  it("Write creates then updates, answering type, filePath, originalFile and a patch", async () => {
    const created = await call("Write", { file_path: "notes/n.md", content: "one\n" });
    expect(created).toMatchObject({
      type: "create",
      filePath: join(dir, "notes", "n.md"),
      originalFile: null,
      success: true,
    });
    const updated = await call("Write", { file_path: join(dir, "notes", "n.md"), content: "two\n" });
    expect(updated).toMatchObject({ type: "update", originalFile: "one\n", content: "two\n", success: true });
    expect((updated as { structuredPatch: { lines: string[] }[] }).structuredPatch[0]!.lines).toEqual([
      "-one",
      "+two",
      " ",
    ]);
    expect(readFileSync(join(dir, "notes", "n.md"), "utf8")).toBe("two\n");
  });

  it("Edit replaces one occurrence; an ambiguous or missing old_string changes nothing", async () => {
    const file = join(dir, "src", "a.ts");
    const result = await call("Edit", {
      file_path: file,
      old_string: "const a = 1;",
      new_string: "const a = 10;",
    });
    expect(result).toMatchObject({
      filePath: file,
      oldString: "const a = 1;",
      newString: "const a = 10;",
      replaceAll: false,
      userModified: false,
    });
    expect(readFileSync(file, "utf8")).toContain("const a = 10;");
    await expect(call("Edit", { file_path: file, old_string: "const", new_string: "let" })).rejects.toThrow(
      /occurs 2 times/,
    );
    await expect(call("Edit", { file_path: file, old_string: "nowhere", new_string: "x" })).rejects.toThrow(
      /not found/,
    );
    expect(readFileSync(file, "utf8")).toBe("const a = 10;\n// TODO one\nconst b = 2;\n");
  });

  it("MultiEdit applies every edit in order, or none when one fails", async () => {
    const file = join(dir, "src", "a.ts");
    const before = readFileSync(file, "utf8");
    await expect(
      call("MultiEdit", {
        file_path: file,
        edits: [
          { old_string: "const a", new_string: "let a" },
          { old_string: "missing", new_string: "x" },
        ],
      }),
    ).rejects.toThrow(/edit 2: old_string was not found/);
    expect(readFileSync(file, "utf8")).toBe(before);
    const result = await call("MultiEdit", {
      file_path: file,
      edits: [
        { old_string: "const", new_string: "let", replace_all: true },
        { old_string: "let a", new_string: "var a" },
      ],
    });
    expect(readFileSync(file, "utf8")).toBe("var a = 1;\n// TODO one\nlet b = 2;\n");
    expect(result).toMatchObject({ filePath: file, originalFileContents: before, userModified: false });
  });

  it("refuses paths out of the root: .., absolute elsewhere, a symlink out; nothing is read or written there", async () => {
    symlinkSync(outside, join(dir, "link"));
    await expect(call("Read", { file_path: join(outside, "secret.txt") })).rejects.toThrow(
      /outside the root/,
    );
    await expect(call("Read", { file_path: "link/secret.txt" })).rejects.toThrow(/symbolic link/);
    await expect(call("Write", { file_path: "../escape.txt", content: "x" })).rejects.toThrow(/climbs out/);
    await expect(call("Write", { file_path: "link/new.txt", content: "x" })).rejects.toThrow(/symbolic link/);
    await expect(
      call("Edit", { file_path: "link/secret.txt", old_string: "outside", new_string: "x" }),
    ).rejects.toThrow(/symbolic link/);
    await expect(call("Grep", { pattern: "secret", path: "link" })).rejects.toThrow(/symbolic link/);
    await expect(call("LS", { path: outside })).rejects.toThrow(/outside the root/);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    expect(existsSync(join(dirname(dir), "escape.txt"))).toBe(false);
    expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("outside secret\n");
    // Walking the root does not follow the link either.
    expect(await call("Grep", { pattern: "outside secret" })).toMatchObject({ numFiles: 0 });
  });
});

describe("coding toolset: search", () => {
  it("Grep lists files (hidden ones skipped), shows content with context, counts, filters by glob and type", async () => {
    expect(await call("Grep", { pattern: "todo", "-i": true })).toEqual({
      mode: "files_with_matches",
      numFiles: 2,
      filenames: [join(dir, "src", "a.ts"), join(dir, "src", "b.py")],
    });
    expect(await call("Grep", { pattern: "secret-in-env" })).toMatchObject({ numFiles: 0 });
    const content = await call("Grep", { pattern: "TODO", output_mode: "content", "-B": 1 });
    expect(content).toMatchObject({ mode: "content", numLines: 2 });
    expect((content as { content: string }).content).toBe(
      `${join(dir, "src", "a.ts")}-1-const a = 1;\n${join(dir, "src", "a.ts")}:2:// TODO one`,
    );
    expect(await call("Grep", { pattern: "o", output_mode: "count", type: "py" })).toMatchObject({
      mode: "count",
      numFiles: 1,
      numMatches: 1,
    });
    expect(await call("Grep", { pattern: "todo", "-i": true, glob: "*.ts" })).toMatchObject({
      filenames: [join(dir, "src", "a.ts")],
    });
    expect(
      await call("Grep", { pattern: "a = 1;\\n// TODO", multiline: true, output_mode: "content" }),
    ).toMatchObject({ numLines: 2 });
    expect(await call("Grep", { pattern: "todo", "-i": true, head_limit: 1 })).toMatchObject({
      numFiles: 1,
      appliedLimit: 1,
    });
    await expect(call("Grep", { pattern: "(" })).rejects.toThrow(/not a valid regular expression/);
    await expect(call("Grep", { pattern: "x", type: "cobol" })).rejects.toThrow(/type "cobol" is not known/);
  });

  it("Glob matches relative paths and answers filenames, numFiles, truncated; LS draws the tree with ignore", async () => {
    expect(await call("Glob", { pattern: "**/*.ts" })).toMatchObject({
      filenames: [join(dir, "src", "a.ts")],
      numFiles: 1,
      truncated: false,
    });
    expect(await call("LS", { path: dir, ignore: ["*.py"] })).toBe(`- ${dir}/\n  - src/\n    - a.ts`);
  });
});

describe("coding toolset: Bash", () => {
  it("runs bash -c in the root and answers stdout, stderr, interrupted, isImage", async () => {
    expect(await call("Bash", { command: "pwd; echo oops >&2" })).toEqual({
      stdout: `${dir}\n`,
      stderr: "oops\n",
      interrupted: false,
      isImage: false,
    });
  });

  it("a non-zero exit fails the call with its code and output", async () => {
    await expect(call("Bash", { command: "echo partial; exit 7" })).rejects.toThrow(/^Exit code 7\npartial$/);
  });

  it("cuts long output with a note", async () => {
    const result = (await call("Bash", { command: "head -c 50000 /dev/zero | tr '\\0' x" })) as {
      stdout: string;
    };
    expect(result.stdout.startsWith("x".repeat(30_000))).toBe(true);
    expect(result.stdout).toMatch(/\[output truncated: 20000 more characters\]$/);
  });

  it("a timeout kills the command and what it started: a background child never writes", async () => {
    const started = Date.now();
    const result = await call("Bash", { command: "(sleep 1; touch late-child) & sleep 30", timeout: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result).toMatchObject({
      interrupted: true,
      stderr: expect.stringMatching(/timed out after 300 ms/),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(existsSync(join(dir, "late-child"))).toBe(false);
  });

  it("an abort kills the command's group", async () => {
    const controller = new AbortController();
    const running = call("Bash", { command: "(sleep 1; touch aborted-child) & sleep 30" }, controller.signal);
    setTimeout(() => controller.abort(), 200);
    expect(await running).toMatchObject({ interrupted: true });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(existsSync(join(dir, "aborted-child"))).toBe(false);
  });

  it("refuses run_in_background and timeouts over 600000 ms", async () => {
    await expect(call("Bash", { command: "true", run_in_background: true })).rejects.toThrow(/not available/);
    expect(tools.Bash!.input.validate({ command: "true", timeout: 600_001 }).ok).toBe(false);
  });
});
