/**
 * Compaction from code, and a veto. `flow.compact` asks the loop to remove messages; the
 * loop fires `pre_compact` first, where a decide hook may refuse. Here a compactor keeps
 * the latest 2 messages, and a guard refuses any compaction that would remove a message
 * marked "PINNED".
 *
 *   npx tsx examples/context/keep-pinned.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, flow, MemoryStore, type RunResult, scriptedModel } from "hookwise";

// #region keep-pinned
const compactor = defineHook({
  name: "compact-all-but-2",
  on: "run_start",
  kind: "transform",
  handler(_event, ctx) {
    if (ctx.messages.length <= 2) return;
    return flow.compact({
      remove: ctx.messages.slice(0, -2),
      reason: "older than the last exchange",
      // Called only if no pre_compact hook vetoed: a summary is never made in vain.
      replacement: (removed) => [{ role: "system", content: `[${removed.length} older messages archived]` }],
    });
  },
});

const keepPinned = defineHook({
  name: "keep-pinned",
  on: "pre_compact",
  kind: "decide",
  handler(event) {
    const pinned = event.remove.some((message) => JSON.stringify(message.content).includes("PINNED"));
    return pinned ? flow.deny("a pinned message would be removed") : flow.allow();
  },
});
// #endregion keep-pinned

export async function main(inputs: readonly string[]): Promise<{ results: RunResult[]; store: MemoryStore }> {
  const store = new MemoryStore();
  const agent = createAgent({
    model: scriptedModel(inputs.map((_, index) => ({ text: `answer ${index + 1}` }))),
    hooks: [compactor, keepPinned],
    store,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  const results: RunResult[] = [];
  for (const input of inputs) results.push(await agent.run(input, { sessionId: "pinned" }));
  return { results, store };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { results, store } = await main(["hello", "hi", "PINNED: my order id is 42", "ok", "thanks"]);
  console.log("transcript:", JSON.stringify(results.at(-1)!.messages, null, 2));
  console.log("archived:", JSON.stringify((await store.loadSession("pinned"))!.archived ?? []));
}
