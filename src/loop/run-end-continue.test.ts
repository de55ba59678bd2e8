import { describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent, defineHook, flow, type ModelMessage, scriptedModel, tool } from "../index.js";

/** A run_end hook that sends the run back once, with feedback; it records what it saw. */
function continueOnce(seen: { continuations: number; outcome: string; output: string }[]) {
  return defineHook({
    name: "keep-going",
    on: "run_end",
    kind: "transform",
    handler: (event) => {
      seen.push({ continuations: event.continuations, outcome: event.outcome, output: event.output });
      if (event.continuations === 0) return flow.retry("Run the tests before you stop.");
      return undefined;
    },
  });
}

function textOf(message: ModelMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return message.content.map((part) => ("text" in part ? part.text : "")).join("");
}

describe("run_end flow.retry: the run goes on instead of finishing", () => {
  it.each(SURFACES)(
    "%s: the feedback is the next user message, the run takes another step, the next run_end says so",
    async (surface) => {
      const seen: { continuations: number; outcome: string; output: string }[] = [];
      const ran: string[] = [];
      const model = scriptedModel([
        { text: "done, I think" },
        { toolCalls: [{ name: "test", args: {} }] },
        { text: "tests pass; done" },
      ]);
      const agent = createAgent({
        model,
        hooks: [continueOnce(seen)],
        tools: { test: tool({ inputSchema: { type: "object" }, execute: () => ran.push("test") && "ok" }) },
      });
      const { result, events } = await runOn(surface, agent, "fix the bug");
      expect(result.outcome).toBe("completed");
      expect(result.text).toBe("tests pass; done");
      expect(ran).toEqual(["test"]);
      expect(model.calls).toHaveLength(3);
      expect(seen).toEqual([
        { continuations: 0, outcome: "completed", output: "done, I think" },
        { continuations: 1, outcome: "completed", output: "tests pass; done" },
      ]);
      // The second request carries the first answer, then the feedback as the user's message.
      const second = result.requests[1]!.messages;
      expect(second.slice(-2).map((message) => [message.role, textOf(message)])).toEqual([
        ["assistant", "done, I think"],
        ["user", "Run the tests before you stop."],
      ]);
      // The transcript keeps the whole exchange; the trace shows the retry with its feedback.
      expect(result.messages.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
      expect(result.events.filter((entry) => entry.event === "run_end")).toEqual([
        {
          event: "run_end",
          hook: "keep-going",
          kind: "transform",
          effect: "retry",
          detail: "Run the tests before you stop.",
        },
        { event: "run_end", hook: "keep-going", kind: "transform", effect: "continue" },
      ]);
      expect(result.steps.map((step) => step.index)).toEqual([0, 1, 2]);
      if (surface === "stream") {
        const finishes = events.filter((event) => event.type === "run-finish");
        expect(finishes).toHaveLength(1);
        expect(events.filter((event) => event.type === "step-start")).toHaveLength(3);
      }
    },
  );

  it.each(SURFACES)("%s: a hook that always retries is stopped by maxSteps", async (surface) => {
    const model = scriptedModel([{ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" }]);
    const agent = createAgent({
      model,
      maxSteps: 3,
      hooks: [
        defineHook({
          name: "never-satisfied",
          on: "run_end",
          kind: "transform",
          handler: (event) => (event.outcome === "completed" ? flow.retry() : undefined),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "go");
    expect(model.calls).toHaveLength(3);
    expect(result.outcome).toBe("max_steps");
    expect(result.hook).toBe("never-satisfied");
    expect(result.reason).toMatch(/maxSteps \(3\)/);
    expect(result.text).toBe("three");
    // Feedback without text is "Continue."; the refused third retry sent none.
    const users = result.messages.filter((message) => message.role === "user").map(textOf);
    expect(users).toEqual(["go", "Continue.", "Continue."]);
  });

  it.each(SURFACES)("%s: only a completed run continues; another outcome stands", async (surface) => {
    const warnings: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: "stop" }] }, { text: "never" }]);
    const agent = createAgent({
      model,
      logger: { debug() {}, info() {}, warn: (message) => warnings.push(message), error() {} },
      tools: { stop: tool({ inputSchema: { type: "object" }, execute: () => "x" }) },
      hooks: [
        defineHook({
          name: "halt",
          on: "tool_call",
          kind: "transform",
          handler: () => flow.terminate("halted"),
        }),
        defineHook({
          name: "retry-anyway",
          on: "run_end",
          kind: "transform",
          handler: () => flow.retry("more"),
        }),
      ],
    });
    const { result } = await runOn(surface, agent, "go");
    expect(result.outcome).toBe("terminated");
    expect(result.reason).toBe("halted");
    expect(model.calls).toHaveLength(1);
    expect(warnings.join("\n")).toMatch(/retry-anyway.*only a completed run can/);
  });
});
