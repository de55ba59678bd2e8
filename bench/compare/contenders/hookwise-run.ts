/** hookwise `agent.run()`. */
import type { CreateContender } from "../contender.js";
import { BenchCheckError, INPUT } from "../script.js";
import { hookwiseAgent } from "./hookwise-agent.js";

export const create: CreateContender = (options) => {
  const { agent, store } = hookwiseAgent(options, "hookwise run()");
  return {
    setup: () => store.reset(),
    async run() {
      const result = await agent.run(INPUT);
      if (result.outcome !== "completed")
        throw new BenchCheckError(`hookwise run(): outcome ${result.outcome}`);
      return result.text;
    },
  };
};
