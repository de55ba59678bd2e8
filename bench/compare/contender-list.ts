/**
 * The contenders a case may name, each loaded (`import()`) only by the processes that
 * measure it. Contenders import only contender.ts (the types) and shared helpers, never
 * this list: adding one is a module under contenders/ and one entry here.
 */
import type { ContenderEntry } from "./contender.js";

/** The contenders, in table order; `generateText` is the second ratio's reference. */
export const CONTENDERS = {
  plain: { heading: ["plain", "loop"], load: () => import("./contenders/plain.js") },
  hookwiseRun: { heading: ["hookwise", "run()"], load: () => import("./contenders/hookwise-run.js") },
  hookwiseStream: {
    heading: ["hookwise", "stream()"],
    load: () => import("./contenders/hookwise-stream.js"),
  },
  generateText: { heading: ["AI SDK", "generateText"], load: () => import("./contenders/generate-text.js") },
  streamText: { heading: ["AI SDK", "streamText"], load: () => import("./contenders/stream-text.js") },
  openaiAgents: { heading: ["OpenAI", "Agents"], load: () => import("./contenders/openai-agents.js") },
  langchain: { heading: ["LangChain", "createAgent"], load: () => import("./contenders/langchain.js") },
} satisfies Record<string, ContenderEntry>;

/**
 * hookwise `run()` on the stores a deployed run uses, each timed in turns with its
 * `reference` in one process (`versus` cases): a store against the in-memory run, a
 * recorded run against the unrecorded one on the same store. The floors are the in-memory
 * run plus the one commit of its session by the store's own driver, nothing of hookwise's
 * in between: what a store's row costs over its floor is hookwise's own.
 */
export const STORE_CONTENDERS = {
  sqliteFloor: {
    heading: ["SQLite floor", "a raw commit"],
    load: () => import("./contenders/sqlite-floor.js"),
    reference: "hookwiseRun",
  },
  hookwiseSqlite: {
    heading: ["SQLite", "not recorded"],
    load: () => import("./contenders/hookwise-sqlite.js"),
    reference: "hookwiseRun",
  },
  sqliteFloorRecorded: {
    heading: ["SQLite floor", "with its record"],
    load: () => import("./contenders/sqlite-floor-recorded.js"),
    reference: "sqliteFloor",
  },
  hookwiseSqliteRecorded: {
    heading: ["SQLite", "recorded"],
    load: () => import("./contenders/hookwise-sqlite-recorded.js"),
    reference: "hookwiseSqlite",
  },
  redisFloor: {
    heading: ["Redis floor", "a raw SET"],
    load: () => import("./contenders/redis-floor.js"),
    reference: "hookwiseRun",
  },
  hookwiseRedis: {
    heading: ["Redis", "not recorded"],
    load: () => import("./contenders/hookwise-redis.js"),
    reference: "hookwiseRun",
  },
  redisFloorRecorded: {
    heading: ["Redis floor", "with its record"],
    load: () => import("./contenders/redis-floor-recorded.js"),
    reference: "redisFloor",
  },
  hookwiseRedisRecorded: {
    heading: ["Redis", "recorded"],
    load: () => import("./contenders/hookwise-redis-recorded.js"),
    reference: "hookwiseRedis",
  },
  hookwiseOwnStore: {
    heading: ["own store", "not recorded"],
    load: () => import("./contenders/hookwise-own-store.js"),
    reference: "hookwiseRun",
  },
  hookwiseOwnStoreRecorded: {
    heading: ["own store", "recorded"],
    load: () => import("./contenders/hookwise-own-store-recorded.js"),
    reference: "hookwiseOwnStore",
  },
} satisfies Record<string, ContenderEntry>;
export type StoreContenderName = keyof typeof STORE_CONTENDERS;
export const STORE_CONTENDER_NAMES = Object.keys(STORE_CONTENDERS) as StoreContenderName[];

/** Contenders bench/scale measures besides the table's. */
export const EXTRA_CONTENDERS = {
  plainStream: {
    heading: ["plain loop", "over doStream"],
    load: () => import("./contenders/plain-stream.js"),
  },
  hookwiseStreamQuiet: {
    heading: ["hookwise", "stream(), hookEvents: false"],
    load: () => import("./contenders/hookwise-stream-quiet.js"),
  },
  ...STORE_CONTENDERS,
} satisfies Record<string, ContenderEntry>;

/** The table's contenders. */
export type ContenderName = keyof typeof CONTENDERS;
export const CONTENDER_NAMES = Object.keys(CONTENDERS) as ContenderName[];

/** Every contender a case may name. */
export const ANY_CONTENDERS: Record<AnyContenderName, ContenderEntry> = {
  ...CONTENDERS,
  ...EXTRA_CONTENDERS,
};
export type AnyContenderName = ContenderName | keyof typeof EXTRA_CONTENDERS;
export const ANY_CONTENDER_NAMES = Object.keys(ANY_CONTENDERS) as AnyContenderName[];
