/**
 * Inspect: an audit log of every tool call. Inspect hooks are read-only and never block:
 * they run after the operation with the final data, concurrently, and the run resolves
 * only once they all settled — so even an asynchronous writer loses no entry.
 *
 *   npx tsx examples/hooks/inspect-audit-log.ts
 */
import { pathToFileURL } from "node:url";
import { createAgent, defineHook, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

export interface AuditEntry {
  event: "tool_call" | "tool_result";
  tool: string;
  args: unknown;
  result?: unknown;
}

// #region audit-hooks
/** Two inspect hooks writing to `sink`; the second one writes asynchronously. */
export function auditHooks(sink: AuditEntry[]) {
  return [
    defineHook({
      name: "audit-calls",
      on: "tool_call",
      kind: "inspect",
      handler(event) {
        sink.push({ event: "tool_call", tool: event.qualifiedName, args: event.args });
      },
    }),
    defineHook({
      name: "audit-results",
      on: "tool_result",
      kind: "inspect",
      async handler(event) {
        await new Promise((resolve) => setTimeout(resolve, 10)); // e.g. a write to a log service
        sink.push({
          event: "tool_result",
          tool: event.qualifiedName,
          args: event.args,
          result: event.result,
        });
      },
    }),
  ];
}
// #endregion audit-hooks

export async function main(sink: AuditEntry[] = []): Promise<RunResult> {
  const agent = createAgent({
    name: "weather-bot",
    model: scriptedModel([
      { toolCalls: [{ name: "weather", args: { city: "Paris" } }] },
      { text: "It is 18 °C in Paris." },
    ]),
    tools: {
      weather: tool({
        description: "Current weather in a city.",
        inputSchema: z.object({ city: z.string() }),
        execute: ({ city }) => ({ city, temperatureC: 18 }),
      }),
    },
    hooks: auditHooks(sink),
  });
  return agent.run("What is the weather in Paris?");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const sink: AuditEntry[] = [];
  const result = await main(sink);
  console.log("(scripted model)", result.outcome, "—", result.text);
  console.log("audit log:", sink);
  console.log("hook trace:", result.events);
}
