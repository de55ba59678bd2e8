/**
 * A `type: "prompt"` handler, as Claude Code runs one: its prompt (the event's JSON in place
 * of `$ARGUMENTS`, or after it) goes to a model, which answers `{ "ok": true }` to let the
 * operation go on or `{ "ok": false, "reason": "…" }` to block it — the same as a command's
 * exit 2 with that reason on stderr (a Stop hook keeps the agent going with the reason, a
 * PreToolUse hook denies the call). An answer that holds no such object, a model that
 * fails or runs past the timeout is a non-blocking error, like a crashing command.
 */

import { ClaudeHookError } from "../claude-hook-error.js";
import type { PromptHandlerSpec } from "../settings/claude-handler-spec.js";
import type { ClaudeAnswer } from "./read-claude-answer.js";

/** Asks a model: `model` as the handler names it (undefined: the config's default). Answers its text. */
export type PromptAnswerer = (request: {
  readonly prompt: string;
  readonly model: string | undefined;
  readonly signal: AbortSignal;
}) => Promise<string>;

const INSTRUCTIONS =
  'Answer with one JSON object and nothing else: {"ok": true} when the condition is met, or {"ok": false, "reason": "<what is wrong, for the agent>"} when it is not.';

export function promptText(spec: PromptHandlerSpec, input: string): string {
  const body = spec.prompt.includes("$ARGUMENTS")
    ? spec.prompt.split("$ARGUMENTS").join(input)
    : `${spec.prompt}\n\n${input}`;
  return `${body}\n\n${INSTRUCTIONS}`;
}

function verdictOf(text: string): { ok: boolean; reason?: string } | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end < start) return undefined;
  try {
    const value = JSON.parse(text.slice(start, end + 1)) as { ok?: unknown; reason?: unknown };
    if (typeof value.ok !== "boolean") return undefined;
    return typeof value.reason === "string" ? { ok: value.ok, reason: value.reason } : { ok: value.ok };
  } catch {
    return undefined;
  }
}

export async function runPromptHandler(
  spec: PromptHandlerSpec,
  input: string,
  answer: PromptAnswerer | undefined,
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<ClaudeAnswer> {
  if (!answer) throw new ClaudeHookError("no model is given to answer prompt handlers");
  const timeout = AbortSignal.timeout(timeoutSeconds * 1000);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let text: string;
  try {
    text = await Promise.race([
      answer({ prompt: promptText(spec, input), model: spec.model, signal: both }),
      new Promise<never>((_, reject) =>
        both.addEventListener("abort", () => reject(new Error(`no answer within ${timeoutSeconds} s`)), {
          once: true,
        }),
      ),
    ]);
  } catch (error) {
    throw new ClaudeHookError(`the model did not answer the prompt: ${(error as Error).message}`);
  }
  const verdict = verdictOf(text);
  if (!verdict)
    throw new ClaudeHookError(
      `the model's answer holds no {"ok": true|false} object: ${JSON.stringify(text.slice(0, 200))}`,
    );
  const reason = verdict.ok ? "" : (verdict.reason ?? "the prompt hook said no");
  return { blocked: !verdict.ok, stderr: reason, output: undefined, text: "", unknownFields: [] };
}
