/** The event catalogue: canonical names, every seed alias, kinds per event. */
import { describe, expect, test } from "vitest";
import {
  ALL_EVENT_SPELLINGS,
  canonicalEventName,
  DELTA_EVENTS,
  EVENT_ALIASES,
  EVENT_KINDS,
  EVENT_NAMES,
  isEventName,
  TOOL_EVENTS,
} from "../index.js";

const SEED_ALIASES: Record<string, string> = {
  turn_start: "run_start",
  user_prompt: "run_start",
  on_request_start: "run_start",
  pre_turn: "run_start",
  on_pre_llm: "step_start",
  pre_api_request: "model_request",
  completion_call: "model_request",
  pre_llm_call: "model_request",
  post_api_request: "model_response",
  completion_response: "model_response",
  error: "model_error",
  tool_start: "tool_call",
  pre_tool_use: "tool_call",
  on_pre_tool_use: "tool_call",
  tool_end: "tool_result",
  post_tool_use: "tool_result",
  on_post_tool_use: "tool_result",
  on_iteration_end: "step_end",
  turn_end: "run_end",
  on_completion: "run_end",
  stop: "run_end",
};

describe("event catalogue", () => {
  test.each(Object.entries(SEED_ALIASES))("alias %s → %s", (alias, canonical) => {
    expect(canonicalEventName(alias)).toBe(canonical);
    expect(isEventName(alias)).toBe(false);
    expect(ALL_EVENT_SPELLINGS).toContain(alias);
  });

  test("the alias table is exactly the seeds' aliases, and every target is canonical", () => {
    expect(EVENT_ALIASES).toEqual(SEED_ALIASES);
    for (const target of Object.values(EVENT_ALIASES)) expect(isEventName(target)).toBe(true);
  });

  test("every canonical name maps to itself; unknown names map to nothing", () => {
    for (const name of EVENT_NAMES) expect(canonicalEventName(name)).toBe(name);
    expect(canonicalEventName("tool_cal")).toBeUndefined();
    expect(canonicalEventName("toString")).toBeUndefined();
    expect(canonicalEventName("__proto__")).toBeUndefined();
  });

  test("the catalogue has the events of DESIGN §2", () => {
    expect([...EVENT_NAMES].sort()).toEqual(
      [
        "session_start",
        "session_end",
        "run_start",
        "step_start",
        "model_request",
        "model_response",
        "model_error",
        "model_turn_finished",
        "tool_call",
        "tool_result",
        "tool_error",
        "invalid_tool_call",
        "step_end",
        "run_end",
        "pre_compact",
        "approval_request",
        "agent_spawn",
        "agent_complete",
        "text_delta",
        "reasoning_delta",
        "tool_call_delta",
        "activation",
      ].sort(),
    );
  });

  test("kinds per event follow DESIGN §2", () => {
    for (const name of EVENT_NAMES) expect(EVENT_KINDS[name]).toContain("inspect");
    const inspectOnly = EVENT_NAMES.filter((name) => EVENT_KINDS[name].length === 1);
    expect(inspectOnly.sort()).toEqual(
      [
        "session_end",
        "model_response",
        "model_turn_finished",
        "agent_complete",
        "text_delta",
        "reasoning_delta",
        "tool_call_delta",
      ].sort(),
    );
    for (const name of [
      "run_start",
      "model_request",
      "tool_call",
      "run_end",
      "pre_compact",
      "agent_spawn",
    ] as const)
      expect(EVENT_KINDS[name]).toContain("decide");
    expect(EVENT_KINDS.tool_result).not.toContain("decide");
    for (const name of DELTA_EVENTS) expect(EVENT_KINDS[name]).toEqual(["inspect"]);
    expect([...TOOL_EVENTS]).toEqual(
      expect.arrayContaining(["tool_call", "tool_result", "tool_error", "invalid_tool_call"]),
    );
  });
});
