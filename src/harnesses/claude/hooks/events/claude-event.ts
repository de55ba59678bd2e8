/**
 * One Claude Code hook event as hookwise runs it: the hookwise event its handlers compile
 * to, where they fire, what their matcher is compared with, the event's input fields, and
 * what an answer means there. Each event is a module of this folder, registered in index.ts.
 */
import type { EventName } from "../../../../events/catalogue.js";
import type { AnyEventPayload } from "../../../../events/payloads.js";
import type { Flow, FlowAllow, FlowAsk, FlowDeny } from "../../../../hooks/flow.js";
import type { HookContext } from "../../../../hooks/hook-context.js";
import type { ClaudeTools, ClaudeToolView } from "../claude-tools.js";
import type { ClaudeAnswer } from "../handlers/read-claude-answer.js";

/** One firing of a handler: the hook, the hookwise event's payload and context, the tool's view. */
export interface ClaudeCall<P extends AnyEventPayload = AnyEventPayload> {
  /** The hookwise hook's name (settings source, place, script). */
  readonly hook: string;
  readonly payload: P;
  readonly context: HookContext;
  /** Tool events: the tool as Claude Code hooks see it. */
  readonly tool: ClaudeToolView | undefined;
  readonly tools: ClaudeTools;
}

/** What an answer amounts to on this event. */
export interface ClaudeVerdict {
  /** The hook's result (a rewrite, an injection, a retry, a terminate…). */
  flow?: Flow | undefined;
  /** PreToolUse, PreCompact, PermissionRequest: allow / deny / ask. */
  permission?: FlowAllow | FlowDeny | FlowAsk | undefined;
  /** For the model: delivered as a user message at the end of the step (tool events). */
  context?: string[];
  /** For the user (an exit 2 where nothing can be blocked, an ignored field): logged. */
  notice?: string | undefined;
}

export interface ClaudeEvent {
  /** Claude Code's name (`PreToolUse`). */
  readonly name: string;
  readonly event: EventName;
  /** How its handlers run (an `async: true` handler runs as inspect whatever this says). */
  readonly kind: "transform" | "decide" | "inspect";
  /** PreToolUse: the permission part of the answer runs as a decide hook, after every rewrite. */
  readonly permission?: boolean;
  /** Where it fires: the agent and its sub-agents, the agent only, its sub-agents only. */
  readonly scope: "all" | "self" | "children";
  /** Tool events: a handler's `scope` may narrow where it fires. */
  readonly scopable?: boolean;
  /** Claude Code's default timeout of its handlers, seconds (600 unless said). */
  readonly timeout?: number;
  /** What the matcher is compared with; absent: the event takes no matcher. */
  subject?(call: ClaudeCall): readonly string[];
  /** Whether it fires for this payload at all (PostToolUse: only for a tool that did not fail). */
  fires?(payload: AnyEventPayload): boolean;
  /** The event's own input fields (the common ones are added by the compiler). */
  input(call: ClaudeCall): Record<string, unknown>;
  verdict(answer: ClaudeAnswer, call: ClaudeCall): ClaudeVerdict;
}
