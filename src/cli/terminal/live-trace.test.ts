import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../loop/run-result.js";
import { LiveTrace } from "./live-trace.js";

function capture() {
  let out = "";
  const trace = new LiveTrace({ line: (text) => (out += `${text}\n`), write: (text) => (out += text) });
  return {
    trace,
    lines: () =>
      out
        .split("\n")
        .filter(Boolean)
        .map((line) => line.trim()),
  };
}

const firing = (name: string, event: string, kind = "inspect") => ({
  hook: name,
  event,
  kind,
  effect: kind === "inspect" ? "observed" : "continue",
});
/** A dispatch's `hook` event: one firing per name. */
const hooks = (names: string[], event: string, kind = "inspect") =>
  ({ type: "hook", event, firings: names.map((name) => firing(name, event, kind)) }) as AgentEvent;
const hook = (name: string, event: string, kind = "inspect") => hooks([name], event, kind);
const call = (id: string) =>
  ({ type: "tool-call", step: 0, toolCallId: id, toolName: id, args: {} }) as AgentEvent;
const start = (id: string) =>
  ({ type: "tool-execution-start", step: 0, toolCallId: id, toolName: id, args: {} }) as AgentEvent;
const result = (id: string) =>
  ({
    type: "tool-result",
    step: 0,
    toolCallId: id,
    toolName: id,
    result: "ok",
    isError: false,
  }) as AgentEvent;
const step = (index: number) => ({ type: "step-start", step: index }) as AgentEvent;
const finish = (index: number) => ({ type: "step-finish", step: index }) as AgentEvent;

describe("the live trace's order", () => {
  it("a hook's log line waits for the hook's own line, one per firing, even when it came first", () => {
    const { trace, lines } = capture();
    trace.event(step(0));
    trace.log("✎ first", "audit");
    trace.log("✎ second", "audit");
    trace.log("✎ not a hook's");
    trace.event(call("a"));
    trace.event(hook("audit", "tool_call"));
    trace.event(hook("audit", "tool_call"));
    expect(lines()).toEqual([
      "── step 1",
      "✎ not a hook's",
      "model calls a {}",
      "✎ first",
      "⚑ hook audit [inspect on tool_call] → observed",
      "✎ second",
      "⚑ hook audit [inspect on tool_call] → observed",
    ]);
  });

  it("tool_result hooks follow the batch's results; an inspection finishing after its step comes before the next step's header, or is marked with its step", () => {
    const { trace, lines } = capture();
    trace.event(step(0));
    trace.event(call("a"));
    trace.event(hook("gate", "tool_call", "decide"));
    trace.event(hook("note", "tool_result", "transform"));
    trace.event(start("a"));
    trace.event(result("a"));
    trace.event(finish(0));
    trace.event(step(1));
    trace.event(hook("slow", "tool_result"));
    trace.event({ type: "text-delta", step: 1, delta: "hi" } as AgentEvent);
    trace.event(hook("slower", "tool_result"));
    trace.event(finish(1));
    expect(lines()).toEqual([
      "── step 1",
      "model calls a {}",
      "⚑ hook gate [decide on tool_call] → continue",
      "▶ run a {}",
      "◀ a: ok",
      "⚑ hook note [transform on tool_result] → continue",
      "⚑ hook slow [inspect on tool_result] → observed",
      "── step 2",
      "assistant: hi",
      "⚑ hook slower [inspect on tool_result] → observed (step 1)",
    ]);
  });

  it("a resumed run's first step is the suspended step's batch: its hooks are not marked as an earlier step's", () => {
    const { trace, lines } = capture();
    trace.event({ type: "run-start", runId: "r1", input: "pay", resumed: true } as AgentEvent);
    trace.event(step(2));
    trace.event(hook("audit", "tool_call"));
    trace.event(hook("seen", "tool_result"));
    trace.event(start("a"));
    trace.event(result("a"));
    trace.event(finish(2));
    expect(lines()).toEqual([
      "› pay  (resuming run r1)",
      "── step 3",
      "⚑ hook audit [inspect on tool_call] → observed",
      "▶ run a {}",
      "◀ a: ok",
      "⚑ hook seen [inspect on tool_result] → observed",
    ]);
  });

  it("a dispatch's firings are a line each, in order, each after its own log line", () => {
    const { trace, lines } = capture();
    trace.event(step(0));
    trace.log("✎ from b", "b");
    trace.event(hooks(["a", "b", "c"], "model_request", "transform"));
    expect(lines()).toEqual([
      "── step 1",
      "⚑ hook a [transform on model_request] → continue",
      "✎ from b",
      "⚑ hook b [transform on model_request] → continue",
      "⚑ hook c [transform on model_request] → continue",
    ]);
  });

  it("flush prints what still waits (a run that ended before its hooks' lines came)", () => {
    const { trace, lines } = capture();
    trace.log("✎ orphan", "gone");
    trace.flush();
    expect(lines()).toEqual(["✎ orphan"]);
  });
});
