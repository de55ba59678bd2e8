/**
 * Policies: declarative tool rules compiled into one decide hook on `tool_call`.
 * The most specific rule wins (exact name, then glob, then "*"); at one level deny beats
 * ask beats allow. `askUser` with a handler asks it; without one, the agent's approval
 * channel (or an `approval_request` hook) answers, and with neither the run suspends
 * until `agent.resume` decides (docs/approvals.md).
 *
 *   npx tsx examples/hooks/policies.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, policy, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

// #region policies
const policies = [
  policy.deny("*", { reason: "not on the allow-list" }),
  policy.allow("read_*"),
  policy.askUser("write_file", {
    handler: (call) => (call.args as { path: string }).path.startsWith("drafts/"),
  }),
];
// #endregion policies

/** `written` records the write tool's side effect for the example's test. */
export async function main(written: string[] = []): Promise<RunResult> {
  const agent = createAgent({
    name: "writer",
    model: scriptedModel([
      {
        toolCalls: [
          { name: "read_file", args: { path: "README.md" } },
          { name: "write_file", args: { path: "drafts/plan.md", text: "plan" } },
          { name: "write_file", args: { path: "/etc/hosts", text: "oops" } },
          { name: "delete_file", args: { path: "README.md" } },
        ],
      },
      { text: "Read the README and wrote the draft." },
    ]),
    tools: {
      read_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: ({ path }) => `contents of ${path}`,
      }),
      write_file: tool({
        inputSchema: z.object({ path: z.string(), text: z.string() }),
        execute: ({ path }) => {
          written.push(path);
          return "ok";
        },
      }),
      delete_file: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: () => "deleted",
      }),
    },
    policies,
  });
  return agent.run("Draft a plan.");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const written: string[] = [];
  const result = await main(written);
  console.log("(scripted model)", result.outcome, "—", result.text);
  for (const entry of result.steps[0]?.toolResults ?? []) {
    console.log(`${entry.toolName}: executed=${entry.executed}`, entry.result);
  }
  console.log("written:", written);
}
