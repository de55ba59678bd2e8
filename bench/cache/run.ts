/**
 * bench/cache: how much of each request a provider's prompt cache can serve. For every step
 * after the first, the share of the request (tools, system, messages, serialised as a
 * provider receives them, breakpoint marks left out) that is a byte-identical prefix of the
 * previous request; averaged over the run. Printed for 10- and 50-step runs:
 *
 * - no hooks (the ceiling);
 * - a `model_request` hook adding context that changes every attempt (default placement,
 *   then `placement: user_message`, the older placement, and a changing `system` patch);
 * - synthetic tool-call pairs injected every step (a `step_start` transform);
 * - a compaction every 10 steps (a `step_start` transform removing the oldest exchange).
 *
 * Target: the changing-context hook keeps ≥ 95% of the no-hook share.
 *
 *   npm run bench:cache
 */
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { z } from "zod";
import {
  type AnyHook,
  createAgent,
  defineHook,
  flow,
  type ModelMessage,
  type ScriptStep,
  scriptedModel,
  tool,
} from "../../src/index.js";

const TARGET = 0.95;

const search = tool({
  description: "Search the knowledge base",
  inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
  // A realistic result: long enough that the history dominates the request.
  execute: ({ query }) => `Results for ${query}:\n${"- a paragraph of a matching document. ".repeat(40)}`,
});

const INSTRUCTIONS = `You are a research assistant. ${"Follow the house style. ".repeat(30)}`;

function script(steps: number): ScriptStep[] {
  const entries: ScriptStep[] = [];
  for (let step = 1; step < steps; step++)
    entries.push({ toolCalls: [{ name: "search", args: { query: `topic ${step}`, limit: 5 } }] });
  entries.push({ text: "Here is what I found." });
  return entries;
}

/** A request as bytes: what a provider's cache compares (marks are not content). */
function serialise(call: LanguageModelV3CallOptions): string {
  return JSON.stringify({ tools: call.tools, prompt: call.prompt }, (key, value) =>
    key === "providerOptions" ? undefined : value,
  );
}

function sharedPrefix(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++;
  return index;
}

/** The mean share of each request (after the first) that repeats the previous one. */
async function cacheableShare(steps: number, hooks: AnyHook[]): Promise<number> {
  const model = scriptedModel(script(steps));
  const agent = createAgent({
    model,
    instructions: INSTRUCTIONS,
    tools: { search },
    hooks,
    maxSteps: steps + 1,
  });
  const result = await agent.run("Research the topics one by one.");
  if (result.outcome !== "completed") throw new Error(`run ended ${result.outcome}: ${result.reason ?? ""}`);
  const requests = model.calls.map(serialise);
  if (requests.length !== steps) throw new Error(`expected ${steps} requests, saw ${requests.length}`);
  let total = 0;
  for (let index = 1; index < requests.length; index++)
    total += sharedPrefix(requests[index - 1]!, requests[index]!) / requests[index]!.length;
  return total / (requests.length - 1);
}

const changingContext = (placement?: "user_message") =>
  defineHook({
    name: "live-context",
    on: "model_request",
    kind: "transform",
    handler: (event) =>
      flow.patch({
        extraContext: [{ id: "live", text: `Snapshot at step ${event.request.step}: ${Date.now()}` }],
        ...(placement ? { placement } : {}),
      }),
  });

const changingSystem = defineHook({
  name: "system-clock",
  on: "model_request",
  kind: "transform",
  handler: (event) => flow.patch({ system: `${event.request.system}\nNow: step ${event.request.step}` }),
});

let pairs = 0;
const syntheticPair = defineHook({
  name: "inject-pair",
  on: "step_start",
  kind: "transform",
  handler: () => {
    const id = `synthetic_${++pairs}`;
    return flow.inject([
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: id, toolName: "search", input: { query: "status" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: id,
            toolName: "search",
            output: { type: "text", value: "all green" },
          },
        ],
      },
    ] as ModelMessage[]);
  },
});

const compaction = defineHook({
  name: "compact-every-10",
  on: "step_start",
  kind: "transform",
  handler: (event, ctx) => {
    if (event.step === 0 || event.step % 10 !== 0) return undefined;
    // The oldest tool exchange (an assistant call and its result) after the user's message.
    const messages = ctx.messages;
    const first = messages.findIndex((message) => message.role === "assistant");
    if (first < 0 || messages[first + 1]?.role !== "tool") return undefined;
    return flow.compact({
      remove: [messages[first]!, messages[first + 1]!],
      replacement: [{ role: "user", content: "[an earlier search was archived]" }],
      reason: "bench",
    });
  },
});

const CASES: { name: string; hooks: () => AnyHook[] }[] = [
  { name: "no hooks", hooks: () => [] },
  { name: "changing context (placement: end)", hooks: () => [changingContext()] },
  { name: "changing context (placement: user_message)", hooks: () => [changingContext("user_message")] },
  { name: "changing system patch", hooks: () => [changingSystem] },
  { name: "synthetic tool-call pair every step", hooks: () => [syntheticPair] },
  { name: "compaction every 10 steps", hooks: () => [compaction] },
];

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

const rows: string[][] = [];
const shares = new Map<string, number>();
for (const steps of [10, 50]) {
  for (const { name, hooks } of CASES) {
    const share = await cacheableShare(steps, hooks());
    shares.set(`${steps}:${name}`, share);
    rows.push([`${steps} steps`, name, percent(share), percent(share / shares.get(`${steps}:no hooks`)!)]);
  }
}
const header = ["run", "hooks", "cacheable prefix", "of no-hook share"];
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => row[column]!.length)),
);
const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join("  ");
console.log("Cacheable prefix: the share of each request that repeats the previous request byte for byte\n");
console.log(line(header));
for (const row of rows) console.log(line(row));
console.log("");
let met = true;
for (const steps of [10, 50]) {
  const ratio = shares.get(`${steps}:changing context (placement: end)`)! / shares.get(`${steps}:no hooks`)!;
  const ok = ratio >= TARGET;
  met &&= ok;
  console.log(
    `${ok ? "✓" : "✗"} ${steps} steps: a changing per-attempt context hook keeps ${percent(ratio)} of the no-hook share (target ≥ ${percent(TARGET)})`,
  );
}
process.exitCode = met ? 0 : 1;
