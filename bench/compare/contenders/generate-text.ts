/** The AI SDK's `generateText`, run until the model answers without tool calls. */
import { generateText, stepCountIs } from "ai";
import type { CreateContender } from "../contender.js";
import { INPUT, INSTRUCTIONS } from "../script.js";
import { aiSdkSetup } from "./ai-sdk-setup.js";

export const create: CreateContender = (options) => {
  const { model, tools } = aiSdkSetup(options, "generateText");
  const stopWhen = stepCountIs(options.script.steps + 1);
  return {
    async run() {
      const result = await generateText({ model, system: INSTRUCTIONS, prompt: INPUT, tools, stopWhen });
      return result.text;
    },
  };
};
