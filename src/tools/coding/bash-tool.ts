/**
 * Claude Code's `Bash` tool: `{ command, timeout?, description?, run_in_background? }`,
 * run with `bash -c` in the toolset's root (run-bash.ts). The result is Claude's
 * `tool_response`, `{ stdout, stderr, interrupted, isImage }`; the model reads stdout and
 * stderr, each cut at 30,000 characters with a note. A command that exits with another
 * code than 0 fails the call ("Exit code N" and its output), as in Claude Code; one that
 * runs past its timeout (milliseconds, default 120,000, at most 600,000) or is aborted is
 * killed with its process group and answers `interrupted: true`.
 */
import { z } from "../../deps/zod.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { tool } from "../tool.js";
import { runBash } from "./run-bash.js";

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
/** Characters of each stream the model and hooks see. */
export const BASH_MAX_OUTPUT = 30_000;

export interface BashResponse {
  stdout: string;
  stderr: string;
  interrupted: boolean;
  isImage: boolean;
}

function cut(text: string, dropped: number): string {
  const over = text.length > BASH_MAX_OUTPUT ? text.length - BASH_MAX_OUTPUT : 0;
  if (over === 0 && dropped === 0) return text;
  const more = over + dropped;
  return `${text.slice(0, BASH_MAX_OUTPUT)}\n\n... [output truncated: ${more} more ${dropped ? "bytes" : "characters"}]`;
}

function shown(response: BashResponse): string {
  const parts = [response.stdout.replace(/\n$/, ""), response.stderr.replace(/\n$/, "")].filter(Boolean);
  return parts.join("\n") || "(no output)";
}

export function bashTool(root: string) {
  return tool({
    description:
      "Runs a bash command in the project folder and returns its output. Each call starts in the project folder (a cd does not carry over to the next call). timeout is in milliseconds (default 120000, at most 600000).",
    inputSchema: z.strictObject({
      command: z.string().min(1).describe("The command to run"),
      timeout: z.number().int().positive().max(BASH_MAX_TIMEOUT_MS).optional().describe("Milliseconds"),
      description: z.string().optional().describe("What the command does, in 5-10 words"),
      run_in_background: z.boolean().optional(),
    }),
    alias: { name: "Bash" },
    toModelOutput: ({ output }) => ({ type: "text", value: shown(output as BashResponse) }),
    async execute({ command, timeout, run_in_background: background }, options): Promise<BashResponse> {
      if (background)
        throw new HookwiseError(
          "run_in_background is not available here: run the command in the foreground (with a timeout up to 600000 ms)",
        );
      const timeoutMs = timeout ?? BASH_DEFAULT_TIMEOUT_MS;
      const run = await runBash(command, {
        cwd: root,
        env: process.env,
        timeoutMs,
        signal: options.signal,
        maxOutput: 4 * BASH_MAX_OUTPUT,
      });
      const response: BashResponse = {
        stdout: cut(run.stdout, run.stdoutDropped),
        stderr: cut(run.stderr, run.stderrDropped),
        interrupted: run.timedOut || run.aborted,
        isImage: false,
      };
      if (run.timedOut)
        response.stderr = `${response.stderr}${response.stderr ? "\n" : ""}Command timed out after ${timeoutMs} ms and was killed`;
      else if (run.aborted)
        response.stderr = `${response.stderr}${response.stderr ? "\n" : ""}Command was aborted`;
      else if (run.exitCode !== 0)
        throw new HookwiseError(
          `Exit code ${run.exitCode ?? run.signal}\n${shown(response)}`.replace(/\n\(no output\)$/, ""),
        );
      return response;
    },
  });
}
