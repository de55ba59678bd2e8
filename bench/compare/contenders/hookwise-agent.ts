/**
 * hookwise set up for the comparison (shared by the run() and stream() contenders): the built
 * package (dist/), the instant model, the two tools, and the hooks as hookwise hooks —
 * `model_request` transform, `model_response` inspect (the only kind that event takes),
 * `tool_call` and `tool_result` transforms. Each handler is the hook function itself.
 */
import { z } from "zod";
import type { Agent, AnyHook, HookLogger, StateStore } from "../../../src/index.js";
import { hookwise } from "../../shared/hookwise.js";
import { RoundStore } from "../../shared/workload.js";
import type { ContenderOptions } from "../contender.js";
import { instantModel } from "../instant-model.js";
import { add, echo, INSTRUCTIONS } from "../script.js";
import type { Hook } from "../seam-hooks.js";

const silent: HookLogger = { debug() {}, info() {}, warn() {}, error() {} };

const tools = {
  add: hookwise.tool({
    description: "Adds two numbers.",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: add,
  }),
  echo: hookwise.tool({
    description: "Echoes a text.",
    inputSchema: z.object({ text: z.string() }),
    execute: echo,
  }),
};

function asHooks(on: AnyHook["on"], kind: AnyHook["kind"], hooks: readonly Hook[]): AnyHook[] {
  return hooks.map((handler, index) => ({ name: `${on}_${index}`, on, kind, handler }) as unknown as AnyHook);
}

/** The agent and its store (emptied between timed rounds, so nothing the store keeps piles up). */
export function hookwiseAgent(
  { script, hooks }: ContenderOptions,
  surface: string,
): { agent: Agent; store: RoundStore } {
  const store = new RoundStore();
  return { agent: benchAgent({ script, hooks }, surface, { store }), store };
}

/** The agent over `store`; `recordRuns` as createAgent takes it (default: by the store). */
export function benchAgent(
  { script, hooks }: ContenderOptions,
  surface: string,
  { store, recordRuns }: { store: StateStore; recordRuns?: boolean },
): Agent {
  return hookwise.createAgent({
    name: "bench",
    model: instantModel(script, surface),
    instructions: INSTRUCTIONS,
    tools,
    hooks: [
      ...asHooks("model_request", "transform", hooks.beforeModel),
      ...asHooks("model_response", "inspect", hooks.afterModel),
      ...asHooks("tool_call", "transform", hooks.beforeTool),
      ...asHooks("tool_result", "transform", hooks.afterTool),
    ],
    maxSteps: script.steps + 1,
    logger: silent,
    store,
    ...(recordRuns !== undefined ? { recordRuns } : {}),
  });
}
