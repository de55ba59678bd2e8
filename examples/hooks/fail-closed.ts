/**
 * Failure rules: a blocking hook that throws, times out or returns a result its event
 * does not accept fails closed — here the tool does not run and the model gets an error
 * result naming the hook. `onError: "fail_open"` opts one hook out (logged and traced).
 *
 *   npx tsx examples/hooks/fail-closed.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, type HookLogger, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

// #region failing-hooks
const flakyGuard = defineHook({
  name: "flaky-guard",
  on: "tool_call",
  kind: "decide",
  match: "charge_card",
  handler() {
    throw new Error("policy service unreachable");
  },
});

const slowGuard = defineHook({
  name: "slow-guard",
  on: "tool_call",
  kind: "decide",
  match: "refund",
  timeoutMs: 50, // default 30 000
  handler: () => new Promise<undefined>(() => {}), // never answers
});

const optionalCheck = defineHook({
  name: "optional-check",
  on: "tool_call",
  kind: "decide",
  match: "send_receipt",
  onError: "fail_open", // a failure here lets the call through
  handler() {
    throw new Error("receipt checker is down");
  },
});
// #endregion failing-hooks

export async function main(executed: string[] = [], logger?: HookLogger): Promise<RunResult> {
  const payment = (name: string) =>
    tool({
      inputSchema: z.object({ amount: z.number() }),
      execute: ({ amount }) => {
        executed.push(name);
        return `${name} ${amount}`;
      },
    });
  const agent = createAgent({
    name: "cashier",
    model: scriptedModel([
      {
        toolCalls: [
          { name: "charge_card", args: { amount: 10 } },
          { name: "refund", args: { amount: 5 } },
          { name: "send_receipt", args: { amount: 10 } },
        ],
      },
      { text: "Only the receipt went out." },
    ]),
    tools: {
      charge_card: payment("charge_card"),
      refund: payment("refund"),
      send_receipt: payment("send_receipt"),
    },
    hooks: [flakyGuard, slowGuard, optionalCheck],
    ...(logger ? { logger } : {}),
  });
  return agent.run("Charge 10, refund 5, send the receipt.");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const executed: string[] = [];
  const result = await main(executed);
  console.log("(scripted model)", result.outcome, "—", result.text);
  console.log("executed:", executed);
  for (const entry of result.steps[0]?.toolResults ?? []) console.log(`${entry.toolName}:`, entry.result);
  console.log("hook trace:", result.events);
}
