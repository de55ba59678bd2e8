/**
 * A run's events (a stored timeline, plus live events as they come) as what the timeline
 * shows: steps with their attempts, tool calls (what the model asked, what ran, what came
 * back), and every hook firing with what it decided or changed — before and after, read
 * the same way `hookwise trace` reads a recorded run (`src/hooks/trace-changes.ts`).
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

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function keysOf(value) {
  return value && typeof value === "object" ? Object.keys(value).sort().join(",") : typeof value;
}

export function buildRun(events, instructions) {
  const segments = [];
  let step;
  let input = "";
  const cards = new Map();
  // Pass 1: the arguments each call really ran with, for attributing rewrites.
  const ranWith = new Map();
  for (const event of events)
    if (event.type === "tool-execution-start") ranWith.set(event.toolCallId, event.args);

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
          });
        }
        break;
      }
      case "hook": {
        const context = { instructions, input };
        if (event.effect === "rewriteArgs") {
          const candidates = (step?.items ?? []).filter((item) => item.type === "tool" && !item.done);
          const card =
            candidates.find((item) => same(item.ran, event.detail)) ??
            candidates.find((item) => keysOf(item.current) === keysOf(event.detail)) ??
            candidates[0];
          context.args = card?.current;
          context.toolName = card?.toolName;
          if (card) card.current = event.detail;
        } else if (event.effect === "rewriteOutput") {
          const lastStep = [...segments].reverse().find((segment) => segment.kind === "step");
          context.output = lastStep?.text ?? "";
        }
        const { changes, note } = changesOf(event, context);
        const row = { type: "hook", entry: event, changes };
        if (note) row.note = note;
        if (step) step.items.push(row);
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
  return { input, segments };
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
