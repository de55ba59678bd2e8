/**
 * Transform: inject fresh context into every provider request. A `model_request` hook
 * returns a RequestPatch applied to the outbound copy of that attempt only: the
 * transcript never changes, and a retried attempt rebuilds the request and re-runs the
 * hooks, so it carries only its own, fresh context. Patches of several hooks accumulate.
 *
 *   npx tsx examples/hooks/transform-inject-context.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, flow, type RunResult, scriptedModel } from "hookwise";

// #region inject-context
let clock = 0; // stands for Date.now(): a value that differs on every attempt

const injectClock = defineHook({
  name: "inject-clock",
  on: "model_request",
  kind: "transform",
  handler(_event, ctx) {
    clock++;
    return flow.patch({ extraContext: [{ id: "clock", text: `tick ${clock} (attempt ${ctx.attempt})` }] });
  },
});

const injectProfile = defineHook({
  name: "inject-profile",
  on: "model_request",
  kind: "transform",
  handler(event) {
    // Every model_request hook sees the baseline request, not the other hooks' patches.
    if (event.isFirstStep) return flow.patch({ extraContext: ["The user prefers metric units."] });
  },
});
// #endregion inject-context

export const model = () =>
  scriptedModel([
    { error: { status: 429, message: "rate limited" } }, // attempt 1 fails (retryable)
    { text: "About 18 °C." }, // attempt 2 answers
  ]);

export async function main(scripted = model()): Promise<RunResult> {
  clock = 0;
  const agent = createAgent({
    name: "assistant",
    model: scripted,
    hooks: [injectClock, injectProfile],
    retry: { initialDelayMs: 0 },
  });
  return agent.run("How warm is it?");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await main();
  console.log("(scripted model)", result.outcome, "—", result.text);
  for (const request of result.requests) {
    console.log(`attempt ${request.attempt} sent:`, JSON.stringify(request.messages.at(-1)));
  }
  console.log("transcript:", JSON.stringify(result.messages));
}
