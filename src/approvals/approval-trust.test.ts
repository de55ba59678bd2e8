/**
 * Approvals are trustworthy by construction: bound to a hash of the qualified
 * tool name and the effective arguments, expiring, signed when they travel (tokens), and
 * checked before anything runs. The approval channel is validated at construction.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  balanceCall,
  bankTools,
  type Ledger,
  newStore,
  payCall,
  teller,
} from "../../test/support/approval-fixture.js";
import { createAgent, policy, scriptedModel } from "../index.js";
import { bindingHash, createApprovalSigner, resolveApprovalSigner } from "./approval-signer.js";
import { canonicalJson } from "./canonical-json.js";
import { runKey, type SuspendedRunRecord } from "./suspended-run.js";

const KEY = "test-approval-key-0123456789abcdef";

// Tests set the key explicitly; one in the environment would sign what should be unsigned.
const inherited = process.env.HOOKWISE_APPROVAL_KEY;
beforeAll(() => {
  delete process.env.HOOKWISE_APPROVAL_KEY;
});
afterAll(() => {
  if (inherited !== undefined) process.env.HOOKWISE_APPROVAL_KEY = inherited;
});
const drainResult = async <T>(live: AsyncIterable<unknown> & { result: Promise<T> }): Promise<T> => {
  for await (const _event of live) {
    // read to the end
  }
  return live.result;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("binding", () => {
  test("canonical JSON ignores key order; the binding changes with any argument or the tool", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const signer = createApprovalSigner(Buffer.from(KEY));
    const five = bindingHash("bank.pay", { amount: 5, memo: "rent" }, signer);
    expect(bindingHash("bank.pay", { memo: "rent", amount: 5 }, signer)).toBe(five);
    expect(bindingHash("bank.pay", { amount: 500, memo: "rent" }, signer)).not.toBe(five);
    expect(bindingHash("bank.refund", { amount: 5, memo: "rent" }, signer)).not.toBe(five);
    expect(five.startsWith("hmac-sha256:")).toBe(true);
    expect(bindingHash("bank.pay", { amount: 5 }, undefined).startsWith("sha256:")).toBe(true);
  });

  test("an approval for pay {amount: 5} cannot authorise pay {amount: 500}", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const approvals = { key: KEY };
    const small = (
      await teller(ledger, store, [{ toolCalls: [payCall(5)] }], { approvals }).agent.run("pay 5")
    ).approvals![0]!;
    const bigRun = await teller(ledger, store, [{ toolCalls: [payCall(500)] }], { approvals }).agent.run(
      "pay 500",
    );
    const big = bigRun.approvals![0]!;
    const resumer = teller(ledger, store, [{ text: "done" }], { approvals });

    // The 5's token presented for the 500's run: refused, nothing runs.
    await expect(
      resumer.agent.resume(bigRun.runId, [{ token: small.token!, approved: true }]),
    ).rejects.toMatchObject({ name: "ApprovalError", reason: "binding" });

    // Someone who can edit the store (but lacks the key) changes the saved call: refused.
    const saved = (await store.get<SuspendedRunRecord>(runKey(bigRun.runId)))!;
    const entry = saved.pending.entries[0] as { args: unknown };
    entry.args = { amount: 50_000 };
    await store.set(runKey(bigRun.runId), saved);
    await expect(resumer.agent.resume(bigRun.runId, [{ id: big.id, approved: true }])).rejects.toMatchObject({
      reason: "binding",
    });
    await expect(
      resumer.agent.resume(bigRun.runId, [{ token: big.token!, approved: true }]),
    ).rejects.toMatchObject({ reason: "binding" });
    expect(ledger.ran).toEqual([]);
    expect(resumer.model.calls).toHaveLength(0);
  });
});

describe("a store edit cannot turn a pending call into another", () => {
  test("an approved call whose saved function name now names another tool does not run it", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const approvals = { key: KEY };
    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }], { approvals }).agent.run(
      "pay 5",
    );
    // Only the function name changes: the binding (qualified name, arguments) still holds.
    const saved = (await store.get<SuspendedRunRecord>(runKey(suspended.runId)))!;
    (saved.pending.entries[0] as { toolName: string }).toolName = "bank_balance";
    await store.set(runKey(suspended.runId), saved);

    const resumed = await teller(ledger, store, [{ text: "done" }], { approvals }).agent.resume(
      suspended.runId,
      [{ token: suspended.approvals![0]!.token!, approved: true }],
    );
    expect(ledger.ran).toEqual([]);
    const [result] = resumed.steps[0]!.toolResults;
    expect(result).toMatchObject({ isError: true, qualifiedName: "bank.pay" });
    expect(String(result!.result)).toContain("not run");
  });

  test("a deferred call is bound too: another tool or other arguments are refused, nothing runs", async () => {
    const approvals = { key: KEY };
    for (const edit of [
      (entry: { args: unknown }) => {
        entry.args = { account: "someone else's" };
      },
      (entry: { toolName: string; qualifiedName: string; args: unknown }) => {
        entry.toolName = "bank_pay";
        entry.qualifiedName = "bank.pay";
        entry.args = { amount: 50_000 };
      },
      (entry: { binding?: string }) => {
        delete entry.binding;
      },
    ]) {
      const ledger: Ledger = { ran: [] };
      const store = newStore();
      const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5), balanceCall()] }], {
        approvals,
      }).agent.run("pay 5, then the balance");
      expect(suspended.outcome).toBe("suspended");
      const saved = (await store.get<SuspendedRunRecord>(runKey(suspended.runId)))!;
      const deferred = saved.pending.entries[1] as never;
      expect(deferred).toMatchObject({ kind: "pending", qualifiedName: "bank.balance" });
      edit(deferred);
      await store.set(runKey(suspended.runId), saved);

      const resumer = teller(ledger, store, [{ text: "done" }], { approvals });
      await expect(
        resumer.agent.resume(suspended.runId, [{ token: suspended.approvals![0]!.token!, approved: true }]),
      ).rejects.toMatchObject({ name: "ApprovalError", reason: "binding" });
      expect(ledger.ran).toEqual([]);
      expect(resumer.model.calls).toHaveLength(0);
    }
  });

  test("an unedited deferred call runs after the approval, on both surfaces", async () => {
    for (const surface of ["run", "stream"] as const) {
      const ledger: Ledger = { ran: [] };
      const store = newStore();
      const approvals = { key: KEY };
      const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5), balanceCall()] }], {
        approvals,
      }).agent.run("pay 5, then the balance");
      const resumer = teller(ledger, store, [{ text: "done" }], { approvals });
      const decisions = [{ token: suspended.approvals![0]!.token!, approved: true }];
      const resumed =
        surface === "run"
          ? await resumer.agent.resume(suspended.runId, decisions)
          : await drainResult(resumer.agent.resumeStream(suspended.runId, decisions));
      expect(resumed.outcome).toBe("completed");
      expect(ledger.ran).toEqual(["pay 5", "balance"]);
    }
  });
});

describe("decisions", () => {
  test('only true approves and only false denies: "false" is refused, nothing runs, the run stays resumable', async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent.run("pay 5");
    const id = suspended.approvals![0]!.id;
    const resumer = teller(ledger, store, [{ text: "done" }]);
    for (const approved of ["false", "no", 1, null, undefined] as unknown as boolean[]) {
      await expect(resumer.agent.resume(suspended.runId, [{ id, approved }])).rejects.toMatchObject({
        name: "ApprovalError",
        reason: "invalid",
        message: expect.stringContaining("must be true or false"),
      });
    }
    expect(ledger.ran).toEqual([]);
    const denied = await resumer.agent.resume(suspended.runId, [{ id, approved: false }]);
    expect(denied.outcome).toBe("completed");
    expect(ledger.ran).toEqual([]);
  });
});

describe("tokens", () => {
  test("issued only with a key; a token approves exactly its call, once", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const unsigned = await teller(ledger, newStore(), [{ toolCalls: [payCall(5)] }]).agent.run("pay");
    expect(unsigned.approvals![0]!.token).toBeUndefined();

    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }], {
      approvals: { key: KEY },
    }).agent.run("pay");
    const token = suspended.approvals![0]!.token!;
    expect(token).toMatch(/^hwa1\./);
    const resumer = teller(ledger, store, [{ text: "done" }], { approvals: { key: KEY } });
    expect((await resumer.agent.resume(suspended.runId, [{ token, approved: true }])).outcome).toBe(
      "completed",
    );
    expect(ledger.ran).toEqual(["pay 5"]);
    // Replayed: the run moved on, the token is spent.
    await expect(resumer.agent.resume(suspended.runId, [{ token, approved: true }])).rejects.toMatchObject({
      reason: "not_suspended",
    });
    expect(ledger.ran).toEqual(["pay 5"]);
  });

  test("a forged token is refused: altered claims, another key, or no key to check it", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }], {
      approvals: { key: KEY },
    }).agent.run("pay");
    const token = suspended.approvals![0]!.token!;
    const [prefix, claims, mac] = token.split(".");
    const altered = JSON.parse(Buffer.from(claims!, "base64url").toString());
    altered.binding = bindingHash("bank.pay", { amount: 5000 }, undefined);
    const tampered = `${prefix}.${Buffer.from(JSON.stringify(altered)).toString("base64url")}.${mac}`;
    const otherKey = createApprovalSigner(Buffer.from("another-key-another-key-another!")).sign(
      JSON.parse(Buffer.from(claims!, "base64url").toString()),
    );

    const resumer = teller(ledger, store, [{ text: "done" }], { approvals: { key: KEY } });
    for (const forged of [tampered, otherKey, `${prefix}.${claims}`, "hwa1.garbage.garbage"]) {
      await expect(
        resumer.agent.resume(suspended.runId, [{ token: forged, approved: true }]),
      ).rejects.toMatchObject({
        name: "ApprovalError",
        reason: "forged",
      });
    }
    const unkeyed = teller(ledger, store, [{ text: "done" }]);
    await expect(unkeyed.agent.resume(suspended.runId, [{ token, approved: true }])).rejects.toMatchObject({
      reason: "no_key",
    });
    // An id approval of a keyed binding also needs the key.
    await expect(
      unkeyed.agent.resume(suspended.runId, [{ id: suspended.approvals![0]!.id, approved: true }]),
    ).rejects.toMatchObject({ reason: "no_key" });
    expect(ledger.ran).toEqual([]);
    // Still resumable with the genuine token.
    expect((await resumer.agent.resume(suspended.runId, [{ token, approved: true }])).outcome).toBe(
      "completed",
    );
    expect(ledger.ran).toEqual(["pay 5"]);
  });

  test("the key is read from HOOKWISE_APPROVAL_KEY, never appears in results or the store", async () => {
    process.env.HOOKWISE_APPROVAL_KEY = KEY;
    try {
      const ledger: Ledger = { ran: [] };
      const store = newStore();
      const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent.run("pay");
      expect(suspended.approvals![0]!.token).toMatch(/^hwa1\./);
      const saved = await store.get(runKey(suspended.runId));
      const resumed = await teller(ledger, store, [{ text: "done" }]).agent.resume(suspended.runId, [
        { id: suspended.approvals![0]!.id, approved: true },
      ]);
      for (const seen of [suspended, saved, resumed]) expect(JSON.stringify(seen)).not.toContain(KEY);
    } finally {
      delete process.env.HOOKWISE_APPROVAL_KEY;
    }
  });
});

describe("expiry", () => {
  test("an expired approval can be denied, not approved; a refused approve runs nothing", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const approvals = { ttlMs: 30, key: KEY };
    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }], { approvals }).agent.run(
      "pay",
    );
    const approval = suspended.approvals![0]!;
    expect(Date.parse(approval.expiresAt) - Date.now()).toBeLessThanOrEqual(30);
    await sleep(60);
    const resumer = teller(ledger, store, [{ text: "not paid" }], { approvals });
    await expect(
      resumer.agent.resume(suspended.runId, [{ id: approval.id, approved: true }]),
    ).rejects.toMatchObject({
      reason: "expired",
    });
    await expect(
      resumer.agent.resume(suspended.runId, [{ token: approval.token!, approved: true }]),
    ).rejects.toMatchObject({ reason: "expired" });
    expect(ledger.ran).toEqual([]);
    const denied = await resumer.agent.resume(suspended.runId, [
      { id: approval.id, approved: false, reason: "late" },
    ]);
    expect(denied.outcome).toBe("completed");
    expect(ledger.ran).toEqual([]);
  });
});

describe("expiry is covered by the key", () => {
  test("moving the stored expiresAt of an expired approval does not revive it; nothing runs", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const approvals = { ttlMs: 30, key: KEY };
    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }], { approvals }).agent.run(
      "pay",
    );
    await sleep(60);
    const saved = (await store.get<SuspendedRunRecord>(runKey(suspended.runId)))!;
    const entry = saved.pending.entries.find((item) => item.kind === "pending" && item.approval)!;
    if (entry.kind !== "pending") throw new Error("unreachable");
    entry.approval!.expiresAt = Date.now() + 60 * 60 * 1000;
    await store.set(runKey(suspended.runId), saved);
    const resumer = teller(ledger, store, [{ text: "paid" }], { approvals });
    await expect(
      resumer.agent.resume(suspended.runId, [{ id: suspended.approvals![0]!.id, approved: true }]),
    ).rejects.toMatchObject({ name: "ApprovalError", reason: "binding" });
    expect(ledger.ran).toEqual([]);
  });

  test("the keyed binding changes with the expiry; the unkeyed one cannot hold it", () => {
    const signer = createApprovalSigner(Buffer.from(KEY));
    const at = bindingHash("bank.pay", { amount: 5 }, signer, 1000);
    expect(bindingHash("bank.pay", { amount: 5 }, signer, 1000)).toBe(at);
    expect(bindingHash("bank.pay", { amount: 5 }, signer, 1001)).not.toBe(at);
  });
});

describe("the approval channel is checked at construction", () => {
  const model = scriptedModel([]);
  test("handlers must be functions; ttl positive; a key of at least 16 bytes, never echoed", () => {
    expect(() => createAgent({ model, approvals: { handler: "yes" as never } })).toThrow(
      /approvals\.handler must be a function/,
    );
    expect(() => createAgent({ model, policies: [policy.askUser("x", { handler: 1 as never })] })).toThrow(
      /policy ask_user "x": handler must be a function/,
    );
    expect(() => createAgent({ model, approvals: { ttlMs: 0 } })).toThrow(/ttlMs must be a positive number/);
    let message = "";
    try {
      createAgent({ model, approvals: { key: "s3cr3t-short" } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("too short");
    expect(message).not.toContain("s3cr3t");
    // A HookwiseError: the CLI prints its one line (exit 1), never "internal error" and a stack.
    expect(() => resolveApprovalSigner(undefined, { HOOKWISE_APPROVAL_KEY: "tiny" })).toThrow(
      expect.objectContaining({ name: "HookwiseError" }),
    );
    expect(() => resolveApprovalSigner(undefined, { HOOKWISE_APPROVAL_KEY: "tiny" })).toThrow(
      /HOOKWISE_APPROVAL_KEY is too short/,
    );
  });

  test("ask_user without a reachable channel is an error only when the agent cannot suspend", () => {
    const tools = bankTools({ ran: [] });
    expect(() => createAgent({ model, tools, policies: [policy.askUser("bank.pay")] })).not.toThrow();
    expect(() =>
      createAgent({ model, tools, policies: [policy.askUser("bank.pay")], approvals: { suspend: false } }),
    ).toThrow(/policy ask_user "bank.pay" has no reachable approval channel/);
    expect(() =>
      createAgent({
        model,
        tools,
        policies: [policy.askUser("bank.pay")],
        approvals: { suspend: false, handler: () => true },
      }),
    ).not.toThrow();
  });

  test("a balance read needs no approval: the fixture's policy only asks for pay", async () => {
    const ledger: Ledger = { ran: [] };
    const result = await teller(ledger, newStore(), [
      { toolCalls: [balanceCall()] },
      { text: "100" },
    ]).agent.run("balance?");
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["balance"]);
  });
});
