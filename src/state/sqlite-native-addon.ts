/**
 * Where better-sqlite3's native addon is, for the driver to load it directly. Left to
 * itself, the driver finds it through the `bindings` package, which takes a stack trace to
 * learn the package's folder and then tries a dozen places in turn: a noticeable part of a
 * process that opens one store and answers one event (`hookwise hook`, once per tool call
 * of a harness). The install builds the addon into `build/Release`; that file is given to
 * the driver only when none of the places `bindings` tries before it holds one, so the
 * driver loads the very file it would have found. Otherwise (another layout, a package
 * that does not resolve): undefined, and the driver looks for itself.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { resolveOptional } from "../errors/optional-package.js";

const ADDON = "better_sqlite3.node";

/** The addon in the package folder `root`, as `bindings` would find it first; or undefined. */
export function nativeAddonIn(root: string): string | undefined {
  const release = join(root, "build", "Release", ADDON);
  // The places `bindings` tries before build/Release.
  const earlier = [join(root, "build", ADDON), join(root, "build", "Debug", ADDON)];
  if (earlier.some((path) => existsSync(path)) || !existsSync(release)) return undefined;
  return release;
}

let found: { path: string | undefined } | undefined;

/** The installed driver's addon (looked up once per process), or undefined. */
export function sqliteNativeAddon(): string | undefined {
  if (found === undefined) {
    // The driver's entry is lib/index.js in the package folder.
    const entry = resolveOptional("better-sqlite3");
    const root = entry === undefined ? undefined : dirname(dirname(entry));
    found = {
      path:
        root !== undefined && existsSync(join(root, "lib", "database.js")) ? nativeAddonIn(root) : undefined,
    };
  }
  return found.path;
}
