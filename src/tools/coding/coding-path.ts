/**
 * A coding tool's `file_path` / `path` inside the toolset's root. Claude Code's tools take
 * absolute paths; relative ones are read against the root. Either way the real location
 * must stay inside the root (`..`, absolute paths elsewhere and symbolic links out are
 * refused, see resolve-inside.ts).
 */
import { resolveInside } from "../builtin/resolve-inside.js";

export function codingPath(root: string, path: string | undefined): Promise<string> {
  return resolveInside(root, path === undefined || path === "" ? "." : path);
}
