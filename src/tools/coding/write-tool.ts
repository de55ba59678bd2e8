/**
 * Claude Code's `Write` tool: `{ file_path, content }`, creating folders as needed. Hooks
 * get Claude's `tool_response`: `{ type: "create" | "update", filePath, content,
 * structuredPatch, originalFile, success: true }` (`originalFile` is null for a new file).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "../../deps/zod.js";
import { tool } from "../tool.js";
import { codingPath } from "./coding-path.js";
import { readIfAny } from "./read-if-any.js";
import { type PatchHunk, structuredPatch } from "./structured-patch.js";

export interface WriteResponse {
  type: "create" | "update";
  filePath: string;
  content: string;
  structuredPatch: PatchHunk[];
  originalFile: string | null;
  success: true;
}

export function writeTool(root: string) {
  return tool({
    description:
      "Writes a file (replacing it when it exists, creating folders as needed). file_path is absolute (or relative to the project folder).",
    inputSchema: z.strictObject({
      file_path: z.string().min(1).describe("The file to write"),
      content: z.string().describe("The whole new content"),
    }),
    alias: { name: "Write" },
    toModelOutput: ({ output }) => {
      const response = output as WriteResponse;
      return {
        type: "text",
        value:
          response.type === "create"
            ? `File created successfully at: ${response.filePath}`
            : `The file ${response.filePath} has been updated.`,
      };
    },
    async execute({ file_path: filePath, content }): Promise<WriteResponse> {
      const file = await codingPath(root, filePath);
      const original = await readIfAny(file);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content, "utf8");
      return {
        type: original === null ? "create" : "update",
        filePath: file,
        content,
        structuredPatch: original === null ? [] : structuredPatch(original, content),
        originalFile: original,
        success: true,
      };
    },
  });
}
