/**
 * `shell`: runs a command — without a shell.
 *
 * - The command is split into argv when the config loads (split-shell-words.ts), before any
 *   templating; `{{…}}` then fills argv elements, so a tool argument like
 *   `a.txt; touch PWNED` stays one literal argument. Shell syntax in the command is
 *   refused (nothing would interpret it), and an input template may only fill a data
 *   argument (shell-rule.ts): never the program, code, a command inside the arguments, a
 *   cwd that picks the program, or a code-bearing env var. A value that would start an
 *   argument with "-" is refused when the command runs, unless a literal `--` precedes it.
 * - `cwd` (templated, default the config's folder), `env` (templated values, added to the
 *   process environment), `timeout` in seconds (default 30: the process group is killed),
 *   `max_output` bytes of stdout+stderr kept (default 16 KiB).
 * - `on_error: ignore` (default) logs a failure (non-zero exit, timeout, cannot start); the
 *   hook is an inspect. `on_error: inject` makes it a transform that shows the failure and
 *   its output to the model (inject-text.ts: appended to the tool result on tool_result, …).
 * - The hook's own timeout ends the command too (the evaluation's signal): the process
 *   group is killed, so nothing it started outlives the hook, and the hook fails as timed
 *   out (closed, for a blocking one) even when `on_error: inject` would show a failure.
 */
import { resolve } from "node:path";
import { z } from "../../../deps/zod.js";
import type { Evaluation } from "../../build/evaluation.js";
import { renderTemplate } from "../../build/templates.js";
import { defineAction } from "../action-module.js";
import { injectText } from "../injection/inject-text.js";
import { type ArgvResult, runArgv } from "./run-argv.js";
import { shellRule } from "./shell-rule.part.js";
import { ShellWordsError, splitShellWords } from "./split-shell-words.js";

const description = "Runs a command without a shell: argv split first, {{…}} fills arguments.";

interface ShellCommand {
  command: string;
  cwd?: string | undefined;
  env: Record<string, string>;
  templates_are_data: boolean;
}

function checkCommand(config: ShellCommand, context: z.RefinementCtx): void {
  let argv: string[];
  try {
    argv = splitShellWords(config.command);
  } catch (error) {
    if (!(error instanceof ShellWordsError)) throw error;
    context.addIssue({ code: "custom", path: ["command"], message: error.message });
    return;
  }
  const problem = shellRule().shellTemplateProblem(argv, config.cwd, config.env, config.templates_are_data);
  if (problem) context.addIssue({ code: "custom", path: [...problem.path], message: problem.message });
}

/** `templates_are_data: true` where hookwise could not tell on its own: the author's word, reported. */
function vouchedWarnings(config: ShellCommand): { path: string[]; message: string }[] {
  if (!config.templates_are_data) return [];
  let argv: string[];
  try {
    argv = splitShellWords(config.command);
  } catch {
    return [];
  }
  const unvouched = shellRule().unvouchedTemplate(argv, config.cwd, config.env);
  if (!unvouched) return [];
  const what = unvouched.message.split("; if ")[0];
  return [
    {
      path: ["templates_are_data"],
      message: `${what}; ${shellRule().VOUCH} lets it run on your word that the program reads the value as data only`,
    },
  ];
}

/** A command the rule refuses when it is about to run (defence in depth; see shell-rule.ts). */
export class ShellRefusedError extends Error {
  override readonly name = "ShellRefusedError";
}

function describeFailure(argv: readonly string[], result: ArgvResult, timeoutSeconds: number): string {
  const what = result.error
    ? `could not start: ${result.error}`
    : result.timedOut
      ? `timed out after ${timeoutSeconds} s (killed)`
      : result.signal
        ? `was killed by ${result.signal}`
        : `failed (exit ${result.exitCode})`;
  const output = result.output.trimEnd();
  const tail = result.truncated ? "\n[output truncated]" : "";
  return `[shell] ${argv[0]} ${what}${output ? `:\n${output}${tail}` : ""}`;
}

export const shell = defineAction({
  type: "shell",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("shell"),
        command: z
          .string()
          .min(1)
          .describe('One program and its arguments, e.g. "python -m py_compile {{tool.params.path}}"'),
        cwd: z.string().optional().describe("Working folder, templated; default the config's folder"),
        env: z.record(z.string(), z.string()).default({}).describe("Extra environment variables, templated"),
        timeout: z.number().positive().default(30).describe("Seconds; the process group is killed after it"),
        max_output: z.number().int().positive().default(16_384).describe("Bytes of output kept"),
        on_error: z
          .enum(["ignore", "inject"])
          .default("ignore")
          .describe("ignore: log a failure; inject: show it (and its output) to the model"),
        templates_are_data: z
          .boolean()
          .default(false)
          .describe(
            "you vouch that the program reads {{…}} values (in its arguments, env and cwd) as data only; needed for programs hookwise does not know to do so; validate reports it as a warning",
          ),
      })
      .superRefine((config, context) => checkCommand(config, context))
      .describe(description),
  events: "any",
  warnings: (config) => vouchedWarnings(config),
  kind: (config) => (config.on_error === "inject" ? "transform" : "inspect"),
  compile: (config, services) => {
    const argv = splitShellWords(config.command);
    const rule = shellRule();
    const problem = rule.shellTemplateProblem(argv, config.cwd, config.env, config.templates_are_data);
    if (problem) throw new ShellRefusedError(`${problem.path.join(".")}: ${problem.message}`);
    return async (evaluation: Evaluation) => {
      const render = (text: string) => renderTemplate(text, evaluation, services.workspace);
      const args = argv.map(render);
      const refused = rule.renderedArgvProblem(argv, args);
      if (refused) throw new ShellRefusedError(`[shell] ${argv[0]} refused: ${refused}`);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const [name, value] of Object.entries(config.env)) env[name] = render(value);
      const cwd = resolve(services.workspace, config.cwd === undefined ? "." : render(config.cwd));
      const signal = evaluation.signal ?? evaluation.context.signal;
      const result = await runArgv(args, {
        cwd,
        env,
        timeoutMs: config.timeout * 1000,
        maxOutput: config.max_output,
        signal,
      });
      // Ended by the hook's own timeout or the run's abort: the hook has no answer, whatever
      // `on_error` says (injected, the failure would be an answer, and the guarded call would run).
      if (signal?.aborted) throw signal.reason;
      const hook = evaluation.hookId;
      const failed = result.error !== undefined || result.timedOut || result.exitCode !== 0;
      if (!failed) {
        services.log.debug(`hook "${hook}": ${argv[0]} exited 0`, { hook });
        return undefined;
      }
      const text = describeFailure(args, result, config.timeout);
      if (config.on_error === "inject") return injectText(evaluation, services, text);
      services.log.info(`hook "${hook}": ${text}`, { hook });
      return undefined;
    };
  },
  example: {
    type: "shell",
    command: "python -m py_compile {{tool.params.path}}",
    cwd: "{{workspace}}",
    env: {},
    timeout: 30,
    max_output: 16_384,
    on_error: "ignore",
    templates_are_data: false,
  },
});
