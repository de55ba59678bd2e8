/**
 * Where the CLI keeps state when a config's `runtime.state` says nothing: a `.hookwise`
 * folder beside the config — or in the working directory when the config is inside
 * `node_modules` (an example run from an installed package), so nothing is ever written
 * into an installed package.
 *
 * The store there is SQLite when better-sqlite3 is installed, else the file store (no
 * native build). A folder that already holds state keeps its kind: installing
 * better-sqlite3 later does not hide the sessions a file store kept.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { MissingPackageError } from "../errors/optional-package.js";
import type { StateConfig } from "../state/create-store.js";
import { sqliteDriver } from "../state/sqlite-native-addon.js";

/** The folder the default state lives in, for a config at `configPath`. */
export function defaultStateFolder(configPath: string, cwd: string = process.cwd()): string {
  const config = resolve(cwd, configPath);
  const installed = config.split(sep).includes("node_modules");
  return join(installed ? cwd : dirname(config), ".hookwise");
}

export function defaultState(
  configPath: string,
  cwd: string = process.cwd(),
  /** Told why SQLite is not used when better-sqlite3 is installed but does not load. */
  warn: (message: string) => void = () => {},
): StateConfig {
  const folder = defaultStateFolder(configPath, cwd);
  const sqlite: StateConfig = { kind: "sqlite", path: join(folder, "state.db") };
  const file: StateConfig = { kind: "file", path: join(folder, "state") };
  if (existsSync(sqlite.path)) return sqlite;
  if (existsSync(file.path)) return file;
  return sqliteLoads(warn) ? sqlite : file;
}

/** Whether better-sqlite3 is installed and its native part loads (it may not have been built). */
function sqliteLoads(warn: (message: string) => void): boolean {
  let driver: ReturnType<typeof sqliteDriver>;
  try {
    driver = sqliteDriver();
  } catch (error) {
    if (MissingPackageError.isInstance(error)) return false;
    throw error;
  }
  try {
    const { Driver, nativeBinding } = driver;
    new Driver(":memory:", nativeBinding === undefined ? {} : { nativeBinding }).close();
    return true;
  } catch (error) {
    warn(
      `better-sqlite3 is installed but does not load (${(error as Error).message.split("\n")[0]}); state is kept in the file store instead (rebuild it with npm rebuild better-sqlite3)`,
    );
    return false;
  }
}
