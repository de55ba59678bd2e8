/**
 * A run's events (a stored timeline, plus live events as they come) as what the timeline
 * shows: steps with their attempts, tool calls (what the model asked, what ran, what came
 * back), and every hook firing with what it decided or changed — before and after, read
 * the same way `hookwise trace` reads a recorded run (`src/hooks/trace-changes.ts`).
 * A firing about a tool call (its entry names the call) sits under that call's card, so
 * each call reads as its arguments, each rewrite, each verdict, its approval, its result.
 */
import { changesOf } from "../../src/hooks/trace-changes.ts";

export { patchChanges } from "../../src/hooks/trace-changes.ts";

/** Adds a live event to a run's event list, merging text deltas like the server's timeline does. */
export function appendEvent(events, event) {
  if (event.type === "text-delta" || event.type === "reasoning-delta") {
    const kind = event.type === "text-delta" ? "text" : "reasoning";
    const last = events.at(-1);
    if (last && last.type === kind && last.step === event.step) {
      events[events.length - 1] = { ...last, text: last.text + event.delta };
    } else {
      events.push({ type: kind, step: event.step, text: event.delta });
    }
    return events;
  }
  events.push(event);
  return events;
}

/**
 * Where a call stands: `ran` / `failed` (its body ran), `denied` (a decision refused it),
 * `running`, `awaiting approval` (the suspended run waits for a human on it), `not run yet`
 * (the run suspended before it ran), `not run` (the run ended without it), `pending`.
 */
export function callStatus(card, run) {
  if (card.done) return card.executed ? (card.isError ? "failed" : "ran") : "denied";
  if (card.executed) return "running";
  if (run.suspended) return card.approval ? "awaiting approval" : "not run yet";
  if (run.ended) return "not run";
  return "pending";
}

export function buildRun(events, instructions) {
  const segments = [];
  let step;
  let input = "";
  const cards = new Map();
  // Pass 1: the arguments each call really ran with.
  const ranWith = new Map();
  for (const event of events)
    if (event.type === "tool-execution-start") ranWith.set(event.toolCallId, event.args);
  // The last finish tells whether the run waits now, and for which calls' approvals.
  const finish = [...events].reverse().find((event) => event.type === "run-finish");
  const lastStart = events.findLastIndex((event) => event.type === "run-start");
  const lastFinish = events.findLastIndex((event) => event.type === "run-finish");
  const ended = lastFinish > lastStart;
  const suspended = ended && finish.result.outcome === "suspended";
  const waiting = new Map();
  if (suspended)
    for (const approval of finish.result.approvals ?? []) waiting.set(approval.toolCallId, approval);

  for (const event of events) {
    switch (event.type) {
      case "run-start":
        input = input || event.input;
        segments.push({
          kind: "start",
          input: event.input,
          resumed: Boolean(event.resumed),
          runId: event.runId,
        });
        step = undefined;
        break;
      case "step-start":
        step = { kind: "step", index: event.step, items: [], text: "", reasoning: "", failures: [] };
        segments.push(step);
        break;
      case "text":
        if (step) step.text += event.text;
        break;
      case "reasoning":
        if (step) step.reasoning += event.text;
        break;
      case "attempt-error":
        if (step) step.failures.push(event);
        break;
      case "tool-call": {
        const card = {
          type: "tool",
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          asked: event.args,
          current: event.args,
          ran: ranWith.get(event.toolCallId),
          executed: ranWith.has(event.toolCallId),
          result: undefined,
          isError: false,
          done: false,
          decisions: [],
          approval: waiting.get(event.toolCallId),
        };
        cards.set(event.toolCallId, card);
        step?.items.push(card);
        break;
      }
      case "tool-result": {
        const card = cards.get(event.toolCallId);
        if (card) {
          card.result = event.result;
          card.isError = event.isError;
          card.done = true;
        } else {
          step?.items.push({
            type: "tool",
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            result: event.result,
            isError: event.isError,
            done: true,
            executed: ranWith.has(event.toolCallId),
            decisions: [],
          });
        }
        break;
      }
      case "hook": {
        const context = { instructions, input };
        // A decision about a call names it: it goes under that call's card.
        const card = event.toolCallId === undefined ? undefined : cards.get(event.toolCallId);
        if (card && event.effect === "rewriteArgs") {
          context.args = card.current;
          context.toolName = card.toolName;
          card.current = event.detail;
        } else if (event.effect === "rewriteOutput") {
          const lastStep = [...segments].reverse().find((segment) => segment.kind === "step");
          context.output = lastStep?.text ?? "";
        }
        const { changes, note } = changesOf(event, context);
        const row = { type: "hook", entry: event, changes };
        if (note) row.note = note;
        if (card) card.decisions.push(row);
        else if (step) step.items.push(row);
        else segments.push({ kind: "hooks", items: [row] });
        break;
      }
      case "step-finish":
        if (step) {
          step.finishReason = event.finishReason;
          step.usage = event.usage;
        }
        step = undefined;
        break;
      case "run-finish":
        segments.push({ kind: "finish", result: event.result });
        step = undefined;
        break;
      default:
        break;
    }
  }
  return { input, segments, status: { ended, suspended } };
}

/** The text the assistant said in a run, over all its steps. */
export function assistantText(events) {
  return events
    .filter((event) => event.type === "text")
    .map((event) => event.text)
    .join("\n\n");
}

export function outcomeOf(events) {
  const finish = [...events].reverse().find((event) => event.type === "run-finish");
  return finish?.result;
}
