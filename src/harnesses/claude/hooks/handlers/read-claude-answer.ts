/**
 * What a Claude Code hook handler answered, read by Claude Code's rules (its hooks
 * reference, "Exit code output" and "JSON output"):
 * - exit 0: stdout holding a JSON object is the answer; other stdout is plain text (context
 *   for `UserPromptSubmit` and `SessionStart`, ignored elsewhere);
 * - exit 2: a blocking error, stderr is the reason; stdout and any JSON in it are ignored;
 * - any other exit code, a start failure, a timeout: a non-blocking error (here, a
 *   `ClaudeHookError`, which blocks only when the handler's failure mode says so);
 * - an http handler: a 2xx with an empty body is success with no output, with a JSON
 *   object the same answer as a command's stdout; any other body, a non-2xx status or a
 *   connection failure is a non-blocking error. Http handlers cannot block by status.
 * JSON with a field of the wrong type is unusable output (an error too); unknown fields are
 * reported, never fatal.
 */
import { lazy } from "../../../../deps/load-package.js";
import { z } from "../../../../deps/zod.js";
import { ClaudeHookError } from "../claude-hook-error.js";
import type { CommandResult } from "./run-command-handler.js";

const permissionDecision = lazy(() => z.enum(["allow", "deny", "ask", "defer"]));

const hookSpecificSchema = lazy(() =>
  z.looseObject({
    hookEventName: z.string().optional(),
    permissionDecision: permissionDecision().optional(),
    permissionDecisionReason: z.string().optional(),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    additionalContext: z.string().optional(),
    updatedMCPToolOutput: z.unknown().optional(),
    /** PermissionRequest's answer. */
    decision: z
      .looseObject({
        behavior: z.enum(["allow", "deny"]),
        message: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        interrupt: z.boolean().optional(),
      })
      .optional(),
  }),
);

const outputSchema = lazy(() =>
  z.looseObject({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    suppressOutput: z.boolean().optional(),
    systemMessage: z.string().optional(),
    /** `block` everywhere it applies; `approve` is PreToolUse's older spelling of allow. */
    decision: z.enum(["block", "approve"]).optional(),
    reason: z.string().optional(),
    hookSpecificOutput: hookSpecificSchema().optional(),
  }),
);

export type ClaudeOutput = z.output<ReturnType<typeof outputSchema>>;

const KNOWN = lazy(() => new Set(Object.keys(outputSchema().shape)));
const KNOWN_SPECIFIC = lazy(() => new Set(Object.keys(hookSpecificSchema().shape)));

export interface ClaudeAnswer {
  /** Exit 2: Claude Code's blocking error; `stderr` is the reason. */
  readonly blocked: boolean;
  readonly stderr: string;
  /** The JSON object of a successful answer. */
  readonly output: ClaudeOutput | undefined;
  /** Plain (non-JSON) stdout of a successful answer. */
  readonly text: string;
  /** JSON fields hookwise does not know (`hookSpecificOutput.x` for nested ones). */
  readonly unknownFields: readonly string[];
}

/** Keeps messages readable: a crash's stack trace is cut to its last lines. */
function tail(text: string, max = 600): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}

/** A JSON answer: checked field by field; unknown fields listed, wrong types an error. */
export function parseClaudeOutput(text: string): { output: ClaudeOutput; unknownFields: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ClaudeHookError(
      `printed output that is not valid JSON (${(error as Error).message}): ${tail(text, 200)}`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ClaudeHookError(`printed JSON that is not an object: ${tail(text, 200)}`);
  const parsed = outputSchema().safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ClaudeHookError(
      `answered with unusable JSON: ${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
  }
  const unknownFields = Object.keys(value).filter((key) => !KNOWN().has(key));
  const specific = (value as { hookSpecificOutput?: unknown }).hookSpecificOutput;
  if (specific && typeof specific === "object")
    for (const key of Object.keys(specific))
      if (!KNOWN_SPECIFIC().has(key)) unknownFields.push(`hookSpecificOutput.${key}`);
  return { output: parsed.data, unknownFields };
}

function success(stdout: string, stderr: string): ClaudeAnswer {
  const text = stdout.trim();
  if (text.startsWith("{")) {
    const { output, unknownFields } = parseClaudeOutput(text);
    return { blocked: false, stderr, output, text: "", unknownFields };
  }
  return { blocked: false, stderr, output: undefined, text, unknownFields: [] };
}

/** A command handler's result; throws `ClaudeHookError` for Claude Code's non-blocking errors. */
export function readCommandAnswer(result: CommandResult, timeoutSeconds: number): ClaudeAnswer {
  if (result.error !== undefined) throw new ClaudeHookError(`could not start: ${result.error}`);
  if (result.timedOut)
    throw new ClaudeHookError(`timed out after ${timeoutSeconds} s; its process group was killed`);
  if (result.exitCode === 2)
    return { blocked: true, stderr: result.stderr.trim(), output: undefined, text: "", unknownFields: [] };
  // An answer cut at the output cap cannot be read (a deny would read as malformed, and pass
  // where failures are let through): it blocks, whatever the failure mode.
  if (result.exitCode === 0 && result.stdoutTruncated)
    return {
      blocked: true,
      stderr: "its output on stdout passed the size limit, so its answer could not be read whole",
      output: undefined,
      text: "",
      unknownFields: [],
    };
  if (result.exitCode === 0) return success(result.stdout, result.stderr);
  const detail = result.stderr.trim() ? `: ${tail(result.stderr)}` : "";
  if (result.exitCode === null)
    throw new ClaudeHookError(`was killed by ${result.signal ?? "a signal"}${detail}`);
  throw new ClaudeHookError(`exited with code ${result.exitCode}${detail}`);
}

/** An http handler's response (status and body). */
export function readHttpAnswer(status: number, body: string): ClaudeAnswer {
  if (status < 200 || status > 299)
    throw new ClaudeHookError(`answered HTTP ${status}${body.trim() ? `: ${tail(body, 200)}` : ""}`);
  const text = body.trim();
  if (!text) return { blocked: false, stderr: "", output: undefined, text: "", unknownFields: [] };
  if (!text.startsWith("{"))
    throw new ClaudeHookError(`answered a body that is not a JSON object: ${tail(text, 200)}`);
  const { output, unknownFields } = parseClaudeOutput(text);
  return { blocked: false, stderr: "", output, text: "", unknownFields };
}
