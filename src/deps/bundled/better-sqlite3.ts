// Built into one file (dist/deps/better-sqlite3.cjs): the driver's JavaScript (thirteen files)
// as one, loaded through the CLI's compiled-code cache. Used only with the native addon of an
// installed better-sqlite3 of this very version (src/state/sqlite-native-addon.ts), given to it as
// `nativeBinding`: the package's `bindings` lookup is never run, so it is left out. Its error
// class is the installed package's own (tsdown.config.ts), so that an app's copy in the same
// process sees the same `SqliteError`.
import Database from "better-sqlite3";
import manifest from "better-sqlite3/package.json" with { type: "json" };

/** The version of better-sqlite3 this file was built from. */
export const version: string = manifest.version;

export { Database };
