/**
 * Human approval: a payment needs a human. Nobody is listening, so the run
 * suspends into the store. Later, a second agent on the same SQLite file — as a second
 * process would be — approves it with `resume`: the tool runs once and the run completes.
 * A denial reaches the model as the tool's result, with its reason.
 *
 *   npx tsx examples/approvals/suspend-and-resume.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createAgent,
  policy,
  type RunResult,
  type ScriptStep,
  SqliteStore,
  type StateStore,
  scriptedModel,
  tool,
} from "hookwise";
import { z } from "zod";

// #region agent
function teller(store: StateStore, script: ScriptStep[], paid: number[]) {
  return createAgent({
    name: "teller",
    model: scriptedModel(script),
    tools: {
      pay: tool({
        description: "Pay an amount",
        inputSchema: z.object({ amount: z.number() }),
        execute: ({ amount }) => {
          paid.push(amount);
          return `paid ${amount}`;
        },
      }),
    },
    policies: [policy.askUser("pay", { reason: "payments need a human" })],
    store, // where a suspended run waits; SQLite or Redis for "any process"
  });
}
// #endregion agent

export async function main(
  dir: string,
  paid: number[] = [],
): Promise<{ suspended: RunResult; done: RunResult; denied: RunResult }> {
  const store = new SqliteStore({ path: join(dir, "state.db") });
  try {
    // #region suspend
    const suspended = await teller(store, [{ toolCalls: [{ name: "pay", args: { amount: 5 } }] }], paid).run(
      "Pay invoice 17",
    );
    // suspended.outcome   → "suspended"
    // suspended.approvals → [{ id, toolName: "pay", args: { amount: 5 }, reason: "payments need a human", … }]
    // #endregion suspend

    // #region resume
    const later = teller(store, [{ text: "Paid invoice 17." }], paid);
    const approval = suspended.approvals![0]!;
    const done = await later.resume(suspended.runId, [{ id: approval.id, approved: true }]);
    // done.outcome → "completed"; pay ran once, with { amount: 5 }
    // #endregion resume

    // #region deny
    const big = await teller(store, [{ toolCalls: [{ name: "pay", args: { amount: 500 } }] }], paid).run(
      "Pay invoice 18",
    );
    const denied = await teller(store, [{ text: "I did not pay invoice 18." }], paid).resume(big.runId, [
      { id: big.approvals![0]!.id, approved: false, reason: "over the monthly budget" },
    ]);
    // the model received: tool "pay" was not approved: over the monthly budget
    // #endregion deny
    return { suspended, done, denied };
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-approvals-"));
  try {
    const paid: number[] = [];
    const { suspended, done, denied } = await main(dir, paid);
    console.log("(scripted model)");
    console.log("first run:", suspended.outcome, JSON.stringify(suspended.approvals?.[0]?.args));
    console.log("resumed:  ", done.outcome, "—", done.text);
    console.log("denied:   ", denied.outcome, "—", denied.text);
    console.log("paid:", paid);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
