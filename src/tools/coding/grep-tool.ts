/**
 * Claude Code's `Grep` tool: `{ pattern, path?, glob?, type?, output_mode?, -i?, -n?, -A?,
 * -B?, -C?, head_limit?, multiline? }`, searched in JavaScript (grep-search.ts), never
 * outside the root. `output_mode` is `files_with_matches` (default), `content` or `count`;
 * `head_limit` keeps the first lines or files. Hooks get Claude's `tool_response`:
 * `{ mode, numFiles, filenames, content?, numLines?, numMatches?, appliedLimit? }`.
 */
import { z } from "../../deps/zod.js";
import { tool } from "../tool.js";
import { codingPath } from "./coding-path.js";
import { contentLines, grepSearch } from "./grep-search.js";

export interface GrepResponse {
  mode: "files_with_matches" | "content" | "count";
  numFiles: number;
  filenames: string[];
  content?: string;
  numLines?: number;
  numMatches?: number;
  appliedLimit?: number;
}

function limited<T>(items: T[], limit: number | undefined): { items: T[]; applied?: number } {
  if (limit === undefined || items.length <= limit) return { items };
  return { items: items.slice(0, limit), applied: limit };
}

function shown(response: GrepResponse): string {
  const note =
    response.appliedLimit === undefined ? "" : `\n\n[showing the first ${response.appliedLimit}: head_limit]`;
  if (response.mode === "files_with_matches")
    return response.numFiles === 0
      ? "No files found"
      : `Found ${response.numFiles} file${response.numFiles === 1 ? "" : "s"}\n${response.filenames.join("\n")}${note}`;
  if (response.mode === "count")
    return response.numFiles === 0
      ? "No matches found"
      : `${response.content}\n\nFound ${response.numMatches} total occurrence${response.numMatches === 1 ? "" : "s"} across ${response.numFiles} file${response.numFiles === 1 ? "" : "s"}.${note}`;
  return response.content ? `${response.content}${note}` : "No matches found";
}

export function grepTool(root: string) {
  const lines = z.number().int().min(0).optional();
  return tool({
    description:
      'Searches file contents with a regular expression (JavaScript syntax). Filter files with glob (e.g. "*.ts") or type (e.g. "py"). output_mode: "files_with_matches" (default, file paths), "content" (matching lines, with -A/-B/-C context and -n line numbers), "count" (matches per file). Hidden files, .git and node_modules are skipped.',
    inputSchema: z.strictObject({
      pattern: z.string().min(1).describe("The regular expression to search for"),
      path: z.string().optional().describe("A file or folder to search in (default: the project folder)"),
      glob: z
        .string()
        .optional()
        .describe('Only files matching this glob, e.g. "*.js" or "src/**/*.{ts,tsx}"'),
      type: z.string().optional().describe('Only files of this type, e.g. "js", "py", "rust"'),
      output_mode: z.enum(["content", "files_with_matches", "count"]).optional(),
      "-i": z.boolean().optional().describe("Case insensitive"),
      "-n": z.boolean().optional().describe("Line numbers (content mode; default true)"),
      "-A": lines.describe("Lines after each match (content mode)"),
      "-B": lines.describe("Lines before each match (content mode)"),
      "-C": lines.describe("Lines before and after each match (content mode)"),
      head_limit: z.number().int().positive().optional().describe("Only the first N lines or files"),
      multiline: z.boolean().optional().describe("Patterns may span lines; . matches newlines"),
    }),
    alias: { name: "Grep" },
    toModelOutput: ({ output }) => ({ type: "text", value: shown(output as GrepResponse) }),
    async execute(args): Promise<GrepResponse> {
      const target = await codingPath(root, args.path);
      const found = await grepSearch({
        pattern: args.pattern,
        target,
        glob: args.glob,
        type: args.type,
        ignoreCase: args["-i"] ?? false,
        multiline: args.multiline ?? false,
      });
      const mode = args.output_mode ?? "files_with_matches";
      if (mode === "files_with_matches") {
        const { items, applied } = limited(
          found.map((hits) => hits.file),
          args.head_limit,
        );
        return {
          mode,
          numFiles: items.length,
          filenames: items,
          ...(applied === undefined ? {} : { appliedLimit: applied }),
        };
      }
      if (mode === "count") {
        const { items, applied } = limited(found, args.head_limit);
        return {
          mode,
          numFiles: items.length,
          filenames: [],
          content: items.map((hits) => `${hits.file}:${hits.matched.length}`).join("\n"),
          numMatches: items.reduce((sum, hits) => sum + hits.matched.length, 0),
          ...(applied === undefined ? {} : { appliedLimit: applied }),
        };
      }
      const context = args["-C"] ?? 0;
      const all = found.flatMap((hits) =>
        contentLines(hits, {
          before: args["-B"] ?? context,
          after: args["-A"] ?? context,
          numbers: args["-n"] ?? true,
        }),
      );
      const { items, applied } = limited(all, args.head_limit);
      return {
        mode,
        numFiles: found.length,
        filenames: [],
        content: items.join("\n"),
        numLines: items.length,
        ...(applied === undefined ? {} : { appliedLimit: applied }),
      };
    },
  });
}
