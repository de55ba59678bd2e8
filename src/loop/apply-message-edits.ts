/**
 * Applies the transcript edits hooks returned (`flow.replaceMessages`, `flow.compact`), in
 * hook order, before the event's injected messages are appended. Targets are found by
 * identity in the live transcript; one an earlier edit already removed makes that edit a
 * no-op (logged), one that was never in it fails closed. An edit that would separate a tool call from its result fails closed.
 * A compaction fires `pre_compact` first (a decide deny or a transform skip cancels it, a
 * failing hook too — fail-closed means no compaction), then builds its replacement and
 * archives what it removed (saved with the session: nothing is lost); a removed message
 * the replacement puts back was moved, not removed, and is not archived.
 */
import { newlyUnpaired } from "../context/tool-pairing.js";
import { HookError } from "../errors/hook-error.js";
import type { EventName } from "../events/catalogue.js";
import type { ModelMessage } from "../events/payloads.js";
import type { MessageEdit } from "../hooks/flow.js";
import { contextFor, payload, type RunState } from "./run-state.js";
import { beforeTranscriptChange } from "./step-slots.js";
import type { RunEnd } from "./types.js";

export type EditsOutcome =
  | { kind: "applied" }
  | { kind: "failure"; error: HookError }
  | { kind: "terminate"; reason: string; hook: string };

const APPLIED: EditsOutcome = { kind: "applied" };

type Compaction = Extract<MessageEdit, { kind: "compact" }>;

/** Positions of `targets` in `messages` (ascending), or undefined when one is missing. */
function positionsOf(
  messages: readonly ModelMessage[],
  targets: readonly ModelMessage[],
): number[] | undefined {
  const positions: number[] = [];
  for (const target of new Set(targets)) {
    const index = messages.indexOf(target);
    if (index < 0) return undefined;
    positions.push(index);
  }
  return positions.sort((a, b) => a - b);
}

/** `messages` without `positions`, with `inserted` where the first of them was. */
function spliced(
  messages: readonly ModelMessage[],
  positions: readonly number[],
  inserted: readonly ModelMessage[],
): ModelMessage[] {
  const drop = new Set(positions);
  const next: ModelMessage[] = [];
  messages.forEach((message, index) => {
    if (index === positions[0]) next.push(...inserted);
    if (!drop.has(index)) next.push(message);
  });
  return next;
}

function pairingFailure(
  hook: string,
  event: EventName,
  before: readonly ModelMessage[],
  after: ModelMessage[],
) {
  const broken = newlyUnpaired(before, after);
  if (broken.length === 0) return undefined;
  return new HookError({
    hook,
    event,
    reason: "invalid_result",
    message: `edited the transcript so that tool call ${broken.map((id) => `"${id}"`).join(", ")} lost its call or its result; a tool call and its result are removed or replaced together`,
  });
}

/** Fires pre_compact; returns whether the compaction may go on, or how the run ends. */
async function preCompact(
  state: RunState,
  hook: string,
  remove: readonly ModelMessage[],
): Promise<"go" | "cancelled" | EditsOutcome> {
  if (!state.runner.wants("pre_compact")) return "go";
  const event = payload(state, "pre_compact", {
    messages: state.messages.slice(),
    tokens: state.meter.tokens(state.messages),
    remove,
  });
  const context = contextFor(state);
  const decided = await state.runner.blocking(event, context);
  state.runner.inspect(event, context);
  if (decided.failure) {
    state.log.warn(`compaction by hook "${hook}" cancelled (fail-closed): ${decided.failure.message}`);
    return "cancelled";
  }
  const terminal = decided.terminal;
  if (terminal?.flow.type === "terminate")
    return { kind: "terminate", reason: terminal.flow.reason, hook: terminal.hook };
  if (terminal) {
    state.log.info(`compaction by hook "${hook}" cancelled by pre_compact hook "${terminal.hook}"`);
    return "cancelled";
  }
  return "go";
}

async function compact(
  state: RunState,
  event: EventName,
  hook: string,
  edit: Compaction,
  positions: number[],
): Promise<EditsOutcome> {
  const before = state.messages;
  const removed = positions.map((index) => before[index]!);
  const failure = pairingFailure(hook, event, before, spliced(before, positions, []));
  if (failure) return { kind: "failure", error: failure };
  const decision = await preCompact(state, hook, removed);
  if (decision === "cancelled") return APPLIED;
  if (decision !== "go") return decision;
  let replacement: readonly ModelMessage[];
  try {
    replacement = typeof edit.replacement === "function" ? await edit.replacement(removed) : edit.replacement;
  } catch (error) {
    // Nothing was removed yet: the transcript stays whole.
    state.log.error(
      `compaction by hook "${hook}" abandoned: its replacement failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return APPLIED;
  }
  const next = spliced(state.messages, positions, replacement);
  const broken = pairingFailure(hook, event, state.messages, next);
  if (broken) return { kind: "failure", error: broken };
  // A message the replacement puts back (moved, not removed) is not archived.
  const gone = removed.filter((message) => !replacement.includes(message));
  // The run's list is made at its first compaction (until then it shares an empty one).
  if (gone.length) state.archived = state.archived.length ? [...state.archived, ...gone] : gone;
  replaceTranscript(state, next);
  state.log.info(
    `hook "${hook}" compacted ${gone.length} messages into ${replacement.length - (removed.length - gone.length)}${edit.reason ? ` (${edit.reason})` : ""}`,
  );
  return APPLIED;
}

function replaceTranscript(state: RunState, next: readonly ModelMessage[]): void {
  // Requests kept as prefixes of the transcript take their lists before it changes, and
  // histories made views of it keep reading it as it was.
  beforeTranscriptChange(state);
  state.messages.splice(0, state.messages.length, ...next);
}

export async function applyMessageEdits(
  state: RunState,
  event: EventName,
  edits: readonly { hook: string; edit: MessageEdit }[],
): Promise<EditsOutcome> {
  if (edits.length === 0) return APPLIED;
  const userMessage = state.messages[state.userMessageIndex];
  // What the transcript held before these edits: a target outside it was never there.
  const before = new Set(state.messages);
  try {
    for (const { hook, edit } of edits) {
      const targets = edit.kind === "replace" ? edit.targets : edit.remove;
      const positions = positionsOf(state.messages, targets);
      if (positions === undefined && targets.some((target) => !before.has(target))) {
        const name = edit.kind === "replace" ? "replaceMessages" : "compact";
        return {
          kind: "failure",
          error: new HookError({
            hook,
            event,
            reason: "invalid_result",
            field: edit.kind === "replace" ? "targets" : "remove",
            message: `${name} names a message that is not in the transcript: give the message objects read from ctx.messages (a copy is not the message)`,
          }),
        };
      }
      if (positions === undefined) {
        state.log.warn(
          `hook "${hook}": ${edit.kind === "replace" ? "replaceMessages" : "compact"} skipped: a message it names is not in the transcript (an earlier edit replaced it, or it was never there)`,
        );
        continue;
      }
      if (positions.length === 0) continue;
      if (edit.kind === "replace") {
        const next = spliced(state.messages, positions, edit.messages);
        const failure = pairingFailure(hook, event, state.messages, next);
        if (failure) return { kind: "failure", error: failure };
        replaceTranscript(state, next);
        continue;
      }
      const outcome = await compact(state, event, hook, edit, positions);
      if (outcome.kind !== "applied") return outcome;
    }
    return APPLIED;
  } finally {
    // The run's user message may have moved (or gone: then request patches have none to extend).
    if (userMessage !== undefined) state.userMessageIndex = state.messages.indexOf(userMessage);
  }
}

/** How the run ends after its edits (a failed-closed edit, a pre_compact terminate), or undefined. */
export function editsEnd(outcome: EditsOutcome, text: string): RunEnd | undefined {
  if (outcome.kind === "failure")
    return {
      outcome: "error",
      text,
      reason: outcome.error.message,
      hook: outcome.error.hook,
      error: outcome.error,
    };
  if (outcome.kind === "terminate")
    return { outcome: "terminated", text, reason: outcome.reason, hook: outcome.hook };
  return undefined;
}
