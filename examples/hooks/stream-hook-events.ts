/**
 * A stream's `hook` events: one per dispatch of an event to its hooks, carrying the firings
 * of that dispatch's hooks in the order they fired. A hook that stops the dispatch (here a
 * deny) is its last firing, and the event comes before the run acts on it.
 *
 *   npx tsx examples/hooks/stream-hook-events.ts
 */
import { pathToFileURL } from "node:url";
import { type Agent, createAgent, defineHook, flow, type RunResult, scriptedModel, tool } from "hookwise";
import { z } from "zod";

/** An agent whose model asks to wipe, and two decide hooks on its tool calls. */
export function wipingAgent(wiped: string[] = []): Agent {
  return createAgent({
    model: scriptedModel([{ toolCalls: [{ name: "wipe", args: {} }] }, { text: "I may not." }]),
    tools: {
      wipe: tool({
        inputSchema: z.object({}),
        execute: () => {
          wiped.push("everything");
          return "wiped";
        },
      }),
    },
    hooks: [
      defineHook({ name: "audit", on: "tool_call", kind: "decide", handler: () => undefined }),
      defineHook({ name: "no-wipe", on: "tool_call", kind: "decide", handler: () => flow.deny("not here") }),
    ],
  });
}

// #region print-hook-events
export async function printHookEvents(agent: Agent, print = console.log): Promise<RunResult> {
  const live = agent.stream("wipe it");
  for await (const event of live) {
    if (event.type !== "hook") continue;
    // One event per dispatch: its hooks' firings, in the order they fired.
    for (const entry of event.firings) print(`${event.event}: ${entry.hook} → ${entry.effect}`);
  }
  // tool_call: audit → continue
  // tool_call: no-wipe → deny
  return live.result;
}
// #endregion print-hook-events

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await printHookEvents(wipingAgent());
  console.log("(scripted model)", result.outcome, "—", result.text);
}
