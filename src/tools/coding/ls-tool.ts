/**
 * Claude Code's `LS` tool: `{ path, ignore? }`, the files and folders under `path` as an
 * indented tree (folders end with "/"), at most 1,000 entries, hidden ones, `.git` and
 * `node_modules` left out, and `ignore` globs too. Its `tool_response` is that text, as in
 * Claude Code.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { picomatch } from "../../deps/picomatch.js";
import { z } from "../../deps/zod.js";
import { tool } from "../tool.js";
import { codingPath } from "./coding-path.js";

const MAX_ENTRIES = 1000;
const SKIPPED = new Set([".git", "node_modules"]);

async function tree(
  folder: string,
  depth: number,
  skip: (name: string) => boolean,
  out: string[],
): Promise<boolean> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return true;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".") || SKIPPED.has(entry.name) || skip(entry.name)) continue;
    if (out.length >= MAX_ENTRIES) return false;
    const indent = "  ".repeat(depth);
    if (entry.isDirectory()) {
      out.push(`${indent}- ${entry.name}/`);
      if (!(await tree(join(folder, entry.name), depth + 1, skip, out))) return false;
    } else out.push(`${indent}- ${entry.name}`);
  }
  return true;
}

export function lsTool(root: string) {
  return tool({
    description:
      "Lists the files and folders under a folder as a tree. path is absolute (or relative to the project folder); ignore takes glob patterns of names to leave out.",
    inputSchema: z.strictObject({
      path: z.string().min(1).describe("The folder to list"),
      ignore: z.array(z.string()).optional().describe('Names to leave out, as globs (e.g. "*.log")'),
    }),
    alias: { name: "LS" },
    async execute({ path, ignore }): Promise<string> {
      const folder = await codingPath(root, path);
      const skip = ignore?.length ? picomatch(ignore, { dot: true }) : () => false;
      const out: string[] = [];
      const whole = await tree(folder, 1, skip, out);
      const note = whole ? "" : `\n\n[truncated: more than ${MAX_ENTRIES} entries; list a sub-folder]`;
      return `- ${folder}/\n${out.join("\n")}${note}`;
    },
  });
}
