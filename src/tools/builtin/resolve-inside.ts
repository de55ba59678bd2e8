/**
 * Resolves a tool's path argument inside a root, refusing every way out: `..` that climbs
 * above the root, absolute paths elsewhere, and symbolic links (anywhere on the way, the
 * target included, dangling ones too) whose real location is outside. Paths that do not
 * exist yet (a file about to be written) are checked through their deepest existing
 * ancestor. A link swapped in between this check and the use is out of reach of any
 * path check; the root's owner controls what is in it.
 */
// node:fs/promises at first use (`fs.promises`): loading it loads the streams and readline.
import { promises as fs } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { PathEscapeError } from "./path-escape-error.js";

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

async function exists(path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** The real location of `path` (which may not exist yet): real deepest ancestor + the rest. */
async function realLocation(path: string): Promise<{ real: string; danglingLink: boolean }> {
  let existing = path;
  const rest: string[] = [];
  while (!(await exists(existing))) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    existing = parent;
  }
  try {
    return { real: join(await fs.realpath(existing), ...rest), danglingLink: false };
  } catch {
    // lstat saw it but realpath cannot follow it: a dangling symlink (or a loop).
    const target = await fs.readlink(existing).catch(() => "");
    return { real: resolve(dirname(existing), target), danglingLink: true };
  }
}

/**
 * `root` must be a real path (see `realpath`). Returns the absolute real path to use.
 * Throws PathEscapeError naming how the path tried to leave.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  if (typeof path !== "string" || path.includes("\0"))
    throw new PathEscapeError({ path, root, via: "invalid" });
  const target = resolve(root, path === "" ? "." : path);
  if (!inside(root, target)) {
    throw new PathEscapeError({ path, root, via: isAbsolute(path) ? "absolute" : "parent" });
  }
  const { real, danglingLink } = await realLocation(target);
  if (danglingLink || !inside(root, real)) throw new PathEscapeError({ path, root, via: "symlink" });
  return real;
}
