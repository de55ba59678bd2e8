/**
 * The installed better-sqlite3 driver: where its native addon is, for the driver to load it
 * directly, and which copy of its JavaScript runs (`sqliteDriver`). Left to
 * itself, the driver finds it through the `bindings` package, which takes a stack trace to
 * learn the package's folder and then tries a dozen places in turn: a noticeable part of a
 * process that opens one store and answers one event (`hookwise hook`, once per tool call
 * of a harness). The install builds the addon into `build/Release`; that file is given to
 * the driver only when none of the places `bindings` tries before it holds one, so the
 * driver loads the very file it would have found. Otherwise (another layout, a package
 * that does not resolve): undefined, and the driver looks for itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import { loadBundled } from "../deps/load-package.js";
import { optionalPackageFolder, requireOptional, resolveOptional } from "../errors/optional-package.js";

const ADDON = "better_sqlite3.node";
/** How the bundled driver requires its error class, the installed package's (tsdown.config.ts). */
export const SQLITE_ERROR = "better-sqlite3/lib/sqlite-error.js";

/** The addon in the package folder `root`, as `bindings` would find it first; or undefined. */
export function nativeAddonIn(root: string): string | undefined {
  const release = join(root, "build", "Release", ADDON);
  // The places `bindings` tries before build/Release.
  const earlier = [join(root, "build", ADDON), join(root, "build", "Debug", ADDON)];
  if (earlier.some((path) => existsSync(path)) || !existsSync(release)) return undefined;
  return release;
}

let found: { path: string | undefined; root: string | undefined } | undefined;

function installed(): { path: string | undefined; root: string | undefined } {
  if (found === undefined) {
    // The package's folder as `require` finds it; else from its entry, lib/index.js there.
    let root = optionalPackageFolder("better-sqlite3");
    if (root === undefined) {
      const entry = resolveOptional("better-sqlite3");
      root = entry === undefined ? undefined : dirname(dirname(entry));
    }
    found =
      root !== undefined && existsSync(join(root, "lib", "database.js"))
        ? { path: nativeAddonIn(root), root }
        : { path: undefined, root: undefined };
  }
  return found;
}

/** The installed driver's addon (looked up once per process), or undefined. */
export function sqliteNativeAddon(): string | undefined {
  return installed().path;
}

/** What the bundled copy of the driver holds (src/deps/bundled/better-sqlite3.ts). */
export interface BundledDriver {
  readonly Database: typeof Database;
  readonly version: string;
}

/**
 * The driver's JavaScript, and the addon to give it (undefined: the driver looks for its
 * own). Built, hookwise holds a copy of the driver's JavaScript in one file, which loads
 * several times faster than the package's thirteen (through the CLI's compiled-code cache):
 * see `bundledDriverFits`. Otherwise, and run from the sources, the installed package is
 * required (a `MissingPackageError` when it is not installed).
 */
export function sqliteDriver(): { Driver: typeof Database; nativeBinding: string | undefined } {
  const { path, root } = installed();
  if (path !== undefined && root !== undefined) {
    // Its error class is the installed package's (tsdown.config.ts), whose folder is known here.
    const bundled = loadBundled<BundledDriver>("better-sqlite3", {
      [SQLITE_ERROR]: join(root, "lib", "sqlite-error.js"),
    });
    if (bundled !== undefined && bundledDriverFits(bundled, root))
      return { Driver: bundled.Database, nativeBinding: path };
  }
  return {
    Driver: requireOptional<typeof Database>("better-sqlite3", "The SQLite state store"),
    nativeBinding: path,
  };
}

/**
 * Whether the bundled copy of the driver's JavaScript may run with the addon of the package
 * installed in `root`: only when that package is the very version the copy was built from
 * (the JavaScript and its addon are made for each other). Given the addon, the copy never
 * runs the package's `bindings` lookup, which is left out of it.
 */
export function bundledDriverFits(bundled: BundledDriver, root: string): boolean {
  return bundled.version === versionIn(root);
}

/** The version in the package.json of the package folder `root`, or undefined. */
function versionIn(root: string): string | undefined {
  try {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version?: unknown };
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}
