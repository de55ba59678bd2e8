/**
 * Suspension and resume (DESIGN §5, §7b), on both surfaces: an `ask` with no live channel
 * suspends the run with nothing of its batch committed; `resume` (a new agent on the same
 * store — another process as far as the run knows) settles the batch in call order, each
 * call with its own decision, commits it atomically and continues the loop. A refused
 * resume runs nothing and leaves the run resumable.
 */
import { describe, expect, test } from "vitest";
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
import { ApprovalError, createAgent, defineHook, flow, scriptedModel } from "../index.js";

const SURFACES: SurfaceName[] = ["run", "stream"];

function runEndCounter() {
  const fired: string[] = [];
  const hook = defineHook({
    name: "count-run-end",
    on: "run_end",
    kind: "inspect",
    handler: (event) => {
      fired.push(event.outcome);
    },
  });
  return { fired, hook };
}

describe.each(SURFACES)("suspension on %s()", (surface) => {
  test("an ask with no channel suspends: approvals listed with the args, nothing of the batch committed", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const counter = runEndCounter();
    const first = teller(ledger, store, [{ toolCalls: [payCall(5)] }], { hooks: [counter.hook] });
    const { result, events } = await runVia(surface, first.agent, "pay the invoice");

    expect(result.outcome).toBe("suspended");
    expect(result.approvals).toEqual([
      {
        id: expect.any(String),
        toolName: "bank_pay",
        qualifiedName: "bank.pay",
        toolCallId: "pay5",
        args: { amount: 5 },
        reason: 'policy ask_user "bank.pay"',
        expiresAt: expect.any(String),
      },
    ]);
    expect(result.reason).toContain("awaiting approval: bank.pay");
    expect(ledger.ran).toEqual([]);
    // Nothing of the batch: the transcript has the user message only, the model was asked once.
    expect(result.messages).toEqual([{ role: "user", content: "pay the invoice" }]);
    expect(first.model.calls).toHaveLength(1);
    expect(counter.fired).toEqual([]); // the run has not ended
    expect(
      events.filter((event) => event.type === "tool-execution-start" || event.type === "tool-result"),
    ).toEqual([]);
    // The store holds it: any agent on this store can list and decide it.
    expect(await first.agent.pendingApprovals(result.runId)).toEqual(result.approvals);
    expect((await store.loadSession(result.sessionId))?.messages).toEqual(result.messages);
  });

  test("resume --approve in another agent runs the tool once, commits, continues and completes", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const first = teller(ledger, store, [{ text: "Paying.", toolCalls: [payCall(5)] }]);
    const suspended = (await runVia(surface, first.agent, "pay 5")).result;
    const counter = runEndCounter();
    const second = teller(ledger, store, [{ text: "Paid 5." }], { hooks: [counter.hook] });
    const approval = suspended.approvals![0]!;

    const { result, events } = await resumeVia(surface, second.agent, suspended.runId, [
      { id: approval.id, approved: true },
    ]);

    expect(result.outcome).toBe("completed");
    expect(result.text).toBe("Paid 5.");
    expect(result.runId).toBe(suspended.runId);
    expect(result.sessionId).toBe(suspended.sessionId);
    expect(ledger.ran).toEqual(["pay 5"]);
    expect(result.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(toolResultTexts(result.messages)).toEqual(["paid 5"]);
    // The model's next call carried the tool result.
    expect(toolResultTexts(second.model.calls[0]!.prompt)).toEqual(["paid 5"]);
    expect(result.steps.map((step) => step.toolResults.map((record) => record.executed))).toEqual([
      [true],
      [],
    ]);
    expect(counter.fired).toEqual(["completed"]);
    if (surface === "stream") {
      expect(events[0]).toMatchObject({ type: "run-start", runId: suspended.runId, resumed: true });
      expect(events.filter((event) => event.type === "tool-execution-start")).toEqual([
        expect.objectContaining({ toolName: "bank_pay", args: { amount: 5 } }),
      ]);
    }
    expect((await store.loadSession(suspended.sessionId))?.messages).toEqual(result.messages);

    // A second resume is refused and runs nothing.
    const third = teller(ledger, store, [{ text: "never" }]);
    await expect(
      third.agent.resume(suspended.runId, [{ id: approval.id, approved: true }]),
    ).rejects.toMatchObject({
      name: "ApprovalError",
      reason: "not_suspended",
    });
    expect(ledger.ran).toEqual(["pay 5"]);
    expect(third.model.calls).toHaveLength(0);
  });

  test("suspendedRuns lists the store's suspended runs of this agent, by session, until they end", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const first = (await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent, "pay 5"))
      .result;
    const second = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(7)] }]).agent, "pay 7", "s-7")
    ).result;
    const other = createAgent({ name: "other", model: scriptedModel([]), store });
    const lister = teller(ledger, store, [{ text: "Paid." }]).agent;

    const listed = await lister.suspendedRuns();
    expect(listed.map((run) => [run.runId, run.sessionId, run.input])).toEqual([
      [first.runId, first.sessionId, "pay 5"],
      [second.runId, "s-7", "pay 7"],
    ]);
    expect(listed[0]!.approvals).toEqual(first.approvals);
    expect(listed[0]!.agentName).toBe("teller");
    expect(await lister.suspendedRuns({ sessionId: "s-7" })).toEqual([listed[1]]);
    expect(await other.suspendedRuns()).toEqual([]);

    await lister.resume(first.runId, [{ id: first.approvals![0]!.id, approved: true }]);
    expect((await lister.suspendedRuns()).map((run) => run.runId)).toEqual([second.runId]);
  });

  test("a denial reaches the model as the tool result with its reason; the tool never runs", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(500)] }]).agent, "pay")
    ).result;
    const second = teller(ledger, store, [{ text: "Understood, not paid." }]);
    const { result } = await resumeVia(surface, second.agent, suspended.runId, [
      { id: suspended.approvals![0]!.id, approved: false, reason: "over the limit" },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual([]);
    expect(toolResultTexts(second.model.calls[0]!.prompt)).toEqual([
      'tool "bank.pay" was not approved: over the limit',
    ]);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ isError: true, executed: false });
  });

  test("a refused resume (unknown id, wrong agent) runs nothing and the run stays resumable", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent, "pay")
    ).result;
    const second = teller(ledger, store, [{ text: "done" }]);
    const refused = await resumeVia(surface, second.agent, suspended.runId, [
      { id: "nope", approved: true },
    ]).catch((error: unknown) => error);
    expect(ApprovalError.isInstance(refused)).toBe(true);
    expect((refused as ApprovalError).reason).toBe("unknown_approval");
    expect((refused as Error).message).toContain(suspended.approvals![0]!.id);
    const other = teller(ledger, store, [], { name: "auditor" });
    await expect(other.agent.resume(suspended.runId, [])).rejects.toMatchObject({ reason: "wrong_agent" });
    await expect(second.agent.resume("no-such-run", [])).rejects.toMatchObject({ reason: "unknown_run" });
    expect(ledger.ran).toEqual([]);
    expect(second.model.calls).toHaveLength(0);

    expect(await second.agent.pendingApprovals(suspended.runId)).toEqual(suspended.approvals);
    const { result } = await resumeVia(surface, second.agent, suspended.runId, [
      { id: suspended.approvals![0]!.id, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["pay 5"]);
  });

  test("a batch: allowed calls run, each approval keeps its own decision, results commit in call order", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const batch = [balanceCall("b1", "before"), payCall(5), payCall(7), balanceCall("b2", "after")];
    const first = teller(ledger, store, [{ toolCalls: batch }]);
    const suspended = (await runVia(surface, first.agent, "pay both")).result;
    expect(suspended.outcome).toBe("suspended");
    expect(suspended.approvals!.map((approval) => approval.args)).toEqual([{ amount: 5 }, { amount: 7 }]);
    // Sequential batch: the call before the first ask ran; the one after waits, in order.
    expect(ledger.ran).toEqual(["balance before"]);

    const [five, seven] = suspended.approvals!;
    const second = teller(ledger, store, [{ text: "Paid 5, not 7." }]);
    const { result } = await resumeVia(surface, second.agent, suspended.runId, [
      { id: seven!.id, approved: false, reason: "7 is too much" },
      { id: five!.id, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["balance before", "pay 5", "balance after"]);
    expect(toolResultTexts(second.model.calls[0]!.prompt)).toEqual([
      '{"balance":100}',
      "paid 5",
      'tool "bank.pay" was not approved: 7 is too much',
      '{"balance":100}',
    ]);
    expect(result.steps[0]!.toolResults.map((record) => [record.toolCallId, record.executed])).toEqual([
      ["b1", true],
      ["pay5", true],
      ["pay7", false],
      ["b2", true],
    ]);
  });

  test("partial decisions: the run suspends again; a later approval waits behind an undecided earlier one", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5), payCall(7)] }]).agent, "pay")
    ).result;
    const [five, seven] = suspended.approvals!;

    const second = teller(ledger, store, [{ text: "never" }]);
    const partial = (
      await resumeVia(surface, second.agent, suspended.runId, [{ id: seven!.id, approved: true }])
    ).result;
    expect(partial.outcome).toBe("suspended");
    expect(partial.runId).toBe(suspended.runId);
    expect(partial.approvals!.map((approval) => approval.id)).toEqual([five!.id]);
    expect(ledger.ran).toEqual([]); // 7 is approved but waits behind 5 (the batch keeps its order)
    expect(second.model.calls).toHaveLength(0);

    // The recorded approval of 7 cannot be contradicted later.
    const third = teller(ledger, store, [{ text: "Both paid." }]);
    await expect(
      third.agent.resume(suspended.runId, [
        { id: five!.id, approved: true },
        { id: seven!.id, approved: false },
      ]),
    ).rejects.toMatchObject({ reason: "conflict" });
    const { result } = await resumeVia(surface, third.agent, suspended.runId, [
      { id: five!.id, approved: true },
    ]);
    expect(result.outcome).toBe("completed");
    expect(ledger.ran).toEqual(["pay 5", "pay 7"]);
    expect(toolResultTexts(result.messages)).toEqual(["paid 5", "paid 7"]);
  });

  test("a session waits on its suspended run: a new run is refused until the resume", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent, "pay")
    ).result;
    const other = teller(ledger, store, [{ text: "hello" }, { text: "done" }, { text: "hello again" }]);
    const blocked = (await runVia(surface, other.agent, "hi", suspended.sessionId)).result;
    expect(blocked.outcome).toBe("error");
    expect(blocked.reason).toContain(`waiting on suspended run "${suspended.runId}"`);
    expect(other.model.calls).toHaveLength(0);

    await resumeVia(surface, other.agent, suspended.runId, [
      { id: suspended.approvals![0]!.id, approved: false },
    ]);
    const after = (await runVia(surface, other.agent, "hi again", suspended.sessionId)).result;
    expect(after.outcome).toBe("completed");
    // The new run sees the resumed run's whole transcript.
    expect(after.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
    ]);
  });

  test("a tool_result hook that terminates during the resume ends the run: nothing of the batch committed", async () => {
    const ledger: Ledger = { ran: [] };
    const store = newStore();
    const suspended = (
      await runVia(surface, teller(ledger, store, [{ toolCalls: [payCall(5)] }]).agent, "pay")
    ).result;
    const stop = defineHook({
      name: "stop-after-pay",
      on: "tool_result",
      kind: "transform",
      handler: () => flow.terminate("payments are audited first"),
    });
    const second = teller(ledger, store, [{ text: "never" }], { hooks: [stop] });
    const { result } = await resumeVia(surface, second.agent, suspended.runId, [
      { id: suspended.approvals![0]!.id, approved: true },
    ]);
    expect(result.outcome).toBe("terminated");
    expect(result.reason).toBe("payments are audited first");
    expect(result.messages).toEqual([{ role: "user", content: "pay" }]);
    expect(ledger.ran).toEqual(["pay 5"]);
    await expect(second.agent.resume(suspended.runId, [])).rejects.toMatchObject({ reason: "not_suspended" });
  });
});

describe("channels before suspension", () => {
  test("an approval_request hook or the agent's handler answers: no suspension", async () => {
    const ledger: Ledger = { ran: [] };
    const answered = teller(ledger, newStore(), [{ toolCalls: [payCall(5)] }, { text: "ok" }], {
      approvals: { handler: (request) => (request.args as { amount: number }).amount < 10 },
    });
    expect((await answered.agent.run("pay")).outcome).toBe("completed");
    expect(ledger.ran).toEqual(["pay 5"]);
  });

  test("a decide hook's flow.ask suspends like a policy's ask_user", async () => {
    const ledger: Ledger = { ran: [] };
    const ask = defineHook({
      name: "big-balance-check",
      on: "tool_call",
      kind: "decide",
      match: "bank.balance",
      handler: () => flow.ask({ reason: "balance reads are audited" }),
    });
    const first = teller(ledger, newStore(), [{ toolCalls: [balanceCall("b1")] }], {
      hooks: [ask],
      policies: [],
    });
    const result = await first.agent.run("balance?");
    expect(result.outcome).toBe("suspended");
    expect(result.approvals).toEqual([
      expect.objectContaining({ qualifiedName: "bank.balance", reason: "balance reads are audited" }),
    ]);
  });
});

test("resumeStream(…, { hookEvents: false }) carries no hook events; the approved call runs once and the trace keeps every firing", async () => {
  const ledger: Ledger = { ran: [] };
  const store = newStore();
  const counter = runEndCounter();
  const first = teller(ledger, store, [{ toolCalls: [payCall(5)] }], { hooks: [counter.hook] });
  const suspended = await first.agent.run("pay the invoice");
  const second = teller(ledger, store, [{ text: "Paid." }], { hooks: [counter.hook] });
  const live = second.agent.resumeStream(
    suspended.runId,
    [{ id: suspended.approvals![0]!.id, approved: true }],
    { hookEvents: false },
  );
  const types: string[] = [];
  for await (const event of live) types.push(event.type);
  const result = await live.result;

  expect(result.outcome).toBe("completed");
  expect(ledger.ran).toEqual(["pay 5"]);
  expect(types).not.toContain("hook");
  expect(types).toContain("tool-result");
  expect(result.events.map((entry) => entry.hook)).toContain("count-run-end");
});
