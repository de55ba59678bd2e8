/**
 * The plain loop over the model's stream (`doStream`): the same hand-written loop and hooks as
 * the plain contender, each step's stream read to its end and folded into the parts
 * `doGenerate` would have answered. What it costs beyond the plain loop is the model's
 * stream itself, which every streaming runtime pays.
 */
import { streamedContent } from "../../shared/workload.js";
import type { CreateContender } from "../contender.js";
import { instantModel } from "../instant-model.js";
import { BenchCheckError, FINAL_TEXT } from "../script.js";
import { hookedLoop } from "./plain.js";

export const create: CreateContender = ({ script, hooks }) => {
  const model = instantModel(script, "plain loop over doStream");
  const maxSteps = script.steps + 1;
  return {
    async run() {
      const text = await hookedLoop(model, maxSteps, hooks, streamedContent);
      if (text !== FINAL_TEXT)
        throw new BenchCheckError(`plain loop over doStream: ended with ${JSON.stringify(text)}`);
      return text;
    },
  };
};
