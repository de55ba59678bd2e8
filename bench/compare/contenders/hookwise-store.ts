/**
 * hookwise `agent.run()` on the stores a deployed run uses, recorded or not: SQLite (a file
 * in a temp folder), Redis (a local redis-server started for the case), and a store of
 * one's own (a plain object delegating to a MemoryStore that keeps one-shot sessions, so it
 * is a shared store as far as hookwise knows: runs hold leases and are recorded by default).
 *
 * Each round starts on an empty store (`setup`: a new file, FLUSHDB, a new MemoryStore), so
 * what the runs wrote does not pile up over a case. Besides the counts every case checks,
 * each round checks the store: every run committed its session, and a recorded run left
 * exactly one record (an unrecorded one none).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResult, StateStore } from "../../../src/index.js";
import { startRedis } from "../../../test/support/redis-server.js";
import { hookwise } from "../../shared/hookwise.js";
import type { Contender, CreateContender } from "../contender.js";
import { BenchCheckError, INPUT } from "../script.js";
import { benchAgent } from "./hookwise-agent.js";

const RECORDS = "hookwise:runs:";

/** The store a case runs on: the one in use, a fresh one (`next`), and what the case closes. */
interface Backing {
  readonly label: string;
  readonly sharing?: "shared";
  current(): StateStore;
  /** Swaps in an empty store (between rounds, no run in flight). */
  next(): void;
  close(): Promise<void>;
}

/** Every method of `StateStore` that reads or writes. */
const METHODS = [
  "get",
  "set",
  "delete",
  "increment",
  "hit",
  "setIfAbsent",
  "lease",
  "releaseLease",
  "keys",
  "loadSession",
  "saveSession",
  "deleteSession",
] as const;

/**
 * Optional methods, forwarded when the backing's store has them (SQLite and Redis: one commit
 * for a session and its record; one step each to begin and to commit a session a run names).
 */
const OPTIONAL_METHODS = ["saveSessionWith", "beginSession", "commitSession"] as const;

/** A plain object delegating to the backing's current store: what the agent is given. */
function delegating(backing: Backing, kind: string): StateStore {
  const store: Record<string, unknown> = { kind, location: backing.label, close: async () => {} };
  for (const method of METHODS)
    store[method] = (...args: unknown[]) =>
      (backing.current()[method] as (...args: unknown[]) => unknown)(...args);
  for (const method of OPTIONAL_METHODS)
    if (typeof backing.current()[method] === "function")
      store[method] = (...args: unknown[]) =>
        (backing.current()[method] as (...args: unknown[]) => unknown)(...args);
  return store as unknown as StateStore;
}

function sqliteBacking(): Backing {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-compare-"));
  let round = 0;
  const open = () => new hookwise.SqliteStore({ path: join(dir, `state-${round++}.db`) });
  let store = open();
  return {
    label: "SQLite",
    current: () => store,
    next() {
      const old = store;
      store = open();
      void old.close();
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function redisBacking(): Promise<Backing> {
  const server = await startRedis();
  // The store's own connection, so that FLUSHDB goes down the same connection as its commands.
  const { Redis } = await import("ioredis");
  const client = new Redis(server.url);
  const store = new hookwise.RedisStore({ client: client as never });
  const stop = () => server.stop();
  process.once("exit", () => void stop());
  return {
    label: "Redis",
    current: () => store,
    next() {
      void client.call("FLUSHDB");
    },
    async close() {
      client.disconnect();
      await stop();
    },
  };
}

/** It keeps one-shot sessions, as a store of one's own that persists them would. */
function ownBacking(): Backing {
  const open = () => new hookwise.MemoryStore({ keepOneShot: true });
  let store = open();
  return {
    label: "a store of one's own",
    current: () => store,
    next() {
      store = open();
    },
    async close() {},
  };
}

const BACKINGS = { sqlite: sqliteBacking, redis: redisBacking, own: ownBacking };

/** `run()` on one kind of store, recorded or not. */
export function storeContender(kind: keyof typeof BACKINGS, recorded: boolean): CreateContender {
  return async (options): Promise<Contender> => {
    const backing = await BACKINGS[kind]();
    const label = `hookwise run() on ${backing.label}${recorded ? ", recorded" : ""}`;
    const agent = benchAgent(options, label, { store: delegating(backing, kind), recordRuns: recorded });
    let last: RunResult | undefined;
    let runs = 0;
    /** The round's store holds what its runs wrote: the last session, and one record per run when recorded. */
    const check = async () => {
      if (!last) return;
      const store = backing.current();
      const session = await store.loadSession(last.sessionId);
      if (session?.messages.length !== last.messages.length)
        throw new BenchCheckError(`${label}: the last run's session was not committed`);
      const records = (await store.keys(RECORDS)).length;
      if (records !== (recorded ? runs : 0))
        throw new BenchCheckError(`${label}: ${records} run records after ${runs} runs`);
    };
    return {
      async setup() {
        await check();
        backing.next();
        last = undefined;
        runs = 0;
      },
      async run() {
        const result = await agent.run(INPUT);
        if (result.outcome !== "completed") throw new BenchCheckError(`${label}: outcome ${result.outcome}`);
        last = result;
        runs++;
        return result.text;
      },
      async close() {
        await check();
        await backing.close();
      },
    };
  };
}
