/**
 * Sub-agents in code: `createAgent({ agents: { cleaner } })` gives the parent a tool
 * `agents_cleaner` ({ task }). The parent's policy denying fs.delete_file also governs
 * the sub-agent's own calls, and a hook with `scope: "self"` stays out of the sub-agent.
 *
 *   npx tsx examples/tools/sub-agents.ts
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, filesystemToolset, policy, type RunResult, scriptedModel } from "hookwise";

/** Runs the example in `root` (a folder holding keep.txt); `seen` collects the audit hook's lines. */
export async function main(root: string, seen: string[] = []): Promise<RunResult> {
  // #region sub-agents
  const fs = await filesystemToolset("fs", { root }); // fs.read_file, fs.delete_file, …
  const cleaner = createAgent({
    name: "cleaner",
    model: scriptedModel([
      { toolCalls: [{ name: "fs_delete_file", args: { path: "keep.txt" } }] },
      { text: "I could not delete keep.txt: deleting files is not allowed." },
    ]),
    tools: fs.tools,
  });
  const main = createAgent({
    name: "main",
    model: scriptedModel([
      { toolCalls: [{ name: "agents_cleaner", args: { task: "Delete keep.txt" } }] },
      { text: "The cleaner was not allowed to delete keep.txt." },
    ]),
    agents: { cleaner }, // the tool agents.cleaner (function agents_cleaner)
    policies: [policy.deny("fs.delete_file", { reason: "deleting files is not allowed" })],
    hooks: [
      defineHook({
        name: "audit-main-only",
        on: "tool_call",
        kind: "inspect",
        scope: "self", // not inside sub-agents
        handler: (event) => {
          seen.push(`${event.agentPath.join("/")} ${event.qualifiedName}`);
        },
      }),
    ],
  });
  const result = await main.run("Tidy up the workspace.");
  // #endregion sub-agents
  await fs.close();
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const root = mkdtempSync(join(tmpdir(), "hookwise-example-"));
  writeFileSync(join(root, "keep.txt"), "precious");
  const seen: string[] = [];
  try {
    const result = await main(root, seen);
    console.log("(scripted models)", result.outcome, "—", result.text);
    console.log("the sub-agent answered:", result.steps[0]?.toolResults[0]?.result);
    console.log("audit (scope self):", seen);
    console.log("keep.txt still there:", existsSync(join(root, "keep.txt")));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
