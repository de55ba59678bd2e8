/** hookwise `agent.stream()`, every event read (as a UI would). */
import { drain } from "../../shared/workload.js";
import type { CreateContender } from "../contender.js";
import { BenchCheckError, INPUT } from "../script.js";
import { hookwiseAgent } from "./hookwise-agent.js";

export const create: CreateContender = (options) => {
  const { agent, store } = hookwiseAgent(options, "hookwise stream()");
  return {
    setup: () => store.reset(),
    async run() {
      const result = await drain(agent.stream(INPUT));
      if (result.outcome !== "completed")
        throw new BenchCheckError(`hookwise stream(): outcome ${result.outcome}`);
      return result.text;
    },
  };
};
