/**
 * LangChain.js (`langchain` v1): `createAgent` over a fake chat model answering from the
 * script, tools made with `tool()`. The model binds tools as a provider's chat model does
 * (converted to OpenAI tool specs, `withConfig`). The step is read from the messages: the
 * system prompt and the user message, then per step one AI message and two tool messages.
 *
 * Seams: one middleware per hook, each with `beforeModel`, `afterModel` and `wrapToolCall`
 * (the hook before and after the inner handler). LangGraph runs each `beforeModel` /
 * `afterModel` as a graph node of its own, so the recursion limit is raised to fit them.
 */

import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { type AgentMiddleware, AIMessage, createAgent, createMiddleware, tool } from "langchain";
import { z } from "zod";
import type { CreateContender } from "../contender.js";
import { add, echo, FINAL_TEXT, INPUT, INSTRUCTIONS, type Script } from "../script.js";
import type { SeamHooks } from "../seam-hooks.js";

const FRAMEWORK = "LangChain";

class ScriptedChatModel extends BaseChatModel {
  readonly #script: Script;

  constructor(script: Script) {
    super({});
    this.#script = script;
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: StructuredToolInterface[]) {
    return this.withConfig({ tools: tools.map((entry) => convertToOpenAITool(entry)) } as never);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const step = (messages.length - 2) / 3;
    const calls = this.#script.answer(step, FRAMEWORK);
    const parked = this.#script.enter(step);
    if (parked) await parked;
    const message =
      calls === undefined
        ? new AIMessage(FINAL_TEXT)
        : new AIMessage({
            content: "",
            tool_calls: calls.map((call) => ({
              id: call.id,
              name: call.name,
              args: call.args,
              type: "tool_call",
            })),
          });
    return { generations: [{ text: calls === undefined ? FINAL_TEXT : "", message }] };
  }
}

function middlewareFor(hooks: SeamHooks, index: number): AgentMiddleware {
  const before = hooks.beforeModel[index]!;
  const after = hooks.afterModel[index]!;
  const beforeTool = hooks.beforeTool[index]!;
  const afterTool = hooks.afterTool[index]!;
  if (hooks.mode === "async")
    return createMiddleware({
      name: `hook_${index}`,
      beforeModel: async (state) => {
        await before(state);
      },
      afterModel: async (state) => {
        await after(state);
      },
      wrapToolCall: async (request, handler) => {
        await beforeTool(request);
        const result = await handler(request);
        await afterTool(result);
        return result;
      },
    });
  return createMiddleware({
    name: `hook_${index}`,
    beforeModel: (state) => {
      before(state);
    },
    afterModel: (state) => {
      after(state);
    },
    wrapToolCall: async (request, handler) => {
      beforeTool(request);
      const result = await handler(request);
      afterTool(result);
      return result;
    },
  });
}

export const create: CreateContender = ({ script, hooks }) => {
  const agent = createAgent({
    model: new ScriptedChatModel(script),
    systemPrompt: INSTRUCTIONS,
    tools: [
      tool(add, {
        name: "add",
        description: "Adds two numbers.",
        schema: z.object({ a: z.number(), b: z.number() }),
      }),
      tool(echo, { name: "echo", description: "Echoes a text.", schema: z.object({ text: z.string() }) }),
    ],
    middleware: Array.from({ length: hooks.perSeam }, (_, index) => middlewareFor(hooks, index)),
  });
  // Per model call: the model node and one node per beforeModel / afterModel; per step: the tool node.
  const recursionLimit = (script.steps + 1) * (2 * hooks.perSeam + 2) + 10;
  return {
    async run() {
      const state = await agent.invoke({ messages: [{ role: "user", content: INPUT }] }, { recursionLimit });
      const last = state.messages.at(-1);
      return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
    },
  };
};
