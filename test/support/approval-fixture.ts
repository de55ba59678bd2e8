/**
 * Test fixture of the approval tests (`*approval*.test.ts`, `exactly-once.test.ts`); not
 * part of the library surface. A "teller" agent with `bank.pay` (asks a human, by policy)
 * and `bank.balance` (allowed); a ledger records every body that ran. A "new process" is a
 * new agent with a new scripted model on the same store — nothing else is shared.
 */
import { z } from "zod";
import {
  type Agent,
  type AgentEvent,
  type AgentOptions,
  type ApprovalDecision,
  createAgent,
  MemoryStore,
  policy,
  type RunResult,
  resolveTool,
  type ScriptStep,
  type StateStore,
  scriptedModel,
  tool,
} from "../../src/index.js";
import type { SurfaceName } from "./engine-harness.js";

export interface Ledger {
  /** Every body that ran, in order: `pay 5`, `balance`. */
  ran: string[];
}

export function bankTools(ledger: Ledger, pay?: (amount: number) => Promise<void> | void) {
  return [
    resolveTool(
      "pay",
      tool({
        description: "Pay an amount",
        inputSchema: z.object({ amount: z.number() }),
        execute: async ({ amount }) => {
          ledger.ran.push(`pay ${amount}`);
          await pay?.(amount);
          return `paid ${amount}`;
        },
      }),
      { toolset: "bank" },
    ),
    resolveTool(
      "balance",
      tool({
        description: "Read the balance",
        inputSchema: z.object({ account: z.string().optional() }),
        execute: ({ account }) => {
          ledger.ran.push(`balance${account ? ` ${account}` : ""}`);
          return { balance: 100 };
        },
      }),
      { toolset: "bank" },
    ),
  ];
}

export interface Teller {
  agent: Agent;
  model: ReturnType<typeof scriptedModel>;
}

/** One "process": an agent on `store` whose model answers `script`. */
export function teller(
  ledger: Ledger,
  store: StateStore,
  script: ScriptStep[],
  extra: Partial<AgentOptions> & { pay?: (amount: number) => Promise<void> | void } = {},
): Teller {
  const { pay, ...options } = extra;
  const model = scriptedModel(script);
  const agent = createAgent({
    name: "teller",
    model,
    store,
    tools: bankTools(ledger, pay),
    policies: [policy.askUser("bank.pay")],
    ...options,
  });
  return { agent, model };
}

export const payCall = (amount: number, id = `pay${amount}`) => ({
  name: "bank_pay",
  args: { amount },
  id,
});
export const balanceCall = (id = "bal", account?: string) => ({
  name: "bank_balance",
  args: account ? { account } : {},
  id,
});

export interface Outcome {
  result: RunResult;
  events: AgentEvent[];
}

export async function runVia(
  surface: SurfaceName,
  agent: Agent,
  input: string,
  sessionId?: string,
): Promise<Outcome> {
  const options = sessionId ? { sessionId } : {};
  if (surface === "run") return { result: await agent.run(input, options), events: [] };
  const live = agent.stream(input, options);
  const events: AgentEvent[] = [];
  for await (const event of live) events.push(event);
  return { result: await live.result, events };
}

export async function resumeVia(
  surface: SurfaceName,
  agent: Agent,
  runId: string,
  decisions: ApprovalDecision[],
): Promise<Outcome> {
  if (surface === "run") return { result: await agent.resume(runId, decisions), events: [] };
  const live = agent.resumeStream(runId, decisions);
  const events: AgentEvent[] = [];
  for await (const event of live) events.push(event);
  return { result: await live.result, events };
}

/** The text of every tool result in a transcript or prompt, in order. */
export function toolResultTexts(messages: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const message of messages as { role: string; content: unknown }[]) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; output?: { value: unknown } }[]) {
      if (part.type === "tool-result") {
        const value = part.output?.value;
        texts.push(typeof value === "string" ? value : JSON.stringify(value));
      }
    }
  }
  return texts;
}

export const newStore = () => new MemoryStore();
