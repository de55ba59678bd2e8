/**
 * The AI SDK (`ai` v6) set up for the comparison, shared by the generateText and streamText
 * contenders. The SDK has no hook registry, so each seam takes its nearest equivalent:
 * model seams are language-model middleware (one middleware per hook, composed by
 * `wrapLanguageModel`: `transformParams` before the call, `wrapGenerate` / `wrapStream` after
 * it), tool seams are wrappers around each tool's `execute` (one wrapper per hook).
 */
import type { LanguageModelV3, LanguageModelV3Middleware } from "@ai-sdk/provider";
import { type ToolExecutionOptions, type ToolSet, tool, wrapLanguageModel } from "ai";
import { z } from "zod";
import type { ContenderOptions } from "../contender.js";
import { instantModel } from "../instant-model.js";
import { add, echo } from "../script.js";
import type { Hook, SeamHooks } from "../seam-hooks.js";

type Execute<I, O> = (input: I, options: ToolExecutionOptions) => Promise<O>;

function middlewareFor(before: Hook, after: Hook, mode: SeamHooks["mode"]): LanguageModelV3Middleware {
  if (mode === "async")
    return {
      specificationVersion: "v3",
      async transformParams({ params }) {
        await before(params);
        return params;
      },
      async wrapGenerate({ doGenerate }) {
        const result = await doGenerate();
        await after(result);
        return result;
      },
      async wrapStream({ doStream }) {
        const result = await doStream();
        await after(result);
        return result;
      },
    };
  return {
    specificationVersion: "v3",
    async transformParams({ params }) {
      before(params);
      return params;
    },
    async wrapGenerate({ doGenerate }) {
      const result = await doGenerate();
      after(result);
      return result;
    },
    async wrapStream({ doStream }) {
      const result = await doStream();
      after(result);
      return result;
    },
  };
}

function wrapExecute<I, O>(
  inner: Execute<I, O>,
  before: Hook,
  after: Hook,
  mode: SeamHooks["mode"],
): Execute<I, O> {
  if (mode === "async")
    return async (input, options) => {
      await before(input);
      const output = await inner(input, options);
      await after(output);
      return output;
    };
  return async (input, options) => {
    before(input);
    const output = await inner(input, options);
    after(output);
    return output;
  };
}

/** The tool function itself without hooks; with hooks, one wrapper per hook around it. */
function wrapped<I, O>(
  execute: (input: I) => O,
  hooks: SeamHooks,
): (input: I, options: ToolExecutionOptions) => O | Promise<O> {
  if (hooks.perSeam === 0) return execute;
  let result: Execute<I, O> = async (input) => execute(input);
  // The first hook ends up outermost, so hooks fire in registration order.
  for (let index = hooks.perSeam - 1; index >= 0; index--)
    result = wrapExecute(result, hooks.beforeTool[index]!, hooks.afterTool[index]!, hooks.mode);
  return result;
}

export function aiSdkSetup({ script, hooks }: ContenderOptions, surface: string) {
  const base = instantModel(script, surface);
  const model: LanguageModelV3 =
    hooks.perSeam === 0
      ? base
      : wrapLanguageModel({
          model: base,
          middleware: hooks.beforeModel.map((before, index) =>
            middlewareFor(before, hooks.afterModel[index]!, hooks.mode),
          ),
        });
  const tools = {
    add: tool({
      description: "Adds two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: wrapped(add, hooks),
    }),
    echo: tool({
      description: "Echoes a text.",
      inputSchema: z.object({ text: z.string() }),
      execute: wrapped(echo, hooks),
    }),
  } satisfies ToolSet;
  return { model, tools };
}
