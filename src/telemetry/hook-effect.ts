/**
 * What a hook firing amounts to on its span: one word for the decision (`effect`), the
 * reason a hook gave, and digests of what a rewrite changed. Never the content itself: a
 * rewrite is often a redaction, and the value before it is what must not leave the process.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import type { AnyEventPayload } from "../events/payloads.js";
import type { HookTraceEntry } from "../hooks/trace.js";

export type HookEffect = "allowed" | "denied" | "rewrote" | "patched" | "injected" | "asked" | "failed";

const EFFECTS: Readonly<Record<string, HookEffect>> = {
  continue: "allowed",
  observed: "allowed",
  allow: "allowed",
  deny: "denied",
  terminate: "denied",
  skip: "denied",
  rewriteArgs: "rewrote",
  rewriteResult: "rewrote",
  rewriteInput: "rewrote",
  rewriteOutput: "rewrote",
  repair: "rewrote",
  editMessages: "rewrote",
  fallback: "rewrote",
  patch: "patched",
  inject: "injected",
  retry: "injected",
  ask: "asked",
  error: "failed",
  timeout: "failed",
  aborted: "failed",
  fail_open: "failed",
};

/** The effect of a trace entry's answer (`allowed` for one this list does not know). */
export function effectOf(entry: HookTraceEntry): HookEffect {
  return EFFECTS[entry.effect] ?? "allowed";
}

/** Answers whose detail is a reason (or feedback, or an error message): text a hook wrote to explain itself. */
const REASONED = new Set(["deny", "terminate", "ask", "retry", "error", "timeout", "aborted", "fail_open"]);

export function reasonOf(entry: HookTraceEntry): string | undefined {
  return REASONED.has(entry.effect) && typeof entry.detail === "string" ? entry.detail : undefined;
}

/** The payload field each rewrite replaces. */
const REWRITTEN: Readonly<Record<string, string>> = {
  rewriteArgs: "args",
  rewriteResult: "result",
  rewriteInput: "input",
  rewriteOutput: "output",
};

/**
 * Keyed by a secret made at the process's first digest: equal values have equal digests within
 * one process, and a digest cannot be turned back into its value, not even a short one
 * by trying every candidate.
 */
let key: Buffer | undefined;

export function digest(value: unknown): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  key ??= nodeCrypto().randomBytes(32);
  return nodeCrypto().createHmac("sha256", key).update(text).digest("hex").slice(0, 32);
}

/** Digests of the rewritten field before and after a rewrite; undefined for any other answer. */
export function rewriteDigests(
  entry: HookTraceEntry,
  before: AnyEventPayload,
  after: AnyEventPayload | undefined,
): { before: string; after: string } | undefined {
  const field = REWRITTEN[entry.effect];
  if (field === undefined || after === undefined) return undefined;
  return {
    before: digest((before as unknown as Record<string, unknown>)[field]),
    after: digest((after as unknown as Record<string, unknown>)[field]),
  };
}
