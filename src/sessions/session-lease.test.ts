/**
 * Runs of one session take turns across agents and processes sharing a store, or fail as
 * busy — never a lost turn. Every case runs on both surfaces (run() and stream()).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { delay, runOn, SURFACES } from "../../test/support/surfaces.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { SessionNotKeptError } from "../errors/session-not-kept-error.js";
import {
  createAgent,
  defineHook,
  MemoryStore,
  policy,
  type RunResult,
  scriptedModel,
  tool,
} from "../index.js";
import { SqliteStore } from "../state/sqlite-store.js";
import type { StateStore } from "../state/state-store.js";
import { sessionLeaseKey } from "./session-lease.js";

const opened: { store: StateStore; dir?: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Two handles on one store, as two agents would hold it: the same memory store (runs take
 * turns in the process), or two connections to one SQLite file (as two processes would
 * open it: runs take turns through the session's lease in the file).
 */
const STORES = {
  memory: () => {
    const store = new MemoryStore();
    return [store, store] as const;
  },
  sqlite: () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-lease-"));
    const first = new SqliteStore({ path: join(dir, "state.db") });
    const second = new SqliteStore({ path: join(dir, "state.db") });
    opened.push({ store: second }, { store: first, dir });
    return [first, second] as const;
  },
};

/** A store other processes could share: runs hold the session's lease in it. */
const sharedStore = () => STORES.sqlite()[0];

/** A tool that records each amount it pays in `paid`. */
const payTool = (paid: number[]) =>
  tool({
    description: "pays",
    inputSchema: { type: "object", properties: { amount: { type: "number" } } },
    execute: ({ amount }: { amount: number }) => {
      paid.push(amount);
      return "paid";
    },
  });

const users = (result: RunResult) =>
  result.messages.filter((message) => message.role === "user").map((message) => message.content);

/** An agent that answers `text` after `ms`. */
function slowAgent(store: StateStore, text: string, ms: number, sessions = {}) {
  const model = scriptedModel([{ text, delayMs: ms }]);
  return { agent: createAgent({ model, store, sessions }), model };
}

/** A pid that no process has any more (a child that already exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

describe.each(SURFACES)("sessions on %s()", (surface) => {
  it.each(Object.keys(STORES) as (keyof typeof STORES)[])(
    "two agents on one %s store and session take turns: both turns are kept",
    async (kind) => {
      const [store, other] = STORES[kind]();
      // The first run holds the session far longer than the checks below take, even on a loaded machine.
      const first = slowAgent(store, "one", 600);
      const second = slowAgent(other, "two", 0);
      const runs = [runOn(surface, first.agent, "first", { sessionId: "s" })];
      await delay(10);
      runs.push(runOn(surface, second.agent, "second", { sessionId: "s" }));
      // The second agent's model is not asked while the first run has the session.
      await delay(30);
      expect(second.model.calls).toHaveLength(0);
      const [a, b] = await Promise.all(runs);
      expect(users(a!.result)).toEqual(["first"]);
      expect(users(b!.result)).toEqual(["first", "second"]);
      expect((await store.loadSession("s"))!.messages.map((message) => message.content)).toEqual([
        "first",
        [{ type: "text", text: "one" }],
        "second",
        [{ type: "text", text: "two" }],
      ]);
      expect((await store.loadSession("s"))!.version).toBe(2);
      // Released: nothing holds the session once both ended.
      expect(await store.get(sessionLeaseKey("s"))).toBeUndefined();
    },
  );

  it.each(Object.keys(STORES) as (keyof typeof STORES)[])(
    "on a %s store, a run that waited longer than sessions.waitMs fails as busy and does nothing",
    async (kind) => {
      const [store, other] = STORES[kind]();
      const first = slowAgent(store, "one", 200);
      const second = slowAgent(other, "two", 0, { waitMs: 50 });
      const running = runOn(surface, first.agent, "first", { sessionId: "s" });
      await delay(10);
      const refused = await runOn(surface, second.agent, "second", { sessionId: "s" }).catch(
        (error) => error,
      );
      expect(SessionBusyError.isInstance(refused)).toBe(true);
      expect(refused).toMatchObject({ reason: "busy", sessionId: "s" });
      expect(refused.message).toMatch(
        /^session "s" is busy: another run in this process has held it (since .*|for the \d+ ms this run waited)[.;] .*let runs wait longer \(runtime\.session_wait/,
      );
      expect(second.model.calls).toHaveLength(0);
      expect(users((await running).result)).toEqual(["first"]);
      expect(users({ messages: (await store.loadSession("s"))!.messages } as RunResult)).toEqual(["first"]);
    },
  );

  it("inside one agent the wait is bounded too", async () => {
    const model = scriptedModel([{ text: "one", delayMs: 200 }, { text: "two" }]);
    const agent = createAgent({ model, sessions: { waitMs: 40 } });
    const running = runOn(surface, agent, "first", { sessionId: "s" });
    const refused = await runOn(surface, agent, "second", { sessionId: "s" }).catch((error) => error);
    expect(refused).toMatchObject({ name: "SessionBusyError", reason: "busy" });
    expect(refused.message).toContain("another run in this process has held it for the");
    await running;
    // The refused run left the queue: the next one gets the session at once.
    const third = await runOn(surface, agent, "third", { sessionId: "s" });
    expect(users(third.result)).toEqual(["first", "third"]);
  });

  it("a long run keeps its lease by renewing it: a waiting run does not take over", async () => {
    const [store, other] = STORES.sqlite();
    const first = slowAgent(store, "one", 1_500, { leaseMs: 600 });
    const second = slowAgent(other, "two", 0, { leaseMs: 600 });
    const runs = [runOn(surface, first.agent, "first", { sessionId: "s" })];
    await delay(10);
    runs.push(runOn(surface, second.agent, "second", { sessionId: "s" }));
    const [, b] = await Promise.all(runs);
    expect(users(b!.result)).toEqual(["first", "second"]);
  });

  it("a session held by a dead process on this host is taken over at once", async () => {
    const store = sharedStore();
    const holder = JSON.stringify({ token: "t", pid: deadPid(), host: hostname(), since: 0 });
    await store.lease(sessionLeaseKey("s"), holder, 60_000);
    const { agent } = slowAgent(store, "ok", 0, { waitMs: 1_000 });
    const started = Date.now();
    const { result } = await runOn(surface, agent, "hello", { sessionId: "s" });
    expect(result.outcome).toBe("completed");
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("a session held from another host is waited out until its lease expires", async () => {
    const store = sharedStore();
    const holder = JSON.stringify({ token: "t", pid: 1, host: "elsewhere.example", since: 0 });
    await store.lease(sessionLeaseKey("s"), holder, 150);
    const { agent } = slowAgent(store, "ok", 0, { waitMs: 2_000 });
    const started = Date.now();
    const { result } = await runOn(surface, agent, "hello", { sessionId: "s" });
    expect(result.outcome).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);

    await store.lease(sessionLeaseKey("t"), holder, 60_000);
    const refused = await runOn(surface, slowAgent(store, "x", 0, { waitMs: 30 }).agent, "x", {
      sessionId: "t",
    }).catch((error) => error);
    expect(refused.message).toContain(
      'session "t" is busy: a run in pid 1 on elsewhere.example has held it since',
    );
  });

  it("a run whose session was committed by someone else meanwhile is refused at its commit, keeping theirs", async () => {
    const store = new MemoryStore();
    const intrude = tool({
      description: "simulates a process whose lease lapsed committing meanwhile",
      inputSchema: { type: "object", properties: {} },
      execute: async () => {
        const read = (await store.loadSession("s"))!;
        await store.saveSession({
          ...read,
          messages: [...read.messages, { role: "user", content: "theirs" }],
        });
        return "done";
      },
    });
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: "intrude", args: {} }] }, { text: "mine" }]),
      store,
      tools: { intrude },
    });
    await store.saveSession({ id: "s", messages: [], createdAt: 0, updatedAt: 0, version: 0 });
    const refused = await runOn(surface, agent, "hello", { sessionId: "s" }).catch((error) => error);
    expect(SessionBusyError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ reason: "changed", sessionId: "s" });
    expect(refused.message).toBe(
      'session "s" is busy: another run committed to it after this one read it (this run read version 1; it is at version 2), so this run\'s messages were not saved; run it again',
    );
    const stored = (await store.loadSession("s"))!;
    expect(stored.messages).toEqual([{ role: "user", content: "theirs" }]);
    expect(stored.version).toBe(2);
    expect(await store.get(sessionLeaseKey("s"))).toBeUndefined();
  });

  it("a run that would suspend but cannot commit its session leaves no suspended run behind", async () => {
    const store = new MemoryStore();
    const paid: number[] = [];
    const intrude = tool({
      description: "another writer commits to the session meanwhile",
      inputSchema: { type: "object", properties: {} },
      execute: async () => {
        const read = (await store.loadSession("s"))!;
        await store.saveSession({
          ...read,
          messages: [...read.messages, { role: "user", content: "theirs" }],
        });
        return "done";
      },
    });
    const pay = payTool(paid);
    const agent = createAgent({
      model: scriptedModel([
        { toolCalls: [{ name: "intrude", args: {} }] },
        { toolCalls: [{ name: "pay", args: { amount: 5 } }] },
      ]),
      store,
      tools: { intrude, pay },
      policies: [policy.askUser("pay")],
    });
    await store.saveSession({ id: "s", messages: [], createdAt: 0, updatedAt: 0, version: 0 });
    const refused = await runOn(surface, agent, "pay", { sessionId: "s" }).catch((error) => error);
    expect(refused).toMatchObject({ name: "SessionBusyError", reason: "changed" });
    // Nothing waits for approval: the session is not blocked by a run that never committed.
    expect(await store.get("session:s:suspended-run")).toBeUndefined();
    expect(paid).toEqual([]);
    expect((await store.loadSession("s"))!.messages).toEqual([{ role: "user", content: "theirs" }]);
  });

  it("the in-memory store keeps no session of a run given no sessionId, and refuses to continue one", async () => {
    const store = new MemoryStore();
    const ran: string[] = [];
    const act = tool({
      description: "acts",
      inputSchema: { type: "object", properties: { what: { type: "string" } } },
      execute: ({ what }: { what: string }) => {
        ran.push(what);
        return "done";
      },
    });
    const model = scriptedModel([{ text: "one" }, { toolCalls: [{ name: "act", args: { what: "x" } }] }]);
    const agent = createAgent({ model, store, tools: { act } });
    const first = (await runOn(surface, agent, "first")).result;
    // The transcript is in the result; nothing of it stays in the store.
    expect(users(first)).toEqual(["first"]);
    expect(store.size).toEqual({ values: 0, windows: 0, sessions: 0 });
    // Continuing it would start from an empty transcript: the run does nothing instead.
    const refused = await runOn(surface, agent, "second", { sessionId: first.sessionId }).catch(
      (error) => error,
    );
    expect(SessionNotKeptError.isInstance(refused)).toBe(true);
    expect(refused.message).toContain(`session "${first.sessionId}" was not kept`);
    expect(refused.message).toContain("keepOneShot");
    expect(ran).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it("a run given no sessionId that suspends keeps its session on the in-memory store, and its resume completes", async () => {
    const store = new MemoryStore();
    const paid: number[] = [];
    const pay = payTool(paid);
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ name: "pay", args: { amount: 5 } }] }, { text: "done" }]),
      store,
      tools: { pay },
      policies: [policy.askUser("pay")],
    });
    const suspended = (await runOn(surface, agent, "pay")).result;
    expect(suspended.outcome).toBe("suspended");
    expect((await store.loadSession(suspended.sessionId))!.messages[0]).toEqual({
      role: "user",
      content: "pay",
    });
    const decisions = [{ id: suspended.approvals![0]!.id, approved: true }];
    const resumed =
      surface === "run"
        ? await agent.resume(suspended.runId, decisions)
        : await (async () => {
            const live = agent.resumeStream(suspended.runId, decisions);
            for await (const _event of live);
            return live.result;
          })();
    expect(resumed.outcome).toBe("completed");
    expect(paid).toEqual([5]);
    // It waited for a person: kept for the one-shot time after its resume too.
    expect((await store.loadSession(suspended.sessionId))!.messages.at(-1)).toMatchObject({
      role: "assistant",
    });
  });

  it("a session not kept: continued with its transcript passed in, ended with endSession, its hooks' session scope dropped", async () => {
    const store = new MemoryStore();
    const ended: number[] = [];
    const model = scriptedModel([{ text: "one" }, { text: "two" }]);
    const agent = createAgent({
      model,
      store,
      hooks: [
        defineHook({
          name: "remember",
          on: "run_start",
          kind: "inspect",
          handler: (_event, context) => {
            context.scratch.session.set("seen", true);
          },
        }),
        defineHook({
          name: "ended",
          on: "session_end",
          kind: "inspect",
          handler: (_event, context) => {
            ended.push(context.messages.length);
          },
        }),
      ],
    });
    const first = (await runOn(surface, agent, "first")).result;
    expect(agent.runtime.sessionScratch.has(first.sessionId)).toBe(false);
    // A client that holds the transcript passes it back: nothing is lost, so no error.
    const second = (
      await runOn(surface, agent, "second", { sessionId: first.sessionId, messages: first.messages })
    ).result;
    expect(users(second)).toEqual(["first", "second"]);
    expect(JSON.stringify(model.calls[1]!.prompt)).toContain("one");
    // That run named its session: it is kept, and ends as any other.
    await agent.endSession(first.sessionId);
    const lone = (await runOn(surface, agent, "alone")).result;
    await agent.endSession(lone.sessionId);
    expect(ended).toEqual([4, 0]);
  });

  it("a store that keeps them (keepOneShot) keeps a run's given no sessionId for oneShotTtlMs, and leaves no run counter", async () => {
    let now = 1_000_000;
    const store = new MemoryStore({ now: () => now, keepOneShot: true });
    const model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }]);
    const agent = createAgent({ model, store, sessions: { oneShotTtlMs: 60_000 } });
    const first = (await runOn(surface, agent, "first")).result;
    expect(store.size.values).toBe(0);
    now += 59_000;
    // Continued within its lifetime: the transcript is there, and this is its turn 1.
    const turns: number[] = [];
    agent.use(
      defineHook({
        name: "turns",
        on: "run_start",
        kind: "inspect",
        handler: (_event, context) => {
          turns.push(context.turn);
        },
      }),
    );
    const second = (await runOn(surface, agent, "second", { sessionId: first.sessionId })).result;
    expect(users(second)).toEqual(["first", "second"]);
    expect(turns).toEqual([1]);

    const lone = (await runOn(surface, agent, "alone")).result;
    now += 60_000;
    expect(await store.loadSession(lone.sessionId)).toBeUndefined();
    // A session continued with an explicit id is kept like any other.
    expect(await store.loadSession(first.sessionId)).toBeDefined();
  });

  it("a run given no sessionId on a shared store takes no lease and reads no session; its commit still keeps it", async () => {
    const store = sharedStore();
    const calls: string[] = [];
    const watched = new Proxy(store, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(property));
          return value.apply(target, args);
        };
      },
    });
    const agent = createAgent({ model: scriptedModel([{ text: "one" }, { text: "two" }]), store: watched });
    const first = (await runOn(surface, agent, "first")).result;
    // The commit, with the run's record in it (runs on a shared store are recorded): one transaction.
    expect(calls).toEqual(["saveSessionWith"]);
    expect((await store.loadSession(first.sessionId))!.version).toBe(1);

    // Continued by its id, the run takes the session's lease and reads it as any other.
    calls.length = 0;
    const second = (await runOn(surface, agent, "second", { sessionId: first.sessionId })).result;
    expect(users(second)).toEqual(["first", "second"]);
    // One transaction takes the lease and reads the session, one commits the turn (the record
    // in it) and frees the lease; it asks whether the session waits on a suspended run (`get`).
    expect(calls).toEqual(["beginSession", "get", "commitSession"]);
    expect(await store.get(sessionLeaseKey(first.sessionId))).toBeUndefined();
    expect((await store.loadSession(first.sessionId))!.version).toBe(2);
  });

  it("a store of one's own without beginSession and commitSession: the lease, the read, the commit and the release, each on its own", async () => {
    const store = sharedStore();
    const calls: string[] = [];
    const own = new Proxy(store, {
      get(target, property) {
        if (property === "beginSession" || property === "commitSession") return undefined;
        const value = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(String(property));
          return value.apply(target, args);
        };
      },
    });
    const agent = createAgent({ model: scriptedModel([{ text: "one" }, { text: "two" }]), store: own });
    const first = (await runOn(surface, agent, "first", { sessionId: "own" })).result;
    const second = (await runOn(surface, agent, "second", { sessionId: "own" })).result;
    expect(users(first)).toEqual(["first"]);
    expect(users(second)).toEqual(["first", "second"]);
    expect(calls.slice(calls.indexOf("releaseLease") + 1)).toEqual([
      "lease",
      "loadSession",
      "get",
      "saveSessionWith",
      "releaseLease",
    ]);
    expect(await store.get(sessionLeaseKey("own"))).toBeUndefined();
    expect((await store.loadSession("own"))!.version).toBe(2);
  });

  it("a refused commit that would have freed the lease frees it all the same, and writes nothing", async () => {
    const store = sharedStore();
    const agent = createAgent({
      model: scriptedModel([{ text: "one" }, { text: "two" }]),
      store,
      hooks: [
        defineHook({
          name: "sneak in",
          on: "run_end",
          kind: "inspect",
          // Another writer commits the session while this run goes on (as a run whose lease
          // lapsed would): this run's commit is refused.
          handler: async (_event, context) => {
            const stored = await store.loadSession(context.sessionId);
            await store.saveSession(
              stored ?? { id: context.sessionId, messages: [], createdAt: 1, updatedAt: 1, version: 0 },
            );
          },
        }),
      ],
    });
    await expect(runOn(surface, agent, "first", { sessionId: "refused" })).rejects.toMatchObject({
      name: "SessionBusyError",
      reason: "changed",
    });
    expect(await store.get(sessionLeaseKey("refused"))).toBeUndefined();
    expect((await store.loadSession("refused"))!.messages).toEqual([]);
  });
});

describe("sessions options", () => {
  it("are checked at createAgent", () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model, sessions: { waitMs: -1 } })).toThrow(
      "createAgent: sessions.waitMs must be a number ≥ 0 (got -1)",
    );
    expect(() => createAgent({ model, sessions: { leaseMs: 0 } })).toThrow(
      "createAgent: sessions.leaseMs must be a number ≥ 1 (got 0)",
    );
  });
});
