/** One run of a handler, command, http or prompt, with its input; the answer read by Claude Code's rules. */

import { ClaudeHookError } from "../claude-hook-error.js";
import type { ClaudeHandlerSpec } from "../settings/claude-handler-spec.js";
import { type ClaudeAnswer, readCommandAnswer, readHttpAnswer } from "./read-claude-answer.js";
import { runCommandHandler } from "./run-command-handler.js";
import { runHttpHandler } from "./run-http-handler.js";
import { type PromptAnswerer, runPromptHandler } from "./run-prompt-handler.js";

export type { PromptAnswerer };

/** Throws `ClaudeHookError` for what Claude Code calls a non-blocking error. */
export async function runClaudeHandler(
  spec: ClaudeHandlerSpec,
  input: string,
  where: { projectDir: string; env: NodeJS.ProcessEnv; answerPrompt?: PromptAnswerer | undefined },
  timeoutSeconds: number,
  signal?: AbortSignal,
): Promise<ClaudeAnswer> {
  if (spec.type === "prompt")
    return runPromptHandler(spec, input, where.answerPrompt, timeoutSeconds, signal);
  const timeoutMs = timeoutSeconds * 1000;
  const env = spec.pluginRoot
    ? { ...where.env, CLAUDE_PLUGIN_ROOT: spec.pluginRoot, CLAUDE_PLUGIN_DATA: spec.pluginRoot }
    : where.env;
  if (spec.type === "command") {
    const result = await runCommandHandler(spec, {
      cwd: where.projectDir,
      env,
      input,
      timeoutMs,
      signal,
    });
    return readCommandAnswer(result, timeoutSeconds);
  }
  let response: { status: number; body: string };
  try {
    response = await runHttpHandler(spec, { input, timeoutMs, env, signal });
  } catch (error) {
    throw new ClaudeHookError(`request to ${spec.url} failed: ${(error as Error).message}`);
  }
  return readHttpAnswer(response.status, response.body);
}
