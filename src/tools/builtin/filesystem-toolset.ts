/**
 * The builtin `filesystem` toolset (`{ kind: builtin, module: filesystem, root }`): read,
 * write, edit, list, search and delete files under `root`, never outside it (resolve-inside.ts).
 * Reads and search results are capped so one huge file cannot flood the context.
 */
import type { Dirent } from "node:fs";
import { mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { picomatch } from "../../deps/picomatch.js";
import { z } from "../../deps/zod.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { resolveTool } from "../resolved-tool.js";
import { tool } from "../tool.js";
import type { Toolset } from "../toolset.js";
import { fileAlias } from "./file-alias.js";
import { resolveInside } from "./resolve-inside.js";

const MAX_READ = 256 * 1024;
const SKIPPED = new Set([".git", "node_modules"]);

export interface FilesystemToolsetOptions {
  /** An existing folder; every path is relative to it. */
  root: string;
  prefix?: boolean;
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

async function* walk(folder: string): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    // Symbolic links are not followed: they could lead out of the root.
    if (entry.isSymbolicLink() || SKIPPED.has(entry.name)) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

function fileTools(root: string) {
  const display = (absolute: string) => toPosix(relative(root, absolute)) || ".";
  return {
    read_file: tool({
      description: "Reads a text file under the workspace root.",
      inputSchema: z.object({ path: z.string().describe("Relative to the root") }),
      alias: fileAlias(root, "Read", []),
      async execute({ path }) {
        const file = await resolveInside(root, path);
        const data = await readFile(file);
        const text = data.subarray(0, MAX_READ).toString("utf8");
        return data.length > MAX_READ
          ? `${text}\n[truncated: showing ${MAX_READ} of ${data.length} bytes]`
          : text;
      },
    }),
    write_file: tool({
      description: "Writes a text file under the workspace root (creating folders as needed).",
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      alias: fileAlias(root, "Write", ["content"]),
      async execute({ path, content }) {
        const file = await resolveInside(root, path);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, content, "utf8");
        return `wrote ${Buffer.byteLength(content)} bytes to ${display(file)}`;
      },
    }),
    edit_file: tool({
      description:
        "Replaces old_string with new_string in a text file under the workspace root: exactly one occurrence, or every one with replace_all.",
      inputSchema: z.object({
        path: z.string(),
        old_string: z.string().min(1),
        new_string: z.string(),
        replace_all: z.boolean().default(false),
      }),
      alias: fileAlias(root, "Edit", ["old_string", "new_string", "replace_all"]),
      async execute({ path, old_string: before, new_string: after, replace_all: all }) {
        const file = await resolveInside(root, path);
        const text = await readFile(file, "utf8");
        const count = text.split(before).length - 1;
        if (count === 0) throw new HookwiseError(`old_string was not found in ${display(file)}`);
        if (count > 1 && !all)
          throw new HookwiseError(
            `old_string occurs ${count} times in ${display(file)}; give more context to make it unique, or set replace_all`,
          );
        await writeFile(
          file,
          all ? text.split(before).join(after) : text.replace(before, () => after),
          "utf8",
        );
        return `replaced ${all ? count : 1} occurrence${(all ? count : 1) === 1 ? "" : "s"} in ${display(file)}`;
      },
    }),
    list_directory: tool({
      description: "Lists a folder under the workspace root: names, kinds and sizes.",
      inputSchema: z.object({ path: z.string().default(".") }),
      async execute({ path }) {
        const folder = await resolveInside(root, path);
        const entries = await readdir(folder, { withFileTypes: true });
        const listed = await Promise.all(
          entries
            .sort((a, b) => a.name.localeCompare(b.name))
            .map(async (entry) => {
              const kind = entry.isSymbolicLink() ? "symlink" : entry.isDirectory() ? "directory" : "file";
              const size = kind === "file" ? (await stat(join(folder, entry.name))).size : undefined;
              return size === undefined ? { name: entry.name, kind } : { name: entry.name, kind, size };
            }),
        );
        return { path: display(folder), entries: listed };
      },
    }),
    search_files: tool({
      description:
        "Finds files under the workspace root by name (glob `pattern`) and/or content (`query`, case-insensitive).",
      inputSchema: z.object({
        pattern: z.string().default("**/*").describe('A glob over relative paths, e.g. "src/**/*.ts"'),
        query: z.string().optional().describe("Text the file must contain"),
        path: z.string().default(".").describe("The folder to search in"),
        max_results: z.number().int().positive().max(1000).default(100),
      }),
      async execute({ pattern, query, path, max_results: max }) {
        const folder = await resolveInside(root, path);
        const matches = picomatch(pattern, { dot: true });
        const needle = query?.toLowerCase();
        const found: { path: string; line?: number; text?: string }[] = [];
        for await (const file of walk(folder)) {
          if (found.length >= max) break;
          const rel = display(file);
          if (!matches(rel)) continue;
          if (needle === undefined) {
            found.push({ path: rel });
            continue;
          }
          const text = (await readFile(file)).subarray(0, MAX_READ).toString("utf8");
          const lines = text.split("\n");
          for (let index = 0; index < lines.length && found.length < max; index++) {
            if (lines[index]!.toLowerCase().includes(needle))
              found.push({ path: rel, line: index + 1, text: lines[index]!.trim().slice(0, 200) });
          }
        }
        return { matches: found, truncated: found.length >= max };
      },
    }),
    delete_file: tool({
      description: "Deletes one file under the workspace root (not folders).",
      inputSchema: z.object({ path: z.string() }),
      async execute({ path }) {
        const file = await resolveInside(root, path);
        if ((await stat(file)).isDirectory())
          throw new HookwiseError(`"${path}" is a folder; delete_file deletes files only`);
        await rm(file);
        return `deleted ${display(file)}`;
      },
    }),
  };
}

export async function filesystemToolset(name: string, options: FilesystemToolsetOptions): Promise<Toolset> {
  let root: string;
  try {
    root = await realpath(options.root);
    if (!(await stat(root)).isDirectory()) throw new Error("not a folder");
  } catch (error) {
    throw new HookwiseError(
      `toolsets.${name}: root ${options.root} is not an existing folder (${(error as Error).message})`,
    );
  }
  return {
    name,
    tools: Object.entries(fileTools(root)).map(([tool, definition]) =>
      resolveTool(tool, definition, { toolset: name, prefix: options.prefix ?? true }),
    ),
    close: async () => {},
  };
}
