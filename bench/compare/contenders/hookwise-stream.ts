/** hookwise `agent.stream()`, every event read (as a UI would). */
import { drain } from "../../shared/workload.js";
import type { CreateContender } from "../contender.js";
import { BenchCheckError, INPUT } from "../script.js";
import { hookwiseAgent } from "./hookwise-agent.js";

/** `stream()`, with or without its per-hook `hook` events. */
export function streamContender(hookEvents: boolean): CreateContender {
  const label = hookEvents ? "hookwise stream()" : "hookwise stream({ hookEvents: false })";
  return (options) => {
    const { agent, store } = hookwiseAgent(options, label);
    return {
      setup: () => store.reset(),
      async run() {
        const result = await drain(agent.stream(INPUT, { hookEvents }));
        if (result.outcome !== "completed") throw new BenchCheckError(`${label}: outcome ${result.outcome}`);
        return result.text;
      },
    };
  };
}

export const create = streamContender(true);
