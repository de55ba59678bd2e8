/**
 * Claude Code's `Edit` (`{ file_path, old_string, new_string, replace_all? }`) and
 * `MultiEdit` (`{ file_path, edits: [{ old_string, new_string, replace_all? }] }`, applied
 * in order, all or none). An empty old_string creates a new file. Hooks get Claude's
 * `tool_response`: Edit `{ filePath, oldString, newString, originalFile, structuredPatch,
 * userModified, replaceAll }`, MultiEdit `{ filePath, edits, originalFileContents,
 * structuredPatch, userModified }`.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "../../deps/zod.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { tool } from "../tool.js";
import { applyEdit, type TextEdit } from "./apply-edit.js";
import { codingPath } from "./coding-path.js";
import { readIfAny } from "./read-if-any.js";
import { type PatchHunk, structuredPatch } from "./structured-patch.js";

export interface EditResponse {
  filePath: string;
  oldString: string;
  newString: string;
  originalFile: string;
  structuredPatch: PatchHunk[];
  userModified: false;
  replaceAll: boolean;
}

export interface MultiEditResponse {
  filePath: string;
  edits: TextEdit[];
  originalFileContents: string;
  structuredPatch: PatchHunk[];
  userModified: false;
}

const edit = () =>
  z.strictObject({
    old_string: z.string().describe("The exact text to replace"),
    new_string: z.string().describe("The text to put in its place"),
    replace_all: z.boolean().optional().describe("Replace every occurrence (default false)"),
  });

/** Applies the edits to the file (created when absent and the first edit's old_string is empty). */
async function editFile(
  root: string,
  filePath: string,
  edits: readonly TextEdit[],
): Promise<{ file: string; original: string; text: string }> {
  const file = await codingPath(root, filePath);
  const original = await readIfAny(file);
  if (original === null && edits[0]?.old_string !== "")
    throw new HookwiseError(`${filePath} does not exist; use Write to create it (or an empty old_string)`);
  let text = original ?? "";
  edits.forEach((one, index) => {
    text = applyEdit(text, one, edits.length > 1 ? `edit ${index + 1}` : "Edit");
  });
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text, "utf8");
  return { file, original: original ?? "", text };
}

const updated = ({ output }: { output: unknown }) => ({
  type: "text" as const,
  value: `The file ${(output as { filePath: string }).filePath} has been updated.`,
});

export function editTool(root: string) {
  return tool({
    description:
      "Replaces old_string with new_string in a file: exactly one occurrence, or every one with replace_all. file_path is absolute (or relative to the project folder).",
    inputSchema: z.strictObject({ file_path: z.string().min(1), ...edit().shape }),
    alias: { name: "Edit" },
    toModelOutput: updated,
    async execute({ file_path: filePath, ...change }): Promise<EditResponse> {
      const { file, original, text } = await editFile(root, filePath, [change]);
      return {
        filePath: file,
        oldString: change.old_string,
        newString: change.new_string,
        originalFile: original,
        structuredPatch: structuredPatch(original, text),
        userModified: false,
        replaceAll: change.replace_all ?? false,
      };
    },
  });
}

export function multiEditTool(root: string) {
  return tool({
    description:
      "Makes several edits to one file, in order, all or none: each replaces old_string with new_string (one occurrence, or every one with replace_all).",
    inputSchema: z.strictObject({
      file_path: z.string().min(1),
      edits: z.array(edit()).min(1).describe("Applied in order; a later edit sees the earlier ones"),
    }),
    alias: { name: "MultiEdit" },
    toModelOutput: updated,
    async execute({ file_path: filePath, edits }): Promise<MultiEditResponse> {
      const { file, original, text } = await editFile(root, filePath, edits);
      return {
        filePath: file,
        edits,
        originalFileContents: original,
        structuredPatch: structuredPatch(original, text),
        userModified: false,
      };
    },
  });
}
