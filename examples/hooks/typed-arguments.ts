/**
 * Typed arguments: a hook given to `agent.use()` whose `match` names one of the agent's
 * tools sees `event.args` typed from that tool's schema — no cast. Here a write outside
 * `drafts/` is denied; the write inside it runs.
 *
 *   npx tsx examples/hooks/typed-arguments.ts
 */
import { pathToFileURL } from "node:url";
import type { RunResult } from "hookwise";
// #region typed-arguments
import { createAgent, defineHook, flow, scriptedModel, tool } from "hookwise";
import { z } from "zod";

const written: string[] = [];
const agent = createAgent({
  model: scriptedModel([
    {
      toolCalls: [
        { name: "write_file", args: { path: "notes.md", content: "x" } },
        { name: "write_file", args: { path: "drafts/notes.md", content: "x" } },
      ],
    },
    { text: "done" },
  ]),
  tools: {
    write_file: tool({
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path }) => {
        written.push(path);
        return `wrote ${path}`;
      },
    }),
  },
});
agent.use(
  defineHook({
    name: "drafts-only",
    on: "tool_call",
    kind: "decide",
    match: "write_file",
    handler: (event) => (event.args.path.startsWith("drafts/") ? undefined : flow.deny("drafts/ only")),
  }),
);
// #endregion typed-arguments

export async function main(): Promise<{ result: RunResult; written: string[] }> {
  const result = await agent.run("Write the notes.");
  return { result, written };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { written: paths } = await main();
  console.log(`written: ${paths.join(", ")}`);
}
