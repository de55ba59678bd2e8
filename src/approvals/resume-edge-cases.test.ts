/**
 * Resume edge cases a planted one-line bug once slipped through: partial decisions over
 * batches with settled and deferred calls, a stored argument changed after a partial
 * resume, an approval decided exactly at its expiry, and exactly-once over a body that threw.
 */
import { hostname } from "node:os";
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  balanceCall,
  type Ledger,
  newStore,
  payCall,
  resumeVia,
  runVia,
  teller,
  toolResultTexts,
} from "../../test/support/approval-fixture.js";
import type { SurfaceName } from "../../test/support/engine-harness.js";
import { exactlyOnce } from "./exactly-once.js";
import { runKey, type SuspendedRunRecord } from "./suspended-run.js";

const SURFACES: SurfaceName[] = ["run", "stream"];

afterEach(() => {
  vi.useRealTimers();
});

describe.each(SURFACES)("partial resumes on %s()", (surface) => {
  test("a settled plain call and two approvals, only the later decided: suspends again, nothing re-runs", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const first = teller(ledger, store, [{ toolCalls: [balanceCall("b1"), payCall(5), payCall(7)] }]);
    const suspended = (await runVia(surface, first.agent, "pay")).result;
    expect(ledger.ran).toEqual(["balance"]);
    const [five, seven] = suspended.approvals!;

    const second = teller(ledger, store, [{ text: "never" }]);
    const partial = (
      await resumeVia(surface, second.agent, suspended.runId, [{ id: seven!.id, approved: true }])
    ).result;
    expect(partial.outcome).toBe("suspended");
    expect(partial.approvals!.map((approval) => approval.id)).toEqual([five!.id]);
    expect(ledger.ran).toEqual(["balance"]);
    expect(second.model.calls).toHaveLength(0);

    const third = teller(ledger, store, [{ text: "done" }]);
    const { result } = await resumeVia(surface, third.agent, suspended.runId, [
      { id: five!.id, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["balance", "pay 5", "pay 7"]);
    expect(toolResultTexts(result.messages)).toEqual(['{"balance":100}', "paid 5", "paid 7"]);
  });

  test("[ask A, ask B, plain C], only B decided: C has not run and still waits behind A", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const first = teller(ledger, store, [{ toolCalls: [payCall(5), payCall(7), balanceCall("c")] }]);
    const suspended = (await runVia(surface, first.agent, "pay")).result;
    expect(ledger.ran).toEqual([]);
    const [a, b] = suspended.approvals!;

    const second = teller(ledger, store, [{ text: "never" }]);
    const partial = (await resumeVia(surface, second.agent, suspended.runId, [{ id: b!.id, approved: true }]))
      .result;
    expect(partial.outcome).toBe("suspended");
    expect(partial.approvals!.map((approval) => approval.id)).toEqual([a!.id]);
    expect(ledger.ran).toEqual([]);

    const third = teller(ledger, store, [{ text: "done" }]);
    const { result } = await resumeVia(surface, third.agent, suspended.runId, [
      { id: a!.id, approved: false },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["pay 7", "balance"]);
  });

  test("stored arguments of an approved-but-waiting call changed: the next resume refuses (binding), nothing runs", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5), payCall(7)] }]).agent, "pay")
    ).result;
    const [five, seven] = suspended.approvals!;
    await resumeVia(surface, teller(ledger, store, []).agent, suspended.runId, [
      { id: seven!.id, approved: true },
    ]);

    const record = (await store.get<SuspendedRunRecord>(runKey(suspended.runId)))!;
    const waiting = record.pending.entries.find(
      (entry) => entry.kind === "pending" && entry.toolCallId === "pay7",
    ) as { args: unknown };
    waiting.args = { amount: 700 };
    await store.set(runKey(suspended.runId), record);

    const third = teller(ledger, store, [{ text: "never" }]);
    await expect(
      third.agent.resume(suspended.runId, [{ id: five!.id, approved: true }]),
    ).rejects.toMatchObject({
      reason: "binding",
    });
    expect(ledger.ran).toEqual([]);
    expect(third.model.calls).toHaveLength(0);
  });

  test("an approval decided exactly at expiresAt is expired (controlled clock)", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent, "pay")
    ).result;
    const approval = suspended.approvals![0]!;
    vi.useFakeTimers({ toFake: ["Date"] });
    const resumer = teller(ledger, store, [{ text: "never" }]);
    vi.setSystemTime(Date.parse(approval.expiresAt));
    await expect(
      resumer.agent.resume(suspended.runId, [{ id: approval.id, approved: true }]),
    ).rejects.toMatchObject({
      reason: "expired",
    });
    expect(ledger.ran).toEqual([]);
    // One millisecond earlier it is still valid.
    vi.setSystemTime(Date.parse(approval.expiresAt) - 1);
    const { result } = await resumeVia(surface, resumer.agent, suspended.runId, [
      { id: approval.id, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["pay 5"]);
  });

  test("a resume killed after the tool threw: the model sees the tool's error, not 'outcome unknown'", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent, "pay")
    ).result;
    const record = (await store.get<SuspendedRunRecord>(runKey(suspended.runId)))!;
    const approvalId = suspended.approvals![0]!.id;
    // What a process killed after the body threw leaves: its claim, the intent, the recorded error.
    const at = Date.now();
    await store.set(`run:${record.runId}:claim:${record.token}`, {
      token: "crashed",
      pid: 2 ** 22 + 12_345,
      host: hostname(),
      at,
    });
    await store.set(`approval:${approvalId}:intent`, {
      at,
      pid: 2 ** 22 + 12_345,
      host: hostname(),
      label: "tool",
    });
    await store.set(`approval:${approvalId}:result`, {
      ok: false,
      message: "card declined",
      name: "PaymentError",
    });

    const again = teller(ledger, store, [{ text: "The card was declined." }]);
    const { result } = await resumeVia(surface, again.agent, suspended.runId, [
      { id: approvalId, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual([]);
    const [seen] = toolResultTexts(again.model.calls[0]!.prompt);
    expect(seen).toContain("card declined");
    expect(seen).not.toContain("outcome unknown");
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true, replayed: true });
  });
});

describe("exactlyOnce over a body that threw", () => {
  test("a second guard on the key rethrows the recorded error (same name and message); the body runs once", async () => {
    const store = newStore();
    let runs = 0;
    class PaymentError extends Error {
      override name = "PaymentError";
    }
    const body = () => {
      runs++;
      throw new PaymentError("card declined");
    };
    await expect(exactlyOnce(store, "approval:x", "pay").run(body)).rejects.toThrow("card declined");
    const second = exactlyOnce(store, "approval:x", "pay");
    const error = await second.run(body).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error).toMatchObject({ name: "PaymentError", message: "card declined" });
    expect(second.replayed).toBe(true);
    expect(runs).toBe(1);
  });
});
