/**
 * `PreCompact` → `pre_compact`: a compaction of the agent's transcript is about to happen
 * (`trigger: "auto"`: hookwise compacts on hooks' behalf, never on a user's command; the
 * matcher is the trigger). Exit 2, `decision: "block"` or `continue: false` vetoes it.
 */
import { flow } from "../../../../hooks/flow.js";
import { blockOf, stopOf } from "./answer-parts.js";
import type { ClaudeEvent } from "./claude-event.js";

export const preCompact: ClaudeEvent = {
  name: "PreCompact",
  event: "pre_compact",
  kind: "decide",
  scope: "self",
  subject: () => ["auto"],
  input: () => ({ trigger: "auto", custom_instructions: "" }),
  verdict(answer) {
    const stop = stopOf(answer);
    if (stop !== undefined) return { permission: flow.deny(stop) };
    const block = blockOf(answer);
    return block ? { permission: flow.deny(block.reason ?? "compaction blocked by a PreCompact hook") } : {};
  },
};
