/**
 * A file a tool call names, for diagnostics: resolved inside the workspace root, refusing
 * `..`, absolute paths elsewhere and symbolic links that lead out (resolve-inside.ts, as
 * the filesystem toolset does), so a model-chosen path never makes hookwise read — and a
 * language server echo — a file outside the root. The answer is under `root` as given (not
 * its real path), so the file sits under the rootUri its language server was started with.
 */
// node:fs/promises at first use (`fs.promises`): loading it loads the streams and readline.
import { promises as fs } from "node:fs";
import { join, relative } from "node:path";
import { resolveInside } from "../tools/builtin/resolve-inside.js";

/** Throws PathEscapeError when `path` leaves `root`; `root` must exist. */
export async function workspaceFile(root: string, path: string): Promise<string> {
  const realRoot = await fs.realpath(root);
  return join(root, relative(realRoot, await resolveInside(realRoot, path)));
}
