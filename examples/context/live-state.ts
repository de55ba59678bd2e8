/**
 * A per-request context plugin as a hook: where a plugin returns `{context}` from
 * `pre_api_request`, here a `model_request` transform returns a patch that appends a fresh
 * snapshot to the run's user message — in the outbound copy of that attempt only. Every
 * attempt (a retry too) runs the hook again; the transcript never sees a snapshot.
 *
 *   npx tsx examples/context/live-state.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, flow, type RunResult, scriptedModel, tool } from "hookwise";

// #region live-state
let apiCallCount = 0; // counts every provider request attempt

const injectLiveState = defineHook({
  name: "inject-live-state",
  on: "model_request",
  kind: "transform",
  handler(event) {
    apiCallCount++;
    return flow.patch({
      appendToUserMessage: `Snapshot for request ${apiCallCount} (history len=${event.history.length})`,
    });
  },
});
// #endregion live-state

const readPage = tool({
  description: "Read the current page",
  inputSchema: { type: "object", properties: {} },
  execute: () => "<h1>Checkout</h1>",
});

export const model = () =>
  scriptedModel([
    { toolCalls: [{ name: "read_page" }] }, // request 1: the model looks at the page
    { error: { status: 429, message: "rate limited" } }, // request 2 fails (retryable)
    { text: "You are on the checkout page." }, // request 3: the retry answers
  ]);

export async function main(scripted = model()): Promise<RunResult> {
  apiCallCount = 0;
  const agent = createAgent({
    name: "browser",
    model: scripted,
    tools: { read_page: readPage },
    hooks: [injectLiveState],
    retry: { initialDelayMs: 0 },
  });
  return agent.run("Where am I?");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await main();
  console.log("(scripted model)", result.outcome, "—", result.text);
  for (const request of result.requests)
    console.log(`step ${request.step} attempt ${request.attempt}:`, JSON.stringify(request.messages[0]));
  console.log("transcript:", JSON.stringify(result.messages));
}
