/**
 * OpenAI Agents JS (`@openai/agents`): an Agent whose model comes from a custom
 * `ModelProvider` answering from the script, tools made with `tool()`, one `Runner` with
 * tracing off (its default exporter would send traces to OpenAI). The step is read from the
 * input items: the user message, then per step two function calls and two results.
 *
 * Seams: the SDK fires no lifecycle event per model call (`agent_start` fires once per
 * run), so before each model call the hooks run inside the one `callModelInputFilter` the
 * run config takes, and after it in a wrapper around the model's `getResponse` (user code).
 * Tool seams: sync hooks are `RunHooks` listeners (`agent_tool_start` / `agent_tool_end`,
 * which the SDK emits and never awaits); async hooks are tool input / output guardrails,
 * which it awaits one after the other.
 */
import { EventEmitter } from "node:events";
import {
  Agent,
  type AgentOutputItem,
  type CallModelInputFilter,
  defineToolInputGuardrail,
  defineToolOutputGuardrail,
  type Model,
  type ModelRequest,
  type ModelResponse,
  Runner,
  ToolGuardrailFunctionOutputFactory,
  tool,
  Usage,
} from "@openai/agents";
import { z } from "zod";
import type { CreateContender } from "../contender.js";
import { add, BenchCheckError, echo, FINAL_TEXT, INPUT, INSTRUCTIONS, type Script } from "../script.js";
import type { SeamHooks } from "../seam-hooks.js";

const FRAMEWORK = "OpenAI Agents";

function output(calls: ReturnType<Script["answer"]>): AgentOutputItem[] {
  if (calls === undefined)
    return [
      {
        type: "message",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: FINAL_TEXT }],
      },
    ];
  return calls.map((call) => ({
    type: "function_call",
    callId: call.id,
    name: call.name,
    arguments: call.input,
    status: "completed",
  }));
}

class ScriptedModel implements Model {
  constructor(readonly script: Script) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const items = typeof request.input === "string" ? 1 : request.input.length;
    const step = (items - 1) / 4;
    const calls = this.script.answer(step, FRAMEWORK);
    const parked = this.script.enter(step);
    if (parked) await parked;
    return {
      usage: new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
      output: output(calls),
    };
  }

  // biome-ignore lint/correctness/useYield: the comparison never streams this contender; a call is a bug.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new BenchCheckError(`${FRAMEWORK}: streaming is not part of this comparison`);
  }
}

/** User code around the model: the hooks after each model call (the SDK has no such event). */
function afterEachResponse(model: Model, hooks: SeamHooks): Model {
  if (hooks.perSeam === 0) return model;
  const after = hooks.afterModel;
  if (hooks.mode === "async")
    return {
      getResponse: async (request) => {
        const response = await model.getResponse(request);
        for (const hook of after) await hook(response);
        return response;
      },
      getStreamedResponse: (request) => model.getStreamedResponse(request),
    };
  return {
    getResponse: async (request) => {
      const response = await model.getResponse(request);
      for (const hook of after) hook(response);
      return response;
    },
    getStreamedResponse: (request) => model.getStreamedResponse(request),
  };
}

function beforeEachCall(hooks: SeamHooks): CallModelInputFilter | undefined {
  if (hooks.perSeam === 0) return undefined;
  const before = hooks.beforeModel;
  if (hooks.mode === "async")
    return async ({ modelData }) => {
      for (const hook of before) await hook(modelData);
      return modelData;
    };
  return ({ modelData }) => {
    for (const hook of before) hook(modelData);
    return modelData;
  };
}

const ALLOW = ToolGuardrailFunctionOutputFactory.allow();

function guardrails(hooks: SeamHooks) {
  if (hooks.perSeam === 0 || hooks.mode === "sync") return {};
  return {
    inputGuardrails: hooks.beforeTool.map((hook, index) =>
      defineToolInputGuardrail({
        name: `before_tool_${index}`,
        run: async (data) => {
          await hook(data);
          return ALLOW;
        },
      }),
    ),
    outputGuardrails: hooks.afterTool.map((hook, index) =>
      defineToolOutputGuardrail({
        name: `after_tool_${index}`,
        run: async (data) => {
          await hook(data);
          return ALLOW;
        },
      }),
    ),
  };
}

export const create: CreateContender = ({ script, hooks }) => {
  const model = afterEachResponse(new ScriptedModel(script), hooks);
  const agent = new Agent({
    name: "bench",
    instructions: INSTRUCTIONS,
    model: "scripted",
    tools: [
      tool({
        name: "add",
        description: "Adds two numbers.",
        parameters: z.object({ a: z.number(), b: z.number() }),
        execute: add,
        ...guardrails(hooks),
      }),
      tool({
        name: "echo",
        description: "Echoes a text.",
        parameters: z.object({ text: z.string() }),
        execute: echo,
        ...guardrails(hooks),
      }),
    ],
  });
  const runner = new Runner({
    modelProvider: { getModel: () => model },
    tracingDisabled: true,
    callModelInputFilter: beforeEachCall(hooks),
  });
  if (hooks.perSeam > 0 && hooks.mode === "sync") {
    // More than 10 listeners per event is the point here, not a leak.
    EventEmitter.defaultMaxListeners = Math.max(EventEmitter.defaultMaxListeners, hooks.perSeam + 1);
    for (const hook of hooks.beforeTool)
      runner.on("agent_tool_start", (_context, _agent, used) => hook(used));
    for (const hook of hooks.afterTool)
      runner.on("agent_tool_end", (_context, _agent, _tool, result) => hook(result));
  }
  const maxTurns = script.steps + 1;
  return {
    async run() {
      const result = await runner.run(agent, INPUT, { maxTurns });
      return String(result.finalOutput);
    },
  };
};
