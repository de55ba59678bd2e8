import { describe, expect, it } from "vitest";
import type { AnyEventPayload } from "../../events/payloads.js";
import { NOT_FIRED } from "../../hooks/invoke-hook.js";
import { hookEntrySchema } from "../schema/schema.js";
import { compileHookEntry } from "./compile-hook.js";
import { testContext, testServices } from "./test-evaluation.js";

type Handler = (event: AnyEventPayload, context: unknown) => unknown;

function compiled(entry: Record<string, unknown>, services = testServices()) {
  const hook = compileHookEntry(hookEntrySchema().parse(entry), services);
  return (hook as unknown as { handler: Handler }).handler;
}

const call = (command: string): AnyEventPayload => ({
  type: "tool_call",
  toolName: "Bash",
  qualifiedName: "Bash",
  toolCallId: "c1",
  args: { command },
  agentPath: ["main"],
});

const gate = {
  id: "no-rm",
  on: "tool_call",
  condition: { type: "expression", expr: 'args.command.startsWith("rm")' },
  action: { type: "gate" },
};

describe("a config hook's answer", () => {
  it("is synchronous while its condition and action are: no promise for the engine to wait on", () => {
    const handler = compiled(gate);
    const denied = handler(call("rm -rf /"), testContext());
    expect(denied).not.toBeInstanceOf(Promise);
    expect(denied).toMatchObject({ type: "deny", reason: 'blocked by hook "no-rm"' });
    expect(handler(call("ls"), testContext())).toBe(NOT_FIRED);
  });

  it("throws at once when its condition fails to evaluate (the engine fails closed on it)", () => {
    const handler = compiled({ ...gate, condition: { type: "expression", expr: 'tool.name == "x"' } });
    const runEnd: AnyEventPayload = {
      type: "run_end",
      output: "done",
      outcome: "completed",
      continuations: 0,
      agentPath: ["main"],
    } as AnyEventPayload;
    expect(() => handler(runEnd, testContext())).toThrow();
  });

  it("compiles its condition at its first event: one that does not compile throws there (fails closed), not at load", () => {
    let handler: Handler | undefined;
    expect(() => {
      handler = compiled({ ...gate, condition: { type: "expression", expr: "args.command.(" } });
    }).not.toThrow();
    expect(() => handler!(call("rm -rf /"), testContext())).toThrow(/malformed|expression|args\.command/i);
  });

  it("waits on the store for its limits, and the cap holds", async () => {
    const services = testServices();
    const handler = compiled({ ...gate, max_fires: 2 }, services);
    const answers: unknown[] = [];
    for (let index = 0; index < 4; index++) {
      const answer = handler(call("rm x"), testContext());
      expect(answer).toBeInstanceOf(Promise);
      answers.push(await answer);
    }
    expect(answers.map((answer) => (answer === NOT_FIRED ? "not fired" : "deny"))).toEqual([
      "deny",
      "deny",
      "not fired",
      "not fired",
    ]);
    // A call the condition lets through is not counted, and answers at once.
    expect(handler(call("ls"), testContext())).toBe(NOT_FIRED);
  });
});
