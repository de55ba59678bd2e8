/**
 * A before-observer: an inspect hook with `when: "before"` runs after every decide allowed
 * the call and before the tool's body, awaited. Here it saves the file's old content before
 * `write_file` replaces it. Its failure is logged and isolated; the write still happens.
 *
 *   npx tsx examples/hooks/backup-before-write.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

/** The tool's side effect: a pretend file system the example's test inspects. */
const files = new Map<string, string>([["notes.md", "old notes"]]);
const saved = new Map<string, string>();
const backups = {
  async save(path: string): Promise<void> {
    saved.set(path, files.get(path) ?? "");
  },
};

// #region backup-before-write
const backupBeforeWrite = defineHook({
  name: "backup-before-write",
  on: "tool_call",
  kind: "inspect",
  when: "before",
  match: "write_file",
  async handler(event) {
    await backups.save((event.args as { path: string }).path); // the old content
  },
});
// #endregion backup-before-write

export async function main(): Promise<{
  result: RunResult;
  files: Map<string, string>;
  saved: Map<string, string>;
}> {
  const agent = createAgent({
    name: "writer",
    model: scriptedModel([
      { toolCalls: [{ name: "write_file", args: { path: "notes.md", content: "new notes" } }] },
      { text: "Written." },
    ]),
    tools: {
      write_file: tool({
        description: "Write a file",
        inputSchema: z.object({ path: z.string(), content: z.string() }),
        execute: ({ path, content }) => {
          files.set(path, content);
          return "ok";
        },
      }),
    },
    hooks: [backupBeforeWrite],
  });
  const result = await agent.run("Rewrite notes.md");
  return { result, files, saved };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { saved } = await main();
  console.log(`backed up before the write: ${saved.get("notes.md")}`);
}
