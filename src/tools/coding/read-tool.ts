/**
 * Claude Code's `Read` tool: `{ file_path, offset?, limit? }` (offset is the first line,
 * 1-based; limit the number of lines, default 2000). The model sees the lines numbered as
 * `cat -n` prints them, each cut at 2,000 characters; hooks get Claude's `tool_response`,
 * `{ type: "text", file: { filePath, content, numLines, startLine, totalLines } }`.
 */
import { readFile, stat } from "node:fs/promises";
import { z } from "../../deps/zod.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { tool } from "../tool.js";
import { codingPath } from "./coding-path.js";

const DEFAULT_LINES = 2000;
const MAX_LINE = 2000;
/** Files larger than this are read a window at a time (offset / limit), never whole. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface ReadResponse {
  type: "text";
  file: { filePath: string; content: string; numLines: number; startLine: number; totalLines: number };
}

function numbered(response: ReadResponse): string {
  const { content, startLine, totalLines } = response.file;
  if (totalLines === 0) return "<system-reminder>The file exists but is empty.</system-reminder>";
  if (content === "")
    return `<system-reminder>The file has ${totalLines} lines; offset ${startLine} is past its end.</system-reminder>`;
  return content
    .split("\n")
    .map((line, index) => {
      const kept = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}… [line truncated]` : line;
      return `${String(startLine + index).padStart(6)}\t${kept}`;
    })
    .join("\n");
}

export function readTool(root: string) {
  return tool({
    description:
      "Reads a text file. file_path is absolute (or relative to the project folder). Reads up to 2000 lines from the start, or limit lines from line offset; lines come numbered (cat -n).",
    inputSchema: z.strictObject({
      file_path: z.string().min(1).describe("The file to read"),
      offset: z.number().int().min(1).optional().describe("The first line to read (1-based)"),
      limit: z.number().int().positive().optional().describe("How many lines to read"),
    }),
    alias: { name: "Read" },
    toModelOutput: ({ output }) => ({ type: "text", value: numbered(output as ReadResponse) }),
    async execute({ file_path: filePath, offset, limit }): Promise<ReadResponse> {
      const file = await codingPath(root, filePath);
      const info = await stat(file);
      if (info.isDirectory())
        throw new HookwiseError(`${filePath} is a folder; use LS to list it, Read reads files`);
      if (info.size > MAX_FILE_BYTES)
        throw new HookwiseError(
          `${filePath} is ${info.size} bytes, over the ${MAX_FILE_BYTES} bytes Read loads; use Grep to find the part you need`,
        );
      const text = await readFile(file, "utf8");
      const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n");
      const startLine = offset ?? 1;
      const window = lines.slice(startLine - 1, startLine - 1 + (limit ?? DEFAULT_LINES));
      return {
        type: "text",
        file: {
          filePath: file,
          content: window.join("\n"),
          numLines: window.length,
          startLine,
          totalLines: lines.length,
        },
      };
    },
  });
}
