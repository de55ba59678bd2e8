/**
 * The benchmark workload shared by bench/loop and bench/hooks: a scripted model whose
 * steps each ask for two tool calls (`add`, `echo`), the two tools, and a hand-written
 * bare loop doing the same work over the same model (the baseline every ratio uses).
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import { z } from "zod";
import type {
  LeaseOptions,
  SaveSessionOptions,
  ScriptEntry,
  ScriptedModel,
  SessionRecord,
  StateStore,
} from "../../src/index.js";
import { hookwise } from "./hookwise.js";

const { scriptedModel, tool } = hookwise;

export const INSTRUCTIONS = "You are a calculator. Use the tools.";
export const INPUT = "Add some numbers and echo the results.";

/** `steps` model turns, each with two tool calls. Usage is given so the model does no token counting. */
export function toolSteps(steps: number): ScriptEntry[] {
  return Array.from({ length: steps }, (_, step) => ({
    toolCalls: [
      { name: "add", args: { a: step, b: 2 } },
      { name: "echo", args: { text: `step ${step}` } },
    ],
    usage: { inputTokens: 10, outputTokens: 5 },
  }));
}

/**
 * A model that replays `script` from the start after every `reset()` (a scripted model is
 * consumed as it answers). Each run of a benchmark begins with `reset()`.
 */
export interface ReplayModel extends LanguageModelV3 {
  reset(): void;
}

export function replayModel(script: readonly ScriptEntry[]): ReplayModel {
  let current: ScriptedModel = scriptedModel(script);
  return {
    specificationVersion: "v3",
    provider: "scripted",
    modelId: "scripted-replay",
    supportedUrls: {},
    reset() {
      current = scriptedModel(script);
    },
    doGenerate: (options) => current.doGenerate(options),
    doStream: (options) => current.doStream(options),
  };
}

export function add({ a, b }: { a: number; b: number }): number {
  return a + b;
}

export function echo({ text }: { text: string }): { text: string } {
  return { text };
}

/** The agent's tools: the same functions, with zod schemas (validated by the loop). */
export const tools = {
  add: tool({
    description: "Adds two numbers.",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: add,
  }),
  echo: tool({
    description: "Echoes a text.",
    inputSchema: z.object({ text: z.string() }),
    execute: echo,
  }),
};

const bareTools: Record<string, (args: any) => unknown> = { add, echo };

const bareToolSpecs: LanguageModelV3FunctionTool[] = [
  {
    type: "function",
    name: "add",
    description: "Adds two numbers.",
    inputSchema: z.toJSONSchema(z.object({ a: z.number(), b: z.number() })) as never,
  },
  {
    type: "function",
    name: "echo",
    description: "Echoes a text.",
    inputSchema: z.toJSONSchema(z.object({ text: z.string() })) as never,
  },
];

/** Called at each seam of the bare loop (bench/hooks: ten no-op functions; otherwise none). */
export type Seam = (event: { type: string; [key: string]: unknown }) => void;

/**
 * The hand-written baseline: call doGenerate, parse tool-call JSON, run the two tool
 * functions, append the assistant and tool messages to one array. `seam` is called where
 * hookwise fires its events (the same seams, the same count). `toolFunctions` replaces the
 * two tools (bench/compare passes ones that count their executions).
 */
export async function bareLoop(
  model: LanguageModelV3,
  maxSteps: number,
  seam?: Seam,
  toolFunctions: Record<string, (args: any) => unknown> = bareTools,
): Promise<number> {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: [{ type: "text", text: INPUT }] },
  ];
  seam?.({ type: "session_start" });
  seam?.({ type: "run_start", input: INPUT });
  let toolCalls = 0;
  for (let step = 0; step < maxSteps; step++) {
    seam?.({ type: "step_start", step });
    const options: LanguageModelV3CallOptions = {
      prompt,
      tools: bareToolSpecs,
      toolChoice: { type: "auto" },
    };
    seam?.({ type: "model_request", request: options });
    const result = await model.doGenerate(options);
    seam?.({ type: "model_response", result });
    const calls = result.content.filter(
      (part): part is Extract<LanguageModelV3Content, { type: "tool-call" }> => part.type === "tool-call",
    );
    seam?.({ type: "model_turn_finished", calls });
    prompt.push({ role: "assistant", content: result.content as never });
    if (calls.length === 0) break;
    const outputs: LanguageModelV3ToolResultPart[] = [];
    for (const call of calls) {
      const args = JSON.parse(call.input);
      seam?.({ type: "tool_call", toolName: call.toolName, args });
      const value = await toolFunctions[call.toolName]!(args);
      seam?.({ type: "tool_result", toolName: call.toolName, result: value });
      outputs.push({
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "json", value: value as never },
      });
      toolCalls++;
    }
    prompt.push({ role: "tool", content: outputs });
    seam?.({ type: "step_end", step });
  }
  seam?.({ type: "run_end", output: "" });
  return toolCalls;
}

/** Reads one model call's stream to its end: its text deltas joined, its tool calls in order. */
export async function streamedContent(
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
): Promise<{ content: LanguageModelV3Content[] }> {
  const { stream } = await model.doStream(options);
  const content: LanguageModelV3Content[] = [];
  let text = "";
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") text += value.delta;
    else if (value.type === "tool-call") content.push(value);
  }
  if (text) content.unshift({ type: "text", text });
  return { content };
}

/** The same bare loop over doStream: reads every part, folds tool calls, same seams. */
export async function bareStreamLoop(model: LanguageModelV3, maxSteps: number): Promise<number> {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: [{ type: "text", text: INPUT }] },
  ];
  let toolCalls = 0;
  for (let step = 0; step < maxSteps; step++) {
    const { content } = await streamedContent(model, {
      prompt,
      tools: bareToolSpecs,
      toolChoice: { type: "auto" },
    });
    prompt.push({ role: "assistant", content: content as never });
    const calls = content.filter(
      (part): part is Extract<LanguageModelV3Content, { type: "tool-call" }> => part.type === "tool-call",
    );
    if (calls.length === 0) break;
    const outputs: LanguageModelV3ToolResultPart[] = [];
    for (const call of calls) {
      const value = await bareTools[call.toolName]!(JSON.parse(call.input));
      outputs.push({
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "json", value: value as never },
      });
      toolCalls++;
    }
    prompt.push({ role: "tool", content: outputs });
  }
  return toolCalls;
}

/** Drains an agent stream (as a UI would) and returns its result. */
export async function drain<T>(live: AsyncIterable<unknown> & { result: Promise<T> }): Promise<T> {
  for await (const _event of live) {
    // consume every event
  }
  return live.result;
}

/**
 * The in-memory store, emptied between rounds (`reset`, untimed): every run still loads,
 * counts and saves its session through it (a run given no sessionId is not kept, as with
 * the default store), and what else the store holds (rate windows, run counters) does not
 * pile up, so one agent serves a whole fork (no agent built per round, no garbage of it).
 */
export class RoundStore implements StateStore {
  readonly kind = "memory";
  readonly location = "memory";
  readonly sharing = "process";
  #inner: StateStore = new hookwise.MemoryStore();

  reset(): void {
    this.#inner = new hookwise.MemoryStore();
  }
  get<T = unknown>(key: string) {
    return this.#inner.get<T>(key);
  }
  set(key: string, value: unknown, options?: { ttlMs?: number }) {
    return this.#inner.set(key, value, options);
  }
  delete(key: string) {
    return this.#inner.delete(key);
  }
  increment(key: string, by?: number) {
    return this.#inner.increment(key, by);
  }
  hit(key: string, options: { max: number; windowMs: number; now: number }) {
    return this.#inner.hit(key, options);
  }
  setIfAbsent(key: string, value: unknown, options?: { ttlMs?: number }) {
    return this.#inner.setIfAbsent(key, value, options);
  }
  lease(key: string, holder: string, ttlMs: number, options?: LeaseOptions) {
    return this.#inner.lease(key, holder, ttlMs, options);
  }
  releaseLease(key: string, holder: string) {
    return this.#inner.releaseLease(key, holder);
  }
  keys(prefix: string) {
    return this.#inner.keys(prefix);
  }
  loadSession(id: string) {
    return this.#inner.loadSession(id);
  }
  saveSession(record: SessionRecord, options?: SaveSessionOptions) {
    return this.#inner.saveSession(record, options);
  }
  deleteSession(id: string) {
    return this.#inner.deleteSession(id);
  }
  close() {
    return this.#inner.close();
  }
}
