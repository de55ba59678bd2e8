/**
 * Store kinds by name, for configs (`runtime.state`) and the CLI. Each kind is one entry
 * in `storeFactories`; its config type comes from its factory's parameter, so adding a
 * kind (Redis) is its own module plus one line here.
 */
import { isAbsolute, resolve } from "node:path";
import { MemoryStore } from "./memory-store.js";
import { SqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

const storeFactories = {
  memory: (_config: { kind: "memory" }) => new MemoryStore(),
  sqlite: (config: { kind: "sqlite"; path: string }, baseDir: string) =>
    new SqliteStore({
      path:
        config.path === ":memory:" || isAbsolute(config.path) ? config.path : resolve(baseDir, config.path),
    }),
} satisfies Record<string, (config: never, baseDir: string) => StateStore>;

type StoreFactories = typeof storeFactories;

/** The config of any registered store kind, e.g. `{ kind: "sqlite", path: ".hookwise/state.db" }`. */
export type StateConfig = {
  [K in keyof StoreFactories]: Parameters<StoreFactories[K]>[0];
}[keyof StoreFactories];

export type StateStoreKind = StateConfig["kind"];

export const stateStoreKinds = Object.keys(storeFactories) as StateStoreKind[];

/**
 * Opens the store a config names. A relative `path` resolves against `baseDir` (default:
 * the working directory; the CLI passes the config file's folder). The caller owns the
 * store and closes it.
 */
export function createStore(config: StateConfig, baseDir: string = process.cwd()): StateStore {
  if (!Object.hasOwn(storeFactories, config.kind)) {
    throw new StateStoreError({
      kind: String(config.kind),
      message: `Unknown state store kind "${String(config.kind)}"; expected one of: ${stateStoreKinds.join(", ")}.`,
    });
  }
  const factory = storeFactories[config.kind] as (config: StateConfig, baseDir: string) => StateStore;
  return factory(config, baseDir);
}
