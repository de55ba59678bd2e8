import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../loop/run-result.js";
import { useColor } from "./colors.js";
import { eventRenderer } from "./render-event.js";

describe("colours of the live trace", () => {
  it("on a terminal; NO_COLOR turns them off; FORCE_COLOR turns them on (not over NO_COLOR)", () => {
    expect(useColor(true, {})).toBe(true);
    expect(useColor(false, {})).toBe(false);
    expect(useColor(true, { NO_COLOR: "1" })).toBe(false);
    expect(useColor(true, { NO_COLOR: "" })).toBe(true); // empty means unset
    expect(useColor(false, { FORCE_COLOR: "1" })).toBe(true);
    expect(useColor(true, { FORCE_COLOR: "0" })).toBe(false);
    expect(useColor(false, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(false);
    expect(useColor(true, { TERM: "dumb" })).toBe(false);
  });

  function render(color: boolean, events: AgentEvent[]): string {
    let out = "";
    const draw = eventRenderer(
      { line: (text) => (out += `${text}\n`), write: (text) => (out += text) },
      { color },
    );
    for (const event of events) draw(event);
    return out;
  }

  const events = [
    { type: "tool-execution-start", toolName: "calc_add", args: { a: 1 } },
    { type: "tool-result", toolName: "calc_add", result: 2, isError: false },
    {
      type: "hook",
      event: "tool_call",
      firings: [{ hook: "no-rm", kind: "decide", event: "tool_call", effect: "deny" }],
    },
  ] as unknown as AgentEvent[];

  it("with colours, the same lines wrapped in ANSI codes", () => {
    const plain = render(false, events);
    const coloured = render(true, events);
    expect(plain).not.toContain("\u001b[");
    expect(coloured).toContain("\u001b[36m▶ run\u001b[39m");
    expect(coloured).toContain("\u001b[31mdeny\u001b[39m");
    expect(coloured.replace(new RegExp(`${"\u001b"}\\[\\d+m`, "g"), "")).toBe(plain);
  });
});
