/**
 * A run's timeline: its stream events in order, as kept for the web UI and `GET /runs/:id`.
 * Text and reasoning deltas of a step are merged into one event each; `run-finish` keeps a
 * summary of the result (outcome, reason, steps with their attempts, what each attempt went
 * to) instead of the whole transcript and every request. A resumed run (same run id) adds
 * to the timeline it suspended with.
 */
import type { HookTraceEntry } from "../../hooks/trace.js";
import type { AgentEvent, PendingApproval, RunOutcome, RunResult, Usage } from "../../loop/run-result.js";

/** A failed provider attempt, seen by the server's `model_error` hook (the loop retries or gives up). */
export interface AttemptErrorEvent {
  type: "attempt-error";
  step: number;
  attempt: number;
  agentPath: readonly string[];
  error: { type: string; message: string; status?: number; retryable: boolean };
}

/** What a live run streams: the agent's events, and its failed attempts. */
export type ServerEvent = AgentEvent | AttemptErrorEvent;

/**
 * One hook firing as the server shows it, an SSE `hook` event and a timeline's entry: the
 * stream's `hook` event (a dispatch's firings) is one of these per firing.
 */
export type HookFiringEvent = { type: "hook" } & HookTraceEntry;

/** A stream event as the server sends it: a `hook` event as one event per firing. */
export function eachSent(
  event: ServerEvent,
  send: (event: Exclude<ServerEvent, { type: "hook" }> | HookFiringEvent) => void,
): void {
  if (event.type !== "hook") {
    send(event);
    return;
  }
  for (const entry of event.firings) send({ type: "hook", ...entry });
}

export interface RunSummary {
  runId: string;
  sessionId: string;
  outcome: RunOutcome;
  text: string;
  reason?: string;
  hook?: string;
  usage: Usage;
  steps: { index: number; attempts: number; finishReason: string; usage: Usage }[];
  /** Each attempt: which step, which try, which model it went to. */
  attempts: { step: number; attempt: number; model?: string }[];
  approvals?: Omit<PendingApproval, "token">[];
}

export type TimelineEvent =
  | Exclude<ServerEvent, { type: "text-delta" | "reasoning-delta" | "run-finish" | "hook" }>
  | HookFiringEvent
  | { type: "text"; step: number; text: string }
  | { type: "reasoning"; step: number; text: string }
  | { type: "run-finish"; result: RunSummary };

export interface RunTimeline {
  runId: string;
  sessionId: string;
  agent: string;
  input: string;
  startedAt: number;
  endedAt?: number;
  outcome?: RunOutcome;
  reason?: string;
  events: TimelineEvent[];
}

export function summarize(result: RunResult): RunSummary {
  const summary: RunSummary = {
    runId: result.runId,
    sessionId: result.sessionId,
    outcome: result.outcome,
    text: result.text,
    usage: result.usage,
    steps: result.steps.map((step) => ({
      index: step.index,
      attempts: step.attempts,
      finishReason: step.finishReason,
      usage: step.usage,
    })),
    attempts: result.requests.map((request) => ({
      step: request.step,
      attempt: request.attempt,
      ...(request.model !== undefined ? { model: request.model } : {}),
    })),
  };
  if (result.reason !== undefined) summary.reason = result.reason;
  if (result.hook !== undefined) summary.hook = result.hook;
  if (result.approvals)
    summary.approvals = result.approvals.map(({ token: _token, ...approval }) => approval);
  return summary;
}

/** Appends a stream event to a timeline's list, merging deltas into their step's text. */
export function appendEvent(events: TimelineEvent[], event: ServerEvent): void {
  if (event.type === "text-delta" || event.type === "reasoning-delta") {
    const kind = event.type === "text-delta" ? "text" : "reasoning";
    const last = events.at(-1);
    if (last?.type === kind && last.step === event.step) last.text += event.delta;
    else events.push({ type: kind, step: event.step, text: event.delta });
    return;
  }
  if (event.type === "hook") {
    for (const entry of event.firings) events.push({ type: "hook", ...entry });
    return;
  }
  if (event.type === "run-finish") {
    events.push({ type: "run-finish", result: summarize(event.result) });
    return;
  }
  events.push(event);
}
