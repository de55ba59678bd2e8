/**
 * Which messages a compaction removes (`compact_context`), as a pure function:
 * a prefix of the transcript, cut only where no tool call is separated from its result,
 * keeping at least `keepRecent` messages and any protected one (the current run's
 * question), and — with a target — no more than needed to fit it.
 */
import type { ModelMessage } from "../events/payloads.js";
import { toolCallIdsOf } from "./tool-pairing.js";

export interface CompactionPlanOptions {
  messages: readonly ModelMessage[];
  /** At least this many of the latest messages are kept. */
  keepRecent: number;
  /** Messages never removed, wherever they are (they keep their place). */
  protect?: readonly ModelMessage[];
  /**
   * Remove no more than needed for the kept messages plus the replacement to take at most
   * this many tokens (as much as allowed when even that does not fit). Undefined: remove
   * everything but the `keepRecent` latest messages.
   */
  targetTokens?: number;
  /** Tokens a transcript takes (the kept messages, without the replacement). */
  tokensOf: (messages: readonly ModelMessage[]) => number;
  /** Tokens the replacement (summary, marker) will take. */
  replacementTokens: number;
}

export interface CompactionPlan {
  /** Removed, in transcript order. */
  remove: ModelMessage[];
  /** What stays, in transcript order (the replacement goes where the first removed message was). */
  kept: ModelMessage[];
}

/** Cuts `c` (remove messages[0..c)) that split no tool call from its result. */
function safeCuts(messages: readonly ModelMessage[]): boolean[] {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  messages.forEach((message, index) => {
    for (const id of toolCallIdsOf(message)) {
      if (!first.has(id)) first.set(id, index);
      last.set(id, index);
    }
  });
  // A cut c is unsafe when an id has a message before it and one at or after it.
  const crossing = new Array<number>(messages.length + 2).fill(0);
  for (const [id, start] of first) {
    const end = last.get(id)!;
    if (end > start) {
      crossing[start + 1]! += 1;
      crossing[end + 1]! -= 1;
    }
  }
  const safe: boolean[] = [];
  let open = 0;
  for (let cut = 0; cut <= messages.length; cut++) {
    open += crossing[cut]!;
    safe.push(open === 0);
  }
  return safe;
}

/** The compaction to do, or undefined when there is nothing to remove (or no need). */
export function planCompaction(options: CompactionPlanOptions): CompactionPlan | undefined {
  const { messages, targetTokens } = options;
  const protect = new Set(options.protect ?? []);
  if (targetTokens !== undefined && options.tokensOf(messages) <= targetTokens) return undefined;
  const safe = safeCuts(messages);
  const split = (cut: number): CompactionPlan => {
    const remove: ModelMessage[] = [];
    const kept: ModelMessage[] = [];
    messages.forEach((message, index) => {
      (index < cut && !protect.has(message) ? remove : kept).push(message);
    });
    return { remove, kept };
  };
  let chosen: CompactionPlan | undefined;
  for (let cut = 1; cut <= messages.length - Math.max(options.keepRecent, 0); cut++) {
    if (!safe[cut]) continue;
    const plan = split(cut);
    if (plan.remove.length === 0) continue;
    chosen = plan;
    if (targetTokens !== undefined && options.tokensOf(plan.kept) + options.replacementTokens <= targetTokens)
      return plan;
  }
  return chosen;
}
