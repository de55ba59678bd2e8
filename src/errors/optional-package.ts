/**
 * Optional packages (model providers, SQLite, MCP, language servers, the exact tokenizer…)
 * are loaded with `import()` the first time a feature needs them, never by
 * `import "hookwise"`, so a user installs only what they use. A package that is not
 * installed is a `MissingPackageError` naming it and the command that installs it.
 */
import { existsSync, realpathSync, type Stats, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { HookwiseError } from "./hookwise-error.js";

export class MissingPackageError extends HookwiseError {
  override readonly name = "MissingPackageError";
  /** The npm package to install. */
  readonly packageName: string;

  constructor(packageName: string, purpose: string, cause?: unknown) {
    super(
      `${purpose} ${plural(purpose) ? "need" : "needs"} the package ${packageName}, which is not installed: npm install ${packageName}`,
      {
        cause,
      },
    );
    this.packageName = packageName;
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is MissingPackageError {
    return HookwiseError.isInstance(error) && error.name === "MissingPackageError";
  }
}

/** The package a specifier names: `@scope/name` or `name`, without a subpath. */
export function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

const redirects = new Map<string, string>();

/**
 * Loads `pkg` under another name from now on (`undefined` restores it). For tests of the
 * missing-package path: a name that does not exist stands for a package not installed.
 * Returns a function that undoes the redirect.
 */
export function redirectOptionalPackage(pkg: string, replacement: string | undefined): () => void {
  const previous = redirects.get(pkg);
  if (replacement === undefined) redirects.delete(pkg);
  else redirects.set(pkg, replacement);
  return () => {
    if (previous === undefined) redirects.delete(pkg);
    else redirects.set(pkg, previous);
  };
}

/**
 * `import(specifier)` for an optional package. `purpose` starts the error message
 * ("The anthropic provider", "The SQLite store"). A package that is installed but fails to
 * load keeps its own error.
 */
export async function importOptional<T>(specifier: string, purpose: string): Promise<T> {
  const pkg = packageOf(specifier);
  const target = redirects.has(pkg) ? redirects.get(pkg)! + specifier.slice(pkg.length) : specifier;
  try {
    return (await import(target)) as T;
  } catch (error) {
    if (isMissing(error, packageOf(target))) throw new MissingPackageError(pkg, purpose, error);
    throw error;
  }
}

/**
 * `require(specifier)` for an optional CommonJS package (better-sqlite3) needed by a
 * synchronous constructor; otherwise as `importOptional`.
 */
export function requireOptional<T>(specifier: string, purpose: string): T {
  const pkg = packageOf(specifier);
  const target = redirects.has(pkg) ? redirects.get(pkg)! + specifier.slice(pkg.length) : specifier;
  require ??= createRequire(import.meta.url);
  try {
    return require(target) as T;
  } catch (error) {
    if (isMissing(error, packageOf(target))) throw new MissingPackageError(pkg, purpose, error);
    throw error;
  }
}

/** The file `requireOptional(specifier)` loads (its redirect's, when redirected), or undefined when none resolves. */
export function resolveOptional(specifier: string): string | undefined {
  const pkg = packageOf(specifier);
  const target = redirects.has(pkg) ? redirects.get(pkg)! + specifier.slice(pkg.length) : specifier;
  require ??= createRequire(import.meta.url);
  try {
    return require.resolve(target);
  } catch {
    return undefined;
  }
}

/**
 * The folder of the package `pkg` (its redirect's, when redirected) where `require` finds it:
 * the first of `require`'s `node_modules` folders to hold an entry of that name, symbolic
 * links resolved. Found without `require`'s resolution, which reads the package.json of each
 * package scope on the way and its entry's, about a millisecond of a process that needs only
 * the folder (`hookwise hook`, on every tool call of a harness). Undefined when there is none,
 * or when that first entry is not a package's folder (`require` would load a file `<pkg>.js`
 * beside it first, say): the caller then asks `resolveOptional`.
 */
export function optionalPackageFolder(
  pkg: string,
  /** The `node_modules` folders to look in, in order (default: `require`'s). */
  folders?: readonly string[],
): string | undefined {
  const target = redirects.get(pkg) ?? pkg;
  require ??= createRequire(import.meta.url);
  for (const dir of folders ?? require.resolve.paths(target) ?? []) {
    const folder = join(dir, target);
    // What `require` tries in each folder before a package's folder of that name.
    if ([".js", ".json", ".node"].some((extension) => existsSync(folder + extension))) return undefined;
    let stats: Stats | undefined;
    try {
      stats = statSync(folder, { throwIfNoEntry: false });
    } catch {
      // Not to be looked into (a file named node_modules, a folder this user may not search):
      // require goes on to the next folder.
      continue;
    }
    if (stats === undefined) continue;
    return stats.isDirectory() && existsSync(join(folder, "package.json"))
      ? realpathSync.native(folder)
      : undefined;
  }
  return undefined;
}

/**
 * Throws a `MissingPackageError` when `pkg` is not installed, without loading it: for a
 * feature that loads its package on first use (a provider model) but must say at load time
 * that it cannot work. A package that resolves to no entry (ESM-only exports) is installed.
 */
export function assertInstalled(pkg: string, purpose: string): void {
  const target = redirects.get(pkg) ?? pkg;
  require ??= createRequire(import.meta.url);
  try {
    require.resolve(target);
  } catch (error) {
    if (isMissing(error, target)) throw new MissingPackageError(pkg, purpose, error);
  }
}

let require: NodeRequire | undefined;

function isMissing(error: unknown, pkg: string): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
    return message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`) || message.includes(`${pkg}/`);
  }
  // Vite's module runner (tests) words it differently.
  return /Cannot find (package|module)|Failed to load url/.test(message) && message.includes(pkg);
}

/** "MCP toolsets need…", "The SQLite store needs…". */
function plural(purpose: string): boolean {
  return /s$/.test(purpose.split(" ").at(-1) ?? "") && !/^The /.test(purpose);
}
