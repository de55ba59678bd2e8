/**
 * A stateless server: it keeps nothing between requests; the client sends the history back
 * with each message (`RunResult.messages` of the last answer). Injection state lives in the
 * history itself — the TTL of inject-memories.yaml is written into the injected call's id —
 * so the memory server is asked once an hour however many processes serve the client.
 *
 *   npx tsx examples/context/stateless-server.ts
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadConfig, MemoryStore, type ModelMessage, type ScriptedModel, scriptedModel } from "hookwise";

const CONFIG = fileURLToPath(new URL("./inject-memories.yaml", import.meta.url));

// #region serve
/** One HTTP request's worth of work: a fresh agent, an empty store, the client's history. */
export async function serve(
  input: string,
  history: readonly ModelMessage[],
  options: { now: () => number; model: ScriptedModel },
): Promise<ModelMessage[]> {
  const config = await loadConfig(CONFIG, { store: new MemoryStore(), now: options.now });
  try {
    const agent = await config.createAgent(undefined, { model: options.model });
    const result = await agent.run(input, { messages: history });
    return result.messages; // back to the client, which sends them with its next message
  } finally {
    await config.close();
  }
}
// #endregion serve

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  let now = Date.now();
  const model = scriptedModel([{ text: "Lyon." }, { text: "Still Lyon." }]);
  let history = await serve("Where do I live?", [], { now: () => now, model });
  now += 30 * 60_000;
  history = await serve("And now?", history, { now: () => now, model });
  console.log(JSON.stringify(history, null, 2));
}
