/**
 * Transform: redact a tool result before the model, the transcript or the trace see it.
 * `tool_result` transforms chain in priority order: each sees the previous one's rewrite
 * (redact, then truncate), and `event.original` keeps what the tool really returned.
 *
 *   npx tsx examples/hooks/transform-redact-result.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, flow, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

export const CARD_NUMBER = "4111 1111 1111 1111";

// #region redact-then-truncate
const redactCardNumbers = defineHook({
  name: "redact-card-numbers",
  on: "tool_result",
  kind: "transform",
  priority: 10, // lower runs first
  handler(event) {
    const text = JSON.stringify(event.result);
    const redacted = text.replace(/\b(?:\d[ -]?){13,16}\b/g, "[redacted card]");
    if (redacted !== text) return flow.rewriteResult(JSON.parse(redacted));
  },
});

const truncateNotes = defineHook({
  name: "truncate-notes",
  on: "tool_result",
  kind: "transform",
  priority: 20, // sees the redacted result, not the raw one
  handler(event) {
    const result = event.result as { notes?: string };
    if (result.notes && result.notes.length > 40) {
      return flow.rewriteResult({ ...result, notes: `${result.notes.slice(0, 40)}…` });
    }
  },
});
// #endregion redact-then-truncate

export async function main(): Promise<RunResult> {
  const agent = createAgent({
    name: "support",
    model: scriptedModel([
      { toolCalls: [{ name: "lookup_customer", args: { id: "c-42" } }] },
      { text: "Ada Lovelace's card is on file." },
    ]),
    tools: {
      lookup_customer: tool({
        description: "Looks a customer up by id.",
        inputSchema: z.object({ id: z.string() }),
        execute: ({ id }) => ({
          id,
          name: "Ada Lovelace",
          card: CARD_NUMBER,
          notes: `Called on 2024-05-01 about card ${CARD_NUMBER}; asked for a new statement.`,
        }),
      }),
    },
    hooks: [truncateNotes, redactCardNumbers], // registration order does not matter: priority does
  });
  return agent.run("Do we have a card for customer c-42?");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await main();
  console.log("(scripted model)", result.outcome, "—", result.text);
  console.log("what the model saw:", result.steps[0]?.toolResults[0]?.result);
  console.log("hook trace:", result.events);
}
