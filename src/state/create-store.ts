/**
 * Store kinds by name, for configs (`runtime.state`) and the CLI. Each kind is one entry
 * in `storeFactories`; its config type comes from its factory's parameter, so adding a
 * kind is its own module plus one line here.
 */
import { isAbsolute, resolve } from "node:path";
import { fileStoreModule } from "./file-store.part.js";
import { memoryStoreModule } from "./memory-store.part.js";
import { redisStoreModule } from "./redis-store.part.js";
import { SqliteStore } from "./sqlite-store.js";
import type { StateStore } from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

/** Seconds (config) → ms (stores). */
const ms = (seconds: number | undefined) => (seconds === undefined ? undefined : seconds * 1000);

const storeFactories = {
  memory: (config: {
    kind: "memory";
    session_ttl?: number;
    max_sessions?: number;
    keep_one_shot?: boolean;
  }) =>
    new (memoryStoreModule().MemoryStore)({
      ...(config.session_ttl !== undefined ? { sessionTtlMs: ms(config.session_ttl) } : {}),
      ...(config.max_sessions !== undefined ? { maxSessions: config.max_sessions } : {}),
      ...(config.keep_one_shot !== undefined ? { keepOneShot: config.keep_one_shot } : {}),
    }),
  sqlite: (config: { kind: "sqlite"; path: string; session_ttl?: number }, baseDir: string) =>
    new SqliteStore({
      path:
        config.path === ":memory:" || isAbsolute(config.path) ? config.path : resolve(baseDir, config.path),
      ...(config.session_ttl !== undefined ? { sessionTtlMs: ms(config.session_ttl) } : {}),
    }),
  file: (config: { kind: "file"; path: string; session_ttl?: number }, baseDir: string) =>
    new (fileStoreModule().FileStore)({
      path: isAbsolute(config.path) ? config.path : resolve(baseDir, config.path),
      ...(config.session_ttl !== undefined ? { sessionTtlMs: ms(config.session_ttl) } : {}),
    }),
  redis: (config: { kind: "redis"; url?: string; prefix?: string; session_ttl?: number }) => {
    const url = config.url ?? process.env.HOOKWISE_STATE_URL;
    if (!url) {
      throw new StateStoreError({
        kind: "redis",
        message:
          "runtime.state: kind redis needs a server: set HOOKWISE_STATE_URL=redis://host:6379 (or url: in the config)",
      });
    }
    return new (redisStoreModule().RedisStore)({
      url,
      ...(config.prefix !== undefined ? { prefix: config.prefix } : {}),
      ...(config.session_ttl !== undefined ? { sessionTtlMs: ms(config.session_ttl) } : {}),
    });
  },
} satisfies Record<string, (config: never, baseDir: string) => StateStore>;

type StoreFactories = typeof storeFactories;

/** The config of any registered store kind, e.g. `{ kind: "sqlite", path: ".hookwise/state.db" }`. */
export type StateConfig = {
  [K in keyof StoreFactories]: Parameters<StoreFactories[K]>[0];
}[keyof StoreFactories];

export type StateStoreKind = StateConfig["kind"];

export const stateStoreKinds = Object.keys(storeFactories) as StateStoreKind[];

/**
 * The store a process uses: `HOOKWISE_STATE_URL` (a `redis://` or `rediss://` URL) when
 * set — every replica of a deployment then shares one Redis, whatever the config says
 * (its `prefix` and `session_ttl` are kept) — else the config's `runtime.state`, else
 * `fallback`.
 */
export function resolveStateConfig(
  configured: StateConfig | undefined,
  fallback: StateConfig,
  env: NodeJS.ProcessEnv = process.env,
): StateConfig {
  const url = env.HOOKWISE_STATE_URL?.trim();
  if (!url) return configured ?? fallback;
  if (!/^rediss?:\/\//.test(url)) {
    throw new StateStoreError({
      kind: "redis",
      message: `HOOKWISE_STATE_URL must be a redis:// or rediss:// URL (got ${redisStoreModule().redactRedisUrl(url)})`,
    });
  }
  const kept = configured?.kind === "redis" ? configured : undefined;
  return {
    kind: "redis",
    url,
    ...(kept?.prefix !== undefined ? { prefix: kept.prefix } : {}),
    ...(configured?.session_ttl !== undefined ? { session_ttl: configured.session_ttl } : {}),
  };
}

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
