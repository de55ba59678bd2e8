/**
 * A session hookwise stopped, held stopped. Some harnesses go on with a session whatever a
 * hook answers at some of its events: Claude Code and Gemini CLI start a session a
 * SessionStart hook denied or ended, and Gemini CLI reads nothing a PreCompress hook answers.
 * When hookwise's decision there is to stop the session, the stop is kept in the config's
 * store under the harness's session id, and every later event of that session that can be
 * refused (a prompt, a model request, a tool call, a permission prompt) is, with the reason.
 *
 * A deny or an end at `session_start` holds on every harness (one that honours it sends no
 * later event, and a session resumed later stays stopped: a start let through after it, which
 * a compaction or a condition on the start's source may make, does not undo it); at another
 * event, only an end
 * (`flow.terminate`), and only where the protocol says the harness ignores it
 * (`HarnessProtocol.stopIgnoredAt`): a compaction refused is not a session stopped.
 */
import type { StateStore } from "../state/state-store.js";
import type { HarnessEvent, HarnessEventKind, HarnessProtocol, HarnessVerdict } from "./types.js";

/** What the store keeps of a stop. */
interface HeldStop {
  /** The harness's event the session was stopped at (`SessionStart`). */
  readonly at: string;
  /** Whether that event was the session's start. */
  readonly atStart: boolean;
  readonly reason: string;
  readonly hook?: string;
}

/** The events a held session has refused: those whose deny stops what they are about. */
const REFUSED: ReadonlySet<HarnessEventKind> = new Set([
  "run_start",
  "model_request",
  "tool_call",
  "approval_request",
]);

/** How long a stop is held: as long as the session's records are kept, not for ever. */
const HOLD_TTL_MS = 30 * 24 * 60 * 60 * 1000;

function heldKey(event: HarnessEvent): string {
  return `harness-stopped:${event.harness}:${event.sessionId}`;
}

/** Whether `verdict`, at `event`, stops a session the harness goes on with. */
function stopsSession(protocol: HarnessProtocol, event: HarnessEvent, verdict: HarnessVerdict): boolean {
  if (event.kind === "session_start") return verdict.decision === "deny" || verdict.stop !== undefined;
  return verdict.stop !== undefined && mayHoldSession(protocol, event.kind);
}

/**
 * Whether a session stopped at one of `protocol`'s events needs its later events to reach
 * hookwise (setup registers the harness's prompt and tool events then): a blocking hook on
 * `session_start`, or on an event whose end the harness ignores.
 */
export function mayHoldSession(protocol: HarnessProtocol, event: string): boolean {
  return event === "session_start" || (protocol.stopIgnoredAt?.some((kind) => kind === event) ?? false);
}

/**
 * Keeps the stop `verdict` decided at `event`, when it stops a session the harness goes on
 * with; `mask` masks the credentials in its reason first (the entry is kept as long as the store).
 */
export async function holdSessionIfStopped(
  store: StateStore,
  protocol: HarnessProtocol,
  event: HarnessEvent,
  verdict: HarnessVerdict,
  mask: <T>(value: T) => T = (value) => value,
): Promise<void> {
  if (!stopsSession(protocol, event, verdict)) return;
  const held: HeldStop = {
    at: event.name,
    atStart: event.kind === "session_start",
    reason: verdict.stop ?? verdict.reason ?? "stopped by hookwise",
    ...(verdict.hook !== undefined ? { hook: verdict.hook } : {}),
  };
  await store.set(heldKey(event), mask(held), { ttlMs: HOLD_TTL_MS });
}

/**
 * The refusal of `event` when its session is held stopped; undefined when it is not, or when
 * the event is not one a deny refuses (a session's end, a tool's result, the agent's stop: a
 * deny there would send the agent back to work).
 */
export async function heldSessionRefusal(
  store: StateStore,
  event: HarnessEvent,
): Promise<HarnessVerdict | undefined> {
  if (!REFUSED.has(event.kind)) return undefined;
  const held = await store.get<HeldStop>(heldKey(event));
  if (held === undefined) return undefined;
  const by = held.hook !== undefined ? ` by hook "${held.hook}"` : "";
  const where = held.atStart ? `at its start (${held.at})` : `at ${held.at}`;
  return {
    decision: "deny",
    reason: `hookwise stopped this session ${where}${by}: ${held.reason.replace(/[.\s]+$/, "")}. Nothing more of it runs; start a new session.`,
    ...(held.hook !== undefined ? { hook: held.hook } : {}),
  };
}
