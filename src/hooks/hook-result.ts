/**
 * Which results each event accepts, per hook kind — as types (a wrong result is a
 * compile error) and as runtime tables (plain JS and YAML-compiled hooks fail closed).
 */
import type { EventName, HookKind } from "../events/catalogue.js";
import type {
  FlowAllow,
  FlowAsk,
  FlowDeny,
  FlowEditMessages,
  FlowFallback,
  FlowInject,
  FlowPatch,
  FlowRepair,
  FlowRetry,
  FlowRewriteArgs,
  FlowRewriteInput,
  FlowRewriteOutput,
  FlowRewriteResult,
  FlowSkip,
  FlowTerminate,
  FlowType,
} from "./flow.js";

interface TransformResults {
  session_start: FlowInject | FlowTerminate;
  session_end: never;
  run_start: FlowRewriteInput | FlowInject | FlowEditMessages | FlowTerminate;
  step_start: FlowInject | FlowEditMessages | FlowTerminate;
  model_request: FlowPatch | FlowTerminate;
  model_response: never;
  model_error: FlowRetry | FlowFallback | FlowTerminate;
  model_turn_finished: never;
  tool_call: FlowRewriteArgs | FlowSkip | FlowTerminate;
  tool_result: FlowRewriteResult | FlowTerminate;
  tool_error: FlowRewriteResult | FlowTerminate;
  invalid_tool_call: FlowRetry | FlowRepair | FlowSkip | FlowTerminate;
  step_end: FlowInject | FlowEditMessages | FlowTerminate;
  run_end: FlowRewriteOutput | FlowInject | FlowEditMessages | FlowRetry | FlowTerminate;
  pre_compact: FlowSkip | FlowTerminate;
  approval_request: FlowAllow | FlowDeny;
  agent_spawn: never;
  agent_complete: never;
  text_delta: never;
  reasoning_delta: never;
  tool_call_delta: never;
  activation: FlowInject;
}

interface DecideResults {
  run_start: FlowAllow | FlowDeny;
  model_request: FlowAllow | FlowDeny;
  tool_call: FlowAllow | FlowDeny | FlowAsk;
  run_end: FlowAllow | FlowDeny;
  pre_compact: FlowAllow | FlowDeny;
  agent_spawn: FlowAllow | FlowDeny;
}

type DecideResult<E extends EventName> = E extends keyof DecideResults ? DecideResults[E] : never;

/** What a hook of kind `K` on event `E` may return (`undefined` = continue). */
export type HookResult<E extends EventName, K extends HookKind = HookKind> =
  | undefined
  | void
  | (K extends "transform" ? TransformResults[E] : never)
  | (K extends "decide" ? DecideResult<E> : never);

const transform: Record<EventName, readonly FlowType[]> = {
  session_start: ["inject", "terminate"],
  session_end: [],
  run_start: ["rewriteInput", "inject", "editMessages", "terminate"],
  step_start: ["inject", "editMessages", "terminate"],
  model_request: ["patch", "terminate"],
  model_response: [],
  model_error: ["retry", "fallback", "terminate"],
  model_turn_finished: [],
  tool_call: ["rewriteArgs", "skip", "terminate"],
  tool_result: ["rewriteResult", "terminate"],
  tool_error: ["rewriteResult", "terminate"],
  invalid_tool_call: ["retry", "repair", "skip", "terminate"],
  step_end: ["inject", "editMessages", "terminate"],
  run_end: ["rewriteOutput", "inject", "editMessages", "retry", "terminate"],
  pre_compact: ["skip", "terminate"],
  approval_request: ["allow", "deny"],
  agent_spawn: [],
  agent_complete: [],
  text_delta: [],
  reasoning_delta: [],
  tool_call_delta: [],
  activation: ["inject"],
};

const decide: Partial<Record<EventName, readonly FlowType[]>> = {
  run_start: ["allow", "deny"],
  model_request: ["allow", "deny"],
  tool_call: ["allow", "deny", "ask"],
  run_end: ["allow", "deny"],
  pre_compact: ["allow", "deny"],
  agent_spawn: ["allow", "deny"],
};

/** The result types a hook of this kind may return on this event (runtime mirror of `HookResult`). */
export function acceptedResults(event: EventName, kind: HookKind): readonly FlowType[] {
  if (kind === "transform") return transform[event];
  if (kind === "decide") return decide[event] ?? [];
  return [];
}
