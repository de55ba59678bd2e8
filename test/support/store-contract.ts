/**
 * The StateStore contract as one test suite: every store runs the same cases (memory,
 * SQLite, Redis — and a fourth one by calling `storeContract` with its harness). The
 * rules are those written on the StateStore interface: atomic in the store, expired means
 * absent, copies out, versioned sessions (compare-and-swap), leases.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionBusyError } from "../../src/errors/session-busy-error.js";
import type { ModelMessage } from "../../src/events/payloads.js";
import { createStore, type StateConfig } from "../../src/state/create-store.js";
import type { SessionRecord, StateStore } from "../../src/state/state-store.js";

export interface StoreHarness {
  /** A fresh, empty store; each case opens its own and the suite closes it. */
  open(options?: { sessionTtlMs?: number }): StateStore | Promise<StateStore>;
  /** Moves the store's clock on: an injected clock jumps, a real one (Redis) is waited out. */
  advance(ms: number): Promise<void>;
  /** A long time on this clock: years on an injected clock, what a test can wait on a real one. */
  readonly far: number;
  /**
   * For stores that processes share: the config a child process passes to `createStore` to
   * open the store `open` returned last. Undefined for a per-process store (memory).
   */
  shared?(): StateConfig;
  /**
   * Whether the store has `broadcast` and `listen` (default true). A store that says no is
   * checked not to have them half.
   */
  readonly broadcasts?: boolean;
}

/** Event times for `hit`: any epoch works, the window only compares them. */
const T0 = 1_700_000_000_000;

export function transcript(): ModelMessage[] {
  return [
    { role: "system", content: "You are a bank assistant." },
    {
      role: "user",
      content: [
        { type: "text", text: "Pay invoice 7, see the scan." },
        { type: "image", image: new Uint8Array([0, 1, 2, 250, 255]), mediaType: "image/png" },
        { type: "file", data: new URL("https://example.com/invoice-7.pdf"), mediaType: "application/pdf" },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Paying it." },
        {
          type: "tool-call",
          toolCallId: "call_1",
          toolName: "bank.pay",
          input: { amount: 5, to: "ACME", memo: null, tags: ["invoice", 7] },
        },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "bank.pay",
          output: { type: "json", value: { ok: true, receipt: { id: "r-1", cents: 500 } } },
        },
      ],
    },
    { role: "assistant", content: "Done: receipt r-1." },
  ];
}

const session = (id: string, version: number, messages: ModelMessage[] = transcript()): SessionRecord => ({
  id,
  messages,
  createdAt: T0,
  updatedAt: T0 + 5,
  version,
});

const workerPath = fileURLToPath(new URL("../fixtures/store-worker.ts", import.meta.url));
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

export function storeContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`${name} honours the StateStore contract`, () => {
    const harness = makeHarness();
    let store: StateStore;
    const opened: StateStore[] = [];
    const open = async (options?: { sessionTtlMs?: number }) => {
      const made = await harness.open(options);
      opened.push(made);
      return made;
    };

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      for (const made of opened.splice(0)) await made.close();
    });

    describe("values", () => {
      it("gets what was set, overwrites, deletes, and returns undefined for absent keys", async () => {
        expect(await store.get("missing")).toBeUndefined();
        await store.set("config", { retries: 3, names: ["a", "b"], nested: { on: true, off: null } });
        expect(await store.get("config")).toEqual({
          retries: 3,
          names: ["a", "b"],
          nested: { on: true, off: null },
        });
        await store.set("config", "replaced");
        expect(await store.get("config")).toBe("replaced");
        await store.delete("config");
        expect(await store.get("config")).toBeUndefined();
        await store.delete("never-set");
      });

      it("hands out copies: mutating a value read does not change the stored one", async () => {
        await store.set("list", [1, 2]);
        const read = await store.get<number[]>("list");
        read!.push(3);
        expect(await store.get("list")).toEqual([1, 2]);
      });

      it("round-trips bytes and URLs inside values", async () => {
        await store.set("part", {
          bytes: new Uint8Array([0, 255, 7]),
          at: new URL("https://example.com/a?b=1"),
        });
        const read = await store.get<{ bytes: Uint8Array; at: URL }>("part");
        expect(read!.bytes).toBeInstanceOf(Uint8Array);
        expect([...read!.bytes]).toEqual([0, 255, 7]);
        expect(read!.at).toBeInstanceOf(URL);
        expect(read!.at.href).toBe("https://example.com/a?b=1");
      });

      it("treats an expired key as absent, to get, setIfAbsent and increment alike", async () => {
        await store.set("cached", "v", { ttlMs: 300 });
        await harness.advance(100);
        expect(await store.get("cached")).toBe("v");
        await harness.advance(200);
        expect(await store.get("cached")).toBeUndefined();

        await store.set("approval", "first", { ttlMs: 300 });
        expect(await store.setIfAbsent("approval", "second")).toBe(false);
        await harness.advance(300);
        expect(await store.setIfAbsent("approval", "second")).toBe(true);
        expect(await store.get("approval")).toBe("second");

        await store.set("fires", 41, { ttlMs: 300 });
        expect(await store.increment("fires")).toBe(42);
        await harness.advance(300);
        expect(await store.increment("fires")).toBe(1);
        await harness.advance(harness.far);
        // The restarted counter has no expiry.
        expect(await store.get("fires")).toBe(1);
      });

      it("lists the live keys under a prefix, literally (no wildcards), without expired ones", async () => {
        await store.set("run:a:suspended", 1);
        await store.set("run:b:suspended", 2, { ttlMs: 300 });
        await store.set("run%x", 3);
        await store.set("run*y", 4);
        await store.set("runner", 5);
        await store.set("session:a", 6);
        expect((await store.keys("run:")).sort()).toEqual(["run:a:suspended", "run:b:suspended"]);
        expect(await store.keys("run%")).toEqual(["run%x"]);
        expect(await store.keys("run*")).toEqual(["run*y"]);
        expect(await store.keys("ru_")).toEqual([]);
        await harness.advance(300);
        expect(await store.keys("run:")).toEqual(["run:a:suspended"]);
        await store.delete("run:a:suspended");
        expect(await store.keys("run:")).toEqual([]);
        expect((await store.keys("")).sort()).toEqual(["run%x", "run*y", "runner", "session:a"]);
      });

      it("lists keys under a prefix that ends in any character, and none just past it", async () => {
        // Neighbours in the keys' order: each prefix's last character, and the one after it.
        const keys = [
          "p:é",
          "p:éa",
          "p:ê",
          "p:\u{10FFFD}",
          "p:\u{10FFFD}z",
          "p:\u{10FFFE}",
          "p:\uD7FFq",
          "p:\uE000",
        ];
        for (const key of keys) await store.set(key, 1);
        expect((await store.keys("p:é")).sort()).toEqual(["p:é", "p:éa"]);
        expect((await store.keys("p:\u{10FFFD}")).sort()).toEqual(["p:\u{10FFFD}", "p:\u{10FFFD}z"]);
        expect(await store.keys("p:\uD7FF")).toEqual(["p:\uD7FFq"]);
        expect(await store.keys("p:\u{10FFFF}")).toEqual([]);
        expect((await store.keys("p:")).length).toBe(keys.length);
      });

      it("keeps a key without ttl for as long as it is not deleted", async () => {
        await store.set("forever", 1);
        await harness.advance(harness.far);
        expect(await store.get("forever")).toBe(1);
      });

      it("setIfAbsent with a ttl sets a key that expires", async () => {
        expect(await store.setIfAbsent("cooldown", 1, { ttlMs: 300 })).toBe(true);
        expect(await store.setIfAbsent("cooldown", 2, { ttlMs: 300 })).toBe(false);
        await harness.advance(300);
        expect(await store.get("cooldown")).toBeUndefined();
        expect(await store.setIfAbsent("cooldown", 3, { ttlMs: 300 })).toBe(true);
      });
    });

    describe("counters and windows", () => {
      it("increments from absent, by any step, and keeps the result readable with get", async () => {
        expect(await store.increment("n")).toBe(1);
        expect(await store.increment("n", 5)).toBe(6);
        expect(await store.increment("n", -2)).toBe(4);
        expect(await store.increment("n", 0.5)).toBe(4.5);
        expect(await store.get("n")).toBe(4.5);
        expect(await store.increment("n", 0.5)).toBe(5);
        expect(await store.increment("n")).toBe(6);
        await store.set("text", "not a number");
        expect(await store.increment("text", 3)).toBe(3);
        await store.set("object", { count: 9 });
        expect(await store.increment("object")).toBe(1);
      });

      it("increment keeps a live key's expiry, counting on or starting again", async () => {
        await store.set("window", 10, { ttlMs: 300 });
        expect(await store.increment("window")).toBe(11);
        await store.set("note", "text", { ttlMs: 300 });
        expect(await store.increment("note", 2)).toBe(2);
        await harness.advance(300);
        expect(await store.get("window")).toBeUndefined();
        expect(await store.get("note")).toBeUndefined();
      });

      it("counts 1,000 concurrent increments exactly, each caller seeing a distinct value", async () => {
        const results = await Promise.all(Array.from({ length: 1_000 }, () => store.increment("count")));
        expect(await store.get("count")).toBe(1_000);
        expect(new Set(results).size).toBe(1_000);
        expect(Math.max(...results)).toBe(1_000);
      });

      it("hit() allows max events per sliding window and refuses the rest without recording them", async () => {
        const limit = { max: 3, windowMs: 1_000 };
        expect(await store.hit("tool", { ...limit, now: T0 })).toBe(true);
        expect(await store.hit("tool", { ...limit, now: T0 + 10 })).toBe(true);
        expect(await store.hit("tool", { ...limit, now: T0 + 20 })).toBe(true);
        expect(await store.hit("tool", { ...limit, now: T0 + 30 })).toBe(false);
        expect(await store.hit("tool", { ...limit, now: T0 + 999 })).toBe(false);
        expect(await store.hit("other", { ...limit, now: T0 + 999 })).toBe(true);
        // The first event leaves the window; the refused ones never entered it.
        expect(await store.hit("tool", { ...limit, now: T0 + 1_000 })).toBe(true);
        expect(await store.hit("tool", { ...limit, now: T0 + 1_005 })).toBe(false);
        expect(await store.hit("tool", { ...limit, now: T0 + 1_010 })).toBe(true);
      });

      it("hit() admits exactly max of many concurrent callers at the same instant", async () => {
        const results = await Promise.all(
          Array.from({ length: 200 }, () => store.hit("burst", { max: 7, windowMs: 60_000, now: T0 })),
        );
        expect(results.filter(Boolean)).toHaveLength(7);
      });

      it("delete() also clears a key's rate window", async () => {
        const limit = { max: 1, windowMs: 60_000, now: T0 };
        expect(await store.hit("k", limit)).toBe(true);
        expect(await store.hit("k", limit)).toBe(false);
        await store.delete("k");
        expect(await store.hit("k", limit)).toBe(true);
      });

      it("setIfAbsent() has exactly one winner among concurrent callers, and the winner's value stays", async () => {
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, index) => store.setIfAbsent("approval:call_1", { by: index })),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.get("approval:call_1")).toEqual({ by: results.indexOf(true) });
        expect(await store.setIfAbsent("approval:call_1", { by: -1 })).toBe(false);
      });
    });

    describe("leases", () => {
      it("a free lease is taken; another holder is refused; the holder renews it", async () => {
        expect(await store.lease("lease:s", "A", 300)).toBe(true);
        expect(await store.get("lease:s")).toBe("A");
        expect(await store.lease("lease:s", "B", 300)).toBe(false);
        await harness.advance(200);
        expect(await store.lease("lease:s", "A", 300)).toBe(true); // renewed: 300 from now
        await harness.advance(200);
        expect(await store.lease("lease:s", "B", 300)).toBe(false);
        expect(await store.get("lease:s")).toBe("A");
      });

      it("an expired lease is free for anyone", async () => {
        expect(await store.lease("lease:s", "A", 300)).toBe(true);
        await harness.advance(300);
        expect(await store.get("lease:s")).toBeUndefined();
        expect(await store.lease("lease:s", "B", 300)).toBe(true);
        expect(await store.get("lease:s")).toBe("B");
      });

      it("releaseLease frees only the holder's lease", async () => {
        expect(await store.lease("lease:s", "A", 60_000)).toBe(true);
        expect(await store.releaseLease("lease:s", "B")).toBe(false);
        expect(await store.get("lease:s")).toBe("A");
        expect(await store.releaseLease("lease:s", "A")).toBe(true);
        expect(await store.get("lease:s")).toBeUndefined();
        expect(await store.releaseLease("lease:s", "A")).toBe(false);
        expect(await store.lease("lease:s", "B", 60_000)).toBe(true);
      });

      it("replacing takes over exactly the holder named, and only once", async () => {
        expect(await store.lease("lease:s", "dead", 60_000)).toBe(true);
        expect(await store.lease("lease:s", "B", 60_000, { replacing: "someone else" })).toBe(false);
        const takeovers = await Promise.all(
          ["B", "C", "D", "E"].map((holder) => store.lease("lease:s", holder, 60_000, { replacing: "dead" })),
        );
        expect(takeovers.filter(Boolean)).toHaveLength(1);
        const winner = ["B", "C", "D", "E"][takeovers.indexOf(true)];
        expect(await store.get("lease:s")).toBe(winner);
      });

      it("exactly one of many concurrent takers gets a free lease", async () => {
        const holders = Array.from({ length: 50 }, (_, index) => `holder-${index}`);
        const results = await Promise.all(holders.map((holder) => store.lease("lease:hot", holder, 60_000)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.get("lease:hot")).toBe(holders[results.indexOf(true)]);
      });
    });

    describe("sessions", () => {
      it("round-trips a session with tool-call, tool-result, image and file parts, at version 1", async () => {
        expect(await store.loadSession("s1")).toBeUndefined();
        expect(await store.saveSession(session("s1", 0))).toBe(1);
        const loaded = await store.loadSession("s1");
        expect(loaded).toEqual(session("s1", 1));
        const image = (loaded!.messages[1]!.content as { image?: unknown }[])[1]!.image;
        expect(image).toBeInstanceOf(Uint8Array);
        const file = (loaded!.messages[1]!.content as { data?: unknown }[])[2]!.data;
        expect(file).toBeInstanceOf(URL);

        loaded!.messages.push({ role: "user", content: "not saved" });
        expect((await store.loadSession("s1"))!.messages).toHaveLength(5);

        const compacted: SessionRecord = {
          ...session("s1", 1, [{ role: "user", content: "Summary: paid invoice 7." }]),
          archived: transcript(),
          updatedAt: T0 + 60,
        };
        expect(await store.saveSession(compacted)).toBe(2);
        expect(await store.loadSession("s1")).toEqual({ ...compacted, version: 2 });
        // A later commit without archived messages drops them (the record is what is stored).
        expect(await store.saveSession({ ...session("s1", 2), archived: undefined, runs: 7 })).toBe(3);
        expect((await store.loadSession("s1"))!.archived).toBeUndefined();
        expect((await store.loadSession("s1"))!.runs).toBe(7);
        expect(await store.saveSession(session("s1", 3))).toBe(4);
        expect((await store.loadSession("s1"))!.runs).toBeUndefined();

        await store.deleteSession("s1");
        expect(await store.loadSession("s1")).toBeUndefined();
      });

      it("commits only on top of the version read: a stale commit writes nothing and says session busy", async () => {
        expect(await store.saveSession(session("s", 0, [{ role: "user", content: "first" }]))).toBe(1);
        // A second "new session" commit (another run also saw no session) is refused.
        const second = store.saveSession(session("s", 0, [{ role: "user", content: "second" }]));
        await expect(second).rejects.toThrow(SessionBusyError);
        await expect(second).rejects.toMatchObject({ reason: "changed", sessionId: "s" });
        await expect(second).rejects.toThrow(
          /session "s" is busy: another run committed to it after this one read it/,
        );

        const read = (await store.loadSession("s"))!;
        expect(
          await store.saveSession({ ...read, messages: [...read.messages, { role: "user", content: "A" }] }),
        ).toBe(2);
        // B read version 1 too, and commits after A.
        await expect(
          store.saveSession({ ...read, messages: [...read.messages, { role: "user", content: "B" }] }),
        ).rejects.toMatchObject({ name: "SessionBusyError", reason: "changed" });
        const stored = (await store.loadSession("s"))!;
        expect(stored.version).toBe(2);
        expect(stored.messages.map((message) => message.content)).toEqual(["first", "A"]);
        // From a version that was never stored: refused as well.
        await expect(store.saveSession({ ...stored, version: 7 })).rejects.toThrow(SessionBusyError);
      });

      it("of many concurrent commits on the same version, exactly one lands", async () => {
        expect(await store.saveSession(session("hot", 0, []))).toBe(1);
        const attempts = await Promise.allSettled(
          Array.from({ length: 20 }, (_, index) =>
            store.saveSession(session("hot", 1, [{ role: "user", content: `turn ${index}` }])),
          ),
        );
        const landed = attempts.filter((attempt) => attempt.status === "fulfilled");
        expect(landed).toHaveLength(1);
        for (const attempt of attempts)
          if (attempt.status === "rejected") expect(SessionBusyError.isInstance(attempt.reason)).toBe(true);
        const winner = attempts.findIndex((attempt) => attempt.status === "fulfilled");
        expect((await store.loadSession("hot"))!.messages).toEqual([
          { role: "user", content: `turn ${winner}` },
        ]);
      });

      it("a commit's ttlMs makes the session expire; each commit restarts it; an expired session is new again", async () => {
        expect(await store.saveSession(session("short", 0), { ttlMs: 300 })).toBe(1);
        await harness.advance(200);
        expect(await store.saveSession(session("short", 1), { ttlMs: 300 })).toBe(2);
        await harness.advance(200);
        expect((await store.loadSession("short"))?.version).toBe(2);
        await harness.advance(100);
        expect(await store.loadSession("short")).toBeUndefined();
        // Absent again: the next commit starts from version 0.
        await expect(store.saveSession(session("short", 2))).rejects.toThrow(SessionBusyError);
        expect(await store.saveSession(session("short", 0))).toBe(1);
        // Without a ttl (and no store default) it is kept.
        await harness.advance(harness.far);
        expect((await store.loadSession("short"))?.version).toBe(1);
      });

      it("saveSessionWith (where the store has it) commits the session and its values together, or nothing on a stale version", async () => {
        if (store.saveSessionWith === undefined) return;
        const record = { kind: "record", steps: [{ bytes: new Uint8Array([1, 2]) }] };
        expect(
          await store.saveSessionWith(session("w", 0, [{ role: "user", content: "first" }]), [
            { key: "w:record", value: record, ttlMs: 300 },
            { key: "w:kept", value: "kept" },
            { key: "w:gone", value: undefined },
          ]),
        ).toBe(1);
        expect(await store.get("w:record")).toEqual(record);
        expect(await store.get("w:kept")).toBe("kept");
        expect(await store.get("w:gone")).toBeUndefined();
        expect((await store.loadSession("w"))?.messages).toEqual([{ role: "user", content: "first" }]);
        // Written on top of version 0 again: refused, and none of its values is written.
        await expect(
          store.saveSessionWith(session("w", 0, [{ role: "user", content: "stale" }]), [
            { key: "w:stale", value: 1 },
            { key: "w:kept", value: "overwritten" },
          ]),
        ).rejects.toMatchObject({ name: "SessionBusyError", reason: "changed" });
        expect(await store.get("w:stale")).toBeUndefined();
        expect(await store.get("w:kept")).toBe("kept");
        expect((await store.loadSession("w"))?.version).toBe(1);
        // A value's ttlMs holds as `set`'s does.
        await harness.advance(300);
        expect(await store.get("w:record")).toBeUndefined();
        expect(await store.get("w:kept")).toBe("kept");
      });

      it("beginSession (where the store has it) takes the lease and reads the session in one step; refused, it reads nothing", async () => {
        if (store.beginSession === undefined) return;
        const a = { key: "b:lease", holder: "run-a" };
        const b = { key: "b:lease", holder: "run-b" };
        expect(await store.beginSession("b", a, 1_000)).toEqual({ session: undefined });
        expect(await store.get("b:lease")).toBe("run-a");
        expect(await store.saveSession(session("b", 0))).toBe(1);
        // Held by another: refused, nothing read, the lease untouched.
        expect(await store.beginSession("b", b, 1_000)).toBeUndefined();
        expect(await store.get("b:lease")).toBe("run-a");
        // Its holder takes it again (a renewal) and reads the session at its version.
        await harness.advance(600);
        const again = await store.beginSession("b", a, 1_000);
        expect(again?.session?.version).toBe(1);
        expect(again?.session?.messages).toEqual(transcript());
        // Renewed: still held 600 ms on; free once it expired.
        await harness.advance(600);
        expect(await store.lease("b:lease", "run-b", 1_000)).toBe(false);
        await harness.advance(400);
        expect((await store.beginSession("b", b, 1_000))?.session?.version).toBe(1);
        expect(await store.get("b:lease")).toBe("run-b");
      });

      it("commitSession (where the store has it) commits, writes and frees the lease in one step; stale, it writes nothing and keeps the lease", async () => {
        if (store.commitSession === undefined) return;
        const a = { key: "c:lease", holder: "run-a" };
        expect(await store.lease("c:lease", "run-a", 60_000)).toBe(true);
        expect(
          await store.commitSession(session("c", 0), [{ key: "c:record", value: { steps: 2 } }], a),
        ).toBe(1);
        expect(await store.get("c:lease")).toBeUndefined();
        expect(await store.get("c:record")).toEqual({ steps: 2 });
        expect((await store.loadSession("c"))?.version).toBe(1);
        // On a stale version: nothing written, the lease still held.
        expect(await store.lease("c:lease", "run-a", 60_000)).toBe(true);
        await expect(
          store.commitSession(session("c", 0, []), [{ key: "c:stale", value: 1 }], a),
        ).rejects.toMatchObject({ name: "SessionBusyError", reason: "changed" });
        expect(await store.get("c:lease")).toBe("run-a");
        expect(await store.get("c:stale")).toBeUndefined();
        expect((await store.loadSession("c"))?.messages).toEqual(transcript());
        // A lease another holder took meanwhile is not freed by this holder's commit.
        await store.releaseLease("c:lease", "run-a");
        expect(await store.lease("c:lease", "run-b", 60_000)).toBe(true);
        expect(await store.commitSession(session("c", 1), [], a, { ttlMs: 300 })).toBe(2);
        expect(await store.get("c:lease")).toBe("run-b");
        // The commit's options hold as saveSession's do.
        await harness.advance(300);
        expect(await store.loadSession("c")).toBeUndefined();
      });

      it("a store-level session TTL applies to commits that give none", async () => {
        const expiring = await open({ sessionTtlMs: 300 });
        expect(await expiring.saveSession(session("s", 0))).toBe(1);
        await harness.advance(200);
        expect((await expiring.loadSession("s"))?.version).toBe(1);
        await harness.advance(100);
        expect(await expiring.loadSession("s")).toBeUndefined();
      });
    });

    describe("broadcast and listen", () => {
      if (harness.broadcasts === false) {
        it("has neither (its messages stay in the process)", () => {
          expect(store.broadcast).toBeUndefined();
          expect(store.listen).toBeUndefined();
        });
        return;
      }
      const heard = (messages: string[], count: number) =>
        expect.poll(() => messages.length, { timeout: 5_000, interval: 10 }).toBe(count);

      it("delivers each message to every listener of its channel, the sender's included, in order", async () => {
        const first: string[] = [];
        const second: string[] = [];
        const other: string[] = [];
        const stops = [
          await store.listen!("feed", (message) => first.push(message)),
          await store.listen!("feed", (message) => second.push(message)),
          await store.listen!("elsewhere", (message) => other.push(message)),
        ];
        await store.broadcast!("feed", "one");
        await store.broadcast!("feed", '{"two":2}');
        await heard(first, 2);
        await heard(second, 2);
        expect(first).toEqual(["one", '{"two":2}']);
        expect(second).toEqual(first);
        expect(other).toEqual([]);
        for (const stop of stops) await stop();
      });

      it("a listener that stopped hears nothing more; the others still do", async () => {
        const kept: string[] = [];
        const stopped: string[] = [];
        const stopKept = await store.listen!("feed", (message) => kept.push(message));
        const stop = await store.listen!("feed", (message) => stopped.push(message));
        await store.broadcast!("feed", "before");
        await heard(stopped, 1);
        await stop();
        await store.broadcast!("feed", "after");
        await heard(kept, 2);
        expect(stopped).toEqual(["before"]);
        await stopKept();
      });

      if (harness.shared) {
        const spec = harness.shared;
        it("reaches another instance opened on the same store, both ways", async () => {
          const twin = createStore(spec());
          opened.push(twin);
          const here: string[] = [];
          const there: string[] = [];
          const stops = [
            await store.listen!("feed", (message) => here.push(message)),
            await twin.listen!("feed", (message) => there.push(message)),
          ];
          await twin.broadcast!("feed", "from the twin");
          await store.broadcast!("feed", "from here");
          await heard(here, 2);
          await heard(there, 2);
          expect(new Set(here)).toEqual(new Set(["from the twin", "from here"]));
          expect(new Set(there)).toEqual(new Set(here));
          for (const stop of stops) await stop();
        });
      }
    });

    if (harness.shared) {
      const spec = harness.shared;
      describe("across processes", () => {
        const children: ChildProcess[] = [];

        afterEach(async () => {
          for (const child of children.splice(0)) {
            if (child.exitCode === null && child.signalCode === null) {
              child.kill();
              await once(child, "exit");
            }
          }
        });

        it("counts, admits, elects and commits exactly across three processes sharing the store", async () => {
          const config = spec();
          const workers = [0, 1, 2].map(() => startWorker(children, config, 300));
          await Promise.all(workers.map((worker) => worker.ready));
          for (const worker of workers) worker.go();
          const results = await Promise.all(workers.map((worker) => worker.result));

          expect(await store.get("counter")).toBe(900);
          expect(results.reduce((sum, result) => sum + result.allowed, 0)).toBe(250);
          expect(results.reduce((sum, result) => sum + result.leases, 0)).toBe(1);
          expect(results.filter((result) => result.won)).toHaveLength(1);
          expect(await store.get("winner")).toBe(workers.find((_, index) => results[index]!.won)!.pid);
          // Every process appended turns on top of what it read; none was lost.
          const commits = results.reduce((sum, result) => sum + result.commits, 0);
          const stored = (await store.loadSession("shared"))!;
          expect(stored.version).toBe(commits);
          expect(stored.messages).toHaveLength(commits);
          expect(new Set(stored.messages.map((message) => message.content)).size).toBe(commits);
        });
      });
    }
  });
}

interface WorkerResult {
  allowed: number;
  won: boolean;
  leases: number;
  commits: number;
}

function startWorker(children: ChildProcess[], config: StateConfig, count: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", workerPath, JSON.stringify(config), String(count)],
    {
      cwd: projectRoot,
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = once(child, "close");
  const ready = lines.next().then((line) => {
    if (line.value !== "ready") throw new Error(`worker did not start: ${stderr}`);
  });
  const result = (async () => {
    const line = await lines.next();
    const [code] = await exited;
    if (code !== 0) throw new Error(`worker exited with ${code}: ${stderr}`);
    return JSON.parse(line.value as string) as WorkerResult;
  })();
  // A failed `ready` is reported by the test; `result` must not also go unhandled.
  result.catch(() => {});
  return { pid: child.pid, ready, result, go: () => child.stdin!.end("go\n") };
}
