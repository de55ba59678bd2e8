/**
 * Claude Code's names for the filesystem tools (`Read`, `Write`, `Edit`), so hooks written
 * for it see the shape they expect: an absolute `file_path` instead of a path relative to
 * the root, the other fields by the same names. A rewrite comes back relative when it stays
 * inside the root (the tool itself refuses any path outside it). Results reach such hooks
 * in Claude's shape too: Read `{ type: "text", file: { filePath, content, … } }`, Write
 * `{ filePath, content, success }`, Edit `{ filePath, oldString, newString, replaceAll, success }`.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { HookwiseError } from "../../errors/hookwise-error.js";
import type { ToolAlias } from "../tool-alias.js";

/** The result as Claude Code's tool of that name reports it to hooks (`tool_response`). */
function claudeResponse(root: string, name: string, result: unknown, args: unknown): unknown {
  const { path, ...rest } = args as { path: string } & Record<string, unknown>;
  const filePath = resolve(root, path);
  if (name === "Read" && typeof result === "string") {
    const lines = result === "" ? 0 : result.replace(/\n$/, "").split("\n").length;
    return {
      type: "text",
      file: { filePath, content: result, numLines: lines, startLine: 1, totalLines: lines },
    };
  }
  if (name === "Write") return { filePath, content: rest.content, success: true };
  if (name === "Edit")
    return {
      filePath,
      oldString: rest.old_string,
      newString: rest.new_string,
      replaceAll: rest.replace_all ?? false,
      success: true,
    };
  return result;
}

export function fileAlias(root: string, name: string, fields: readonly string[]): ToolAlias {
  return {
    name,
    toAliasOutput: (result, args) => claudeResponse(root, name, result, args),
    toAliasInput(args) {
      const { path, ...rest } = args as { path: string };
      return { file_path: resolve(root, path), ...rest };
    },
    fromAliasInput(input) {
      if (typeof input !== "object" || input === null || Array.isArray(input))
        throw new HookwiseError(`${name} input must be an object with file_path`);
      const { file_path: filePath, ...rest } = input as Record<string, unknown>;
      const unknown = Object.keys(rest).filter((key) => !fields.includes(key));
      if (unknown.length)
        throw new HookwiseError(
          `${name} here takes ${["file_path", ...fields].join(", ")}; not ${unknown.join(", ")}`,
        );
      if (typeof filePath !== "string") return { path: filePath, ...rest };
      const inside = relative(root, filePath);
      const path =
        isAbsolute(filePath) && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)
          ? inside || "."
          : filePath;
      return { path, ...rest };
    },
  };
}
