/**
 * A run's events (a stored timeline, plus live events as they come) as what the timeline
 * shows: steps with their attempts, tool calls (what the model asked, what ran, what came
 * back), and every hook firing with what it decided or changed — before and after.
 */

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

/** A request patch as before/after pairs, field by field. */
export function patchChanges(patch, instructions) {
  const changes = [];
  for (const [field, value] of Object.entries(patch ?? {})) {
    if (field === "system") changes.push({ field, before: instructions ?? "", after: value });
    else if (field === "extraContext" || field === "appendToUserMessage") {
      const added = (Array.isArray(value) ? value : [value]).map((item) =>
        typeof item === "string" ? item : item.text,
      );
      changes.push({ field, before: "", after: added.join("\n") });
    } else if (field === "messages") {
      changes.push({
        field,
        before: "(the transcript)",
        after: `${value.length} message(s) instead, for this attempt only`,
      });
    } else changes.push({ field, before: undefined, after: value });
  }
  return changes;
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
        const row = { type: "hook", entry: event, changes: [] };
        if (event.effect === "patch") row.changes = patchChanges(event.detail, instructions);
        else if (event.effect === "rewriteArgs") {
          const candidates = (step?.items ?? []).filter((item) => item.type === "tool" && !item.done);
          const card =
            candidates.find((item) => same(item.ran, event.detail)) ??
            candidates.find((item) => keysOf(item.current) === keysOf(event.detail)) ??
            candidates[0];
          row.changes = [
            {
              field: card ? `${card.toolName} arguments` : "arguments",
              before: card?.current,
              after: event.detail,
            },
          ];
          if (card) card.current = event.detail;
        } else if (event.effect === "rewriteInput")
          row.changes = [{ field: "input", before: input, after: event.detail }];
        else if (event.effect === "rewriteOutput") {
          const lastStep = [...segments].reverse().find((segment) => segment.kind === "step");
          row.changes = [{ field: "output", before: lastStep?.text ?? "", after: event.detail }];
        } else if (event.effect === "rewriteResult") {
          row.note =
            "the result was rewritten; the original is not shown (a later hook may have redacted it)";
        }
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
