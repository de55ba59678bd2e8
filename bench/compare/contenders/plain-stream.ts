/**
 * The plain loop over the model's stream (`doStream`): the same hand-written loop and hooks as
 * the plain contender, each step's stream read to its end and folded into the parts
 * `doGenerate` would have answered. What it costs beyond the plain loop is the model's
 * stream itself, which every streaming runtime pays.
 */
import type { LanguageModelV3Content } from "@ai-sdk/provider";
import type { CreateContender } from "../contender.js";
import { instantModel } from "../instant-model.js";
import { BenchCheckError, FINAL_TEXT } from "../script.js";
import { type CallModel, hookedLoop } from "./plain.js";

/** Reads one step's stream: its text deltas joined, its tool calls in order. */
const stream: CallModel = async (model, options) => {
  const { stream: parts } = await model.doStream(options);
  const content: LanguageModelV3Content[] = [];
  let text = "";
  const reader = parts.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value.type === "text-delta") text += value.delta;
    else if (value.type === "tool-call") content.push(value);
  }
  if (text) content.unshift({ type: "text", text });
  return { content };
};

export const create: CreateContender = ({ script, hooks }) => {
  const model = instantModel(script, "plain loop over doStream");
  const maxSteps = script.steps + 1;
  return {
    async run() {
      const text = await hookedLoop(model, maxSteps, hooks, stream);
      if (text !== FINAL_TEXT)
        throw new BenchCheckError(`plain loop over doStream: ended with ${JSON.stringify(text)}`);
      return text;
    },
  };
};
