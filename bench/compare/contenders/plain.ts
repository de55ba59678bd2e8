/**
 * The floor: bench/loop's hand-written bare loop (bench/shared/workload.ts) over the instant
 * model, with tools that count their executions. With hooks it is the same loop with the
 * hooks called at the four seams, each awaited only when it returns a promise.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import { bareLoop } from "../../shared/workload.js";
import type { CreateContender } from "../contender.js";
import { instantModel } from "../instant-model.js";
import { add, BenchCheckError, echo, FINAL_TEXT, INPUT, INSTRUCTIONS } from "../script.js";
import type { Hook, SeamHooks } from "../seam-hooks.js";

const toolFunctions: Record<string, (args: any) => unknown> = { add, echo };

const toolSpecs: LanguageModelV3FunctionTool[] = [
  {
    type: "function",
    name: "add",
    description: "Adds two numbers.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
  },
  {
    type: "function",
    name: "echo",
    description: "Echoes a text.",
    inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  },
];

/** Calls each hook; awaits one only when it answered with a promise. */
async function fire(hooks: readonly Hook[], payload: unknown): Promise<void> {
  for (let index = 0; index < hooks.length; index++) {
    const pending = hooks[index]!(payload);
    if (pending) await pending;
  }
}

/** One model call: what the model answered, as content parts. */
export type CallModel = (
  model: LanguageModelV3,
  options: LanguageModelV3CallOptions,
) => PromiseLike<{ content: LanguageModelV3Content[] }>;

const generate: CallModel = (model, options) => model.doGenerate(options);

/** bareLoop with the four seams: the same steps, one `fire` per seam. */
export async function hookedLoop(
  model: LanguageModelV3,
  maxSteps: number,
  hooks: SeamHooks,
  call: CallModel = generate,
): Promise<string> {
  const prompt: LanguageModelV3Prompt = [
    { role: "system", content: INSTRUCTIONS },
    { role: "user", content: [{ type: "text", text: INPUT }] },
  ];
  let text = "";
  for (let step = 0; step < maxSteps; step++) {
    const options = { prompt, tools: toolSpecs, toolChoice: { type: "auto" as const } };
    await fire(hooks.beforeModel, options);
    const result = await call(model, options);
    await fire(hooks.afterModel, result);
    const calls = result.content.filter(
      (part): part is Extract<LanguageModelV3Content, { type: "tool-call" }> => part.type === "tool-call",
    );
    prompt.push({ role: "assistant", content: result.content as never });
    if (calls.length === 0) {
      for (const part of result.content) if (part.type === "text") text += part.text;
      break;
    }
    const outputs: LanguageModelV3ToolResultPart[] = [];
    for (const call of calls) {
      const args = JSON.parse(call.input);
      await fire(hooks.beforeTool, args);
      const value = await toolFunctions[call.toolName]!(args);
      await fire(hooks.afterTool, value);
      outputs.push({
        type: "tool-result",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: "json", value: value as never },
      });
    }
    prompt.push({ role: "tool", content: outputs });
  }
  return text;
}

export const create: CreateContender = ({ script, hooks }) => {
  const model = instantModel(script, "plain loop");
  const maxSteps = script.steps + 1;
  if (hooks.perSeam > 0) return { run: () => hookedLoop(model, maxSteps, hooks) };
  const toolCalls = script.steps * 2;
  return {
    async run() {
      // bareLoop returns how many tools it ran and stops at the answer without tool calls.
      const executed = await bareLoop(model, maxSteps, undefined, toolFunctions);
      if (executed !== toolCalls)
        throw new BenchCheckError(`plain loop: ${executed} tool calls run, not ${toolCalls}`);
      return FINAL_TEXT;
    },
  };
};
