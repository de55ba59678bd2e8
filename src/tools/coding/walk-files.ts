/**
 * Files under a folder, in path order, for Grep, Glob and LS. Symbolic links are not
 * followed (they could lead out of the root); `.git` and `node_modules` are skipped, and
 * so are hidden files and folders unless `hidden` is set (as ripgrep does by default).
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

const SKIPPED = new Set([".git", "node_modules"]);

export async function* walkFiles(folder: string, options: { hidden?: boolean } = {}): AsyncGenerator<string> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.isSymbolicLink() || SKIPPED.has(entry.name)) continue;
    if (!options.hidden && entry.name.startsWith(".")) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walkFiles(path, options);
    else if (entry.isFile()) yield path;
  }
}
