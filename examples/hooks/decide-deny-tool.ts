/**
 * Decide: a guard that denies one tool call and allows its sibling. A decide hook is
 * read-only and blocking; it runs after every transform of the event, so it judges the
 * arguments that would really be used. A denied tool never runs: the model gets an error
 * result naming the hook, and the run goes on.
 *
 *   npx tsx examples/hooks/decide-deny-tool.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, flow, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

// #region protect-env-files
const protectEnvFiles = defineHook({
  name: "protect-env-files",
  on: "tool_call",
  kind: "decide",
  match: "delete_file", // a picomatch pattern over the qualified and the function name
  handler(event) {
    const { path } = event.args as { path: string };
    if (path.endsWith(".env")) return flow.deny(`${path} is protected`);
    return flow.allow(); // or undefined: both let the call through
  },
});
// #endregion protect-env-files

/** `files` is the tool's side effect: a pretend file system the example's test inspects. */
export async function main(
  files: Map<string, string> = new Map([
    ["notes.md", "# notes"],
    ["secrets.env", "API_KEY=sk-123"],
  ]),
): Promise<RunResult> {
  const agent = createAgent({
    name: "janitor",
    model: scriptedModel([
      {
        toolCalls: [
          { name: "delete_file", args: { path: "notes.md" } },
          { name: "delete_file", args: { path: "secrets.env" } },
        ],
      },
      { text: "Deleted notes.md; secrets.env is protected." },
    ]),
    tools: {
      delete_file: tool({
        description: "Deletes a file.",
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => {
          files.delete(path);
          return `deleted ${path}`;
        },
      }),
    },
    hooks: [protectEnvFiles],
  });
  return agent.run("Clean up the workspace.");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const files = new Map([
    ["notes.md", "# notes"],
    ["secrets.env", "API_KEY=sk-123"],
  ]);
  const result = await main(files);
  console.log("(scripted model)", result.outcome, "—", result.text);
  console.log("files left:", [...files.keys()]);
  console.log("tool results:", result.steps[0]?.toolResults);
}
