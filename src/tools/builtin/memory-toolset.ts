/**
 * The builtin `memory` toolset (`{ kind: builtin, module: memory }`): a key-value store
 * per session, kept in the StateStore (so it persists wherever sessions do), plus a list
 * of free-form memories (`remember` / `get_memories`, the names manifests and hooks commonly use).
 * Each session's memory is one record; updates are serialised per record in this process.
 */
import { z } from "../../deps/zod.js";
import type { StateStore } from "../../state/state-store.js";
import { resolveTool } from "../resolved-tool.js";
import { type ToolExecutionOptions, tool } from "../tool.js";
import type { Toolset } from "../toolset.js";

interface MemoryRecord {
  values: Record<string, unknown>;
  memories: string[];
}

export interface MemoryToolsetOptions {
  store: StateStore;
  prefix?: boolean;
}

function memoryTools(name: string, store: StateStore) {
  const queues = new Map<string, Promise<unknown>>();
  const keyOf = (options: ToolExecutionOptions) => `memory:${name}:${options.context.sessionId}`;
  const read = async (key: string): Promise<MemoryRecord> =>
    (await store.get<MemoryRecord>(key)) ?? { values: {}, memories: [] };
  /** Read-modify-write of one session's record, one at a time per record. */
  const update = <T>(key: string, change: (record: MemoryRecord) => T): Promise<T> => {
    const run = (queues.get(key) ?? Promise.resolve()).then(async () => {
      const record = await read(key);
      const answer = change(record);
      await store.set(key, record);
      return answer;
    });
    const tail = run.catch(() => {});
    queues.set(key, tail);
    void tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return run;
  };

  return {
    set: tool({
      description: "Stores a value under a key for this session.",
      inputSchema: z.object({ key: z.string().min(1), value: z.unknown() }),
      execute: ({ key, value }, options) =>
        update(keyOf(options), (record) => {
          record.values[key] = value ?? null;
          return `stored ${key}`;
        }),
    }),
    get: tool({
      description: "Reads the value stored under a key in this session (null when absent).",
      inputSchema: z.object({ key: z.string().min(1) }),
      execute: async ({ key }, options) => {
        const record = await read(keyOf(options));
        return Object.hasOwn(record.values, key) ? record.values[key] : null;
      },
    }),
    delete: tool({
      description: "Forgets the value stored under a key in this session.",
      inputSchema: z.object({ key: z.string().min(1) }),
      execute: ({ key }, options) =>
        update(keyOf(options), (record) => {
          const had = Object.hasOwn(record.values, key);
          delete record.values[key];
          return had ? `deleted ${key}` : `no value under ${key}`;
        }),
    }),
    list: tool({
      description: "Lists every key and value stored in this session.",
      inputSchema: z.object({}),
      execute: async (_args, options) => (await read(keyOf(options))).values,
    }),
    remember: tool({
      description: "Adds a free-form memory to this session's memories.",
      inputSchema: z.object({ content: z.string().min(1) }),
      execute: ({ content }, options) =>
        update(keyOf(options), (record) => {
          record.memories.push(content);
          return `remembered (${record.memories.length} memories)`;
        }),
    }),
    get_memories: tool({
      description: "Returns this session's memories, oldest first.",
      inputSchema: z.object({}),
      execute: async (_args, options) => (await read(keyOf(options))).memories,
    }),
  };
}

export function memoryToolset(name: string, options: MemoryToolsetOptions): Toolset {
  return {
    name,
    tools: Object.entries(memoryTools(name, options.store)).map(([tool, definition]) =>
      resolveTool(tool, definition, { toolset: name, prefix: options.prefix ?? true }),
    ),
    close: async () => {},
  };
}
