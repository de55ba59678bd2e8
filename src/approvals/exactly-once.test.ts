/**
 * Exactly-once: an approved tool runs once even if the process running it dies
 * and the run is resumed again. The intent is recorded (setIfAbsent) before the body runs
 * and the result after; a resume that finds an intent never runs the body again: it replays
 * the recorded result, or — without one — tells the model the outcome is unknown. A crash
 * is staged here by planting what a killed process leaves behind (its claim, its intent);
 * the CLI tests kill a real process.
 */
import { hostname } from "node:os";
import { describe, expect, test } from "vitest";
import {
  type Ledger,
  newStore,
  payCall,
  resumeVia,
  runVia,
  teller,
  toolResultTexts,
} from "../../test/support/approval-fixture.js";
import { deferred, type SurfaceName } from "../../test/support/engine-harness.js";
import { type AgentEvent, ApprovalError } from "../index.js";
import { runKey, type SuspendedRunRecord } from "./suspended-run.js";

const SURFACES: SurfaceName[] = ["run", "stream"];
/** A pid that is not running on this host. */
const DEAD_PID = 2 ** 22 + 12_345;

async function suspendedPayment(surface: SurfaceName) {
  const ledger: Ledger = { ran: [] };
  const store = newStore();
  const { result } = await runVia(
    surface,
    teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent,
    "pay 5",
  );
  const record = (await store.get<SuspendedRunRecord>(runKey(result.runId)))!;
  const approvalId = result.approvals![0]!.id;
  return { ledger, store, result, record, approvalId };
}

/** What a resume killed mid-tool leaves: its claim on the run, and the intent of the call it started. */
async function plantCrash(
  setup: Awaited<ReturnType<typeof suspendedPayment>>,
  options: { recorded?: unknown; pid?: number } = {},
) {
  const { store, record, approvalId } = setup;
  const at = Date.now();
  const pid = options.pid ?? DEAD_PID;
  await store.set(`run:${record.runId}:claim:${record.token}`, {
    token: "crashed",
    pid,
    host: hostname(),
    at,
  });
  await store.set(`approval:${approvalId}:intent`, { at, pid, host: hostname(), label: "tool" });
  if (options.recorded !== undefined)
    await store.set(`approval:${approvalId}:result`, { ok: true, value: options.recorded });
}

describe.each(SURFACES)("exactly once on %s()", (surface) => {
  test("killed after the tool started, before its result was recorded: not run again, the model learns the outcome is unknown", async () => {
    const setup = await suspendedPayment(surface);
    await plantCrash(setup);
    const again = teller(setup.ledger, setup.store, [{ text: "I will check the payment status." }]);
    const { result, events } = await resumeVia(surface, again.agent, setup.result.runId, [
      { id: setup.approvalId, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(setup.ledger.ran).toEqual([]); // the planted "process" ran it; this one did not
    const [seen] = toolResultTexts(again.model.calls[0]!.prompt);
    expect(seen).toContain('tool "bank.pay" failed: outcome unknown');
    expect(seen).toContain("did not run it again");
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true, executed: true, replayed: true });
    expect(events.filter((event: AgentEvent) => event.type === "tool-execution-start")).toEqual([]);
    // And a further resume is refused.
    await expect(again.agent.resume(setup.result.runId, [])).rejects.toMatchObject({
      reason: "not_suspended",
    });
    expect(setup.ledger.ran).toEqual([]);
  });

  test("killed after the result was recorded, before the commit: the recorded result is replayed", async () => {
    const setup = await suspendedPayment(surface);
    await plantCrash(setup, { recorded: "paid 5 (receipt r-1)" });
    const again = teller(setup.ledger, setup.store, [{ text: "Paid." }]);
    const { result } = await resumeVia(surface, again.agent, setup.result.runId, [
      { id: setup.approvalId, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(setup.ledger.ran).toEqual([]);
    expect(toolResultTexts(result.messages)).toEqual(["paid 5 (receipt r-1)"]);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: false, replayed: true });
  });

  test("an approval whose tool already started cannot be turned into a denial", async () => {
    const setup = await suspendedPayment(surface);
    await plantCrash(setup);
    const again = teller(setup.ledger, setup.store, [{ text: "done" }]);
    await expect(
      again.agent.resume(setup.result.runId, [{ id: setup.approvalId, approved: false }]),
    ).rejects.toMatchObject({ reason: "conflict" });
    expect(again.model.calls).toHaveLength(0);
  });
});

describe("one resumer at a time", () => {
  test("a resume held by a live process is refused; the run stays resumable once it is gone", async () => {
    const setup = await suspendedPayment("run");
    // The parent of this test process is alive: its claim is honoured.
    await setup.store.set(`run:${setup.record.runId}:claim:${setup.record.token}`, {
      token: "live",
      pid: process.ppid,
      host: hostname(),
      at: Date.now(),
    });
    const again = teller(setup.ledger, setup.store, [{ text: "Paid." }]);
    const refused = await again.agent
      .resume(setup.result.runId, [{ id: setup.approvalId, approved: true }])
      .catch((error: unknown) => error);
    expect(ApprovalError.isInstance(refused) && refused.reason).toBe("busy");
    expect(setup.ledger.ran).toEqual([]);
  });

  test("two concurrent resumes: one runs the tool once, the other is refused", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = await teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent.run("pay");
    const gate = deferred();
    const id = suspended.approvals![0]!.id;
    const a = teller(ledger, store, [{ text: "Paid." }], { pay: () => gate.promise });
    const b = teller(ledger, store, [{ text: "Paid too." }]);
    const first = a.agent.resume(suspended.runId, [{ id, approved: true }]);
    // Once a's tool is running, a holds the claim.
    while (ledger.ran.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    await expect(b.agent.resume(suspended.runId, [{ id, approved: true }])).rejects.toMatchObject({
      reason: "busy",
    });
    gate.resolve();
    expect((await first).outcome).toBe("completed");
    expect(ledger.ran).toEqual(["pay 5"]);
  });
});
