/**
 * Claude Code's `Glob` tool: `{ pattern, path? }`, the files under `path` (default the
 * project folder) whose path relative to it matches the glob, most recently modified
 * first, at most 100. Hooks get Claude's `tool_response`: `{ filenames, durationMs,
 * numFiles, truncated }`.
 */
import { stat } from "node:fs/promises";
import { relative } from "node:path";
import { picomatch } from "../../deps/picomatch.js";
import { z } from "../../deps/zod.js";
import { tool } from "../tool.js";
import { codingPath } from "./coding-path.js";
import { walkFiles } from "./walk-files.js";

const MAX_FILES = 100;

export interface GlobResponse {
  filenames: string[];
  durationMs: number;
  numFiles: number;
  truncated: boolean;
}

function shown(response: GlobResponse): string {
  if (response.numFiles === 0) return "No files found";
  const note = response.truncated
    ? `\n(Results are truncated: the first ${MAX_FILES} are shown. Use a more specific path or pattern.)`
    : "";
  return `${response.filenames.join("\n")}${note}`;
}

export function globTool(root: string) {
  return tool({
    description:
      'Finds files by name with a glob pattern such as "**/*.js" or "src/**/*.ts", most recently modified first (at most 100). Hidden files, .git and node_modules are skipped unless the pattern names them.',
    inputSchema: z.strictObject({
      pattern: z.string().min(1).describe("The glob to match paths against"),
      path: z.string().optional().describe("The folder to search in (default: the project folder)"),
    }),
    alias: { name: "Glob" },
    toModelOutput: ({ output }) => ({ type: "text", value: shown(output as GlobResponse) }),
    async execute({ pattern, path }): Promise<GlobResponse> {
      const started = Date.now();
      const folder = await codingPath(root, path);
      const match = picomatch(pattern, { dot: pattern.includes("/.") || pattern.startsWith(".") });
      const hidden = /(^|\/)\./.test(pattern);
      const found: { file: string; mtime: number }[] = [];
      for await (const file of walkFiles(folder, { hidden })) {
        if (match(relative(folder, file).split("\\").join("/")))
          found.push({ file, mtime: (await stat(file)).mtimeMs });
      }
      found.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : 1));
      const filenames = found.slice(0, MAX_FILES).map((entry) => entry.file);
      return {
        filenames,
        durationMs: Date.now() - started,
        numFiles: filenames.length,
        truncated: found.length > MAX_FILES,
      };
    },
  });
}
