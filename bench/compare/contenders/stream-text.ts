/** The AI SDK's `streamText`, every part of its full stream read (as a UI would). */
import { stepCountIs, streamText } from "ai";
import type { CreateContender } from "../contender.js";
import { INPUT, INSTRUCTIONS } from "../script.js";
import { aiSdkSetup } from "./ai-sdk-setup.js";

export const create: CreateContender = (options) => {
  const { model, tools } = aiSdkSetup(options, "streamText");
  const stopWhen = stepCountIs(options.script.steps + 1);
  return {
    async run() {
      let failure: unknown;
      const result = streamText({
        model,
        system: INSTRUCTIONS,
        prompt: INPUT,
        tools,
        stopWhen,
        // streamText reports errors here instead of rejecting; keep the first to fail the run.
        onError: ({ error }) => {
          failure ??= error;
        },
      });
      for await (const _part of result.fullStream) {
        // read every part
      }
      if (failure !== undefined) throw failure;
      return result.text;
    },
  };
};
