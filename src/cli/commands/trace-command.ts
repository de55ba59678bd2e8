/**
 * `hookwise trace <config> --session ID [--json]`: a recorded session's runs as a timeline
 * in the terminal — the content of the web UI's timeline: each run's steps, the attempts
 * of each step (the model's answer, or the error and whether it was retried), each tool
 * call with its arguments (the model's and, when rewritten, what ran), what became of it
 * and its result, every hook that fired with its event, kind, effect and reason, and what
 * a rewrite or a request patch changed, before and after. A firing is read as the web UI
 * reads it (`hooks/trace-changes.ts`). `--json` prints the run records.
 */

import { verdictOf } from "../../agent/run-diff.js";
import type { RecordedCall, RecordedDecision, RunRecord } from "../../agent/run-record.js";
import { readConfig } from "../../config/load-config.js";
import { printable } from "../../config/printable.js";
import { type ChangeContext, changesOf, reasonOf } from "../../hooks/trace-changes.js";
import { EXIT } from "../exit-codes.js";
import { harnessVerdictText } from "../harness-verdict-text.js";
import { noSessionGiven, recordedRuns } from "../recorded-runs.js";
import type { CliIO } from "../types.js";

const WIDTH = 120;

/** A step's firings shown before its tool calls (the request and the answer); the rest follow them. */
const BEFORE_CALLS = new Set([
  "step_start",
  "model_request",
  "model_response",
  "model_error",
  "model_turn_finished",
  "text_delta",
  "reasoning_delta",
  "tool_call_delta",
]);

function short(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const line = printable((text ?? "").replace(/\s+/g, " "));
  return line.length > WIDTH ? `${line.slice(0, WIDTH - 1)}…` : line;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A firing: its line (event, kind, effect, reason), then what it changed, before and after. */
function decision(
  entry: RecordedDecision,
  indent: string,
  context: ChangeContext = {},
  effect: string = entry.effect,
): string[] {
  const reason = reasonOf(entry);
  const lines = [
    `${indent}hook ${entry.hook} (${entry.event}, ${entry.kind}) → ${effect}${reason === undefined ? "" : `: ${short(reason)}`}`,
  ];
  const { changes, note } = changesOf(entry, context);
  for (const change of changes) {
    lines.push(`${indent}  ${change.field}:`);
    if (change.before !== undefined && change.before !== "")
      lines.push(`${indent}    - ${short(change.before)}`);
    lines.push(`${indent}    + ${short(change.after)}`);
  }
  if (note) lines.push(`${indent}  note: ${note}`);
  return lines;
}

function time(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

/** What became of a call (a harness's: what hookwise's answer left to the harness). */
function verdictText(call: RecordedCall, harness: RunRecord["harness"]): string {
  return harnessVerdictText(verdictOf(call), harness);
}

function callLines(call: RecordedCall, harness?: RunRecord["harness"]): string[] {
  const lines = [`    ▶ ${call.qualifiedName} ${short(call.args)} — ${verdictText(call, harness)}`];
  // Each rewrite is shown against the arguments as they were before it.
  let current = call.args;
  for (const entry of call.hooks) {
    // The policies let a harness's call pass without an allow of theirs: the harness decides.
    const passed = harness?.decision === "none" && entry.hook === "policy" && entry.effect === "allow";
    lines.push(
      ...decision(
        entry,
        "      ",
        { args: current, toolName: call.qualifiedName },
        passed ? "no policy decided" : entry.effect,
      ),
    );
    if (entry.effect === "rewriteArgs") current = entry.detail;
  }
  // The verdict names the rewrite; a change it cannot attribute to a firing is shown here.
  if (call.executed && call.ranArgs !== undefined && !same(call.ranArgs, current))
    lines.push(`      ran with ${short(call.ranArgs)}`);
  if (call.pending) lines.push("      ⏸ waiting for approval");
  else if (call.result !== undefined)
    lines.push(`      ◀ ${call.isError ? "error: " : ""}${short(call.result)}`);
  return lines;
}

/** `instructions`: each agent's instructions (what a patched system prompt is shown against). */
export function traceLines(
  runs: readonly RunRecord[],
  instructions: (agent: string) => string | undefined = () => undefined,
): string[] {
  const lines: string[] = [];
  for (const [index, run] of runs.entries()) {
    lines.push(
      `run ${index + 1} · ${run.runId} · agent ${run.agent} · ${time(run.startedAt)} · ${run.endedAt - run.startedAt} ms`,
    );
    lines.push(`  user: ${short(run.input)}`);
    for (const at of run.resumedAt ?? []) lines.push(`  ⏵ resumed after approval · ${time(at)}`);
    const context: ChangeContext = { instructions: instructions(run.agent), input: run.input };
    const ended = run.hooks.filter((entry) => entry.event === "run_end" || entry.event === "session_end");
    for (const entry of run.hooks.filter((item) => !ended.includes(item)))
      lines.push(...decision(entry, "  ", context));
    for (const step of run.steps) {
      const attempts = run.attempts.filter((item) => item.step === step.index);
      const model = attempts.at(-1)?.model;
      lines.push(
        `  ── step ${step.index + 1}${attempts.length > 1 ? ` · ${attempts.length} attempts` : ""}${model ? ` · ${model}` : ""}`,
      );
      for (const attempt of attempts) {
        if (attempt.error)
          lines.push(
            `    attempt ${attempt.attempt}: failed: ${attempt.error.type}${attempt.error.status ? ` ${attempt.error.status}` : ""}: ${short(attempt.error.message)}${attempt.error.retryable ? " (retryable)" : ""}`,
          );
        else {
          const calls = attempt.answer!.toolCalls.map((call) => call.name).join(", ");
          lines.push(
            `    attempt ${attempt.attempt}: answered (${attempt.answer!.finishReason})${calls ? `: calls ${calls}` : ""}`,
          );
        }
      }
      const stepContext = { ...context, output: step.text };
      for (const entry of step.hooks.filter((item) => BEFORE_CALLS.has(item.event)))
        lines.push(...decision(entry, "    ", stepContext));
      if (step.reasoning) lines.push(`    reasoning: ${short(step.reasoning)}`);
      if (step.text) lines.push(`    assistant: ${short(step.text)}`);
      for (const call of step.calls) lines.push(...callLines(call, run.harness));
      for (const entry of step.hooks.filter((item) => !BEFORE_CALLS.has(item.event)))
        lines.push(...decision(entry, "    ", stepContext));
    }
    const last = run.steps.at(-1)?.text;
    for (const entry of ended) lines.push(...decision(entry, "  ", { ...context, output: last }));
    lines.push(
      `  ■ ${run.outcome}${run.reason ? `: ${run.reason}` : ""}${run.hook ? ` (hook ${run.hook})` : ""}`,
    );
  }
  return lines;
}

/** Each agent's instructions in the config (none when it cannot be read: the trace still prints). */
function instructionsOf(configPath: string): (agent: string) => string | undefined {
  try {
    const { config } = readConfig(configPath).validated;
    const byAgent = new Map((config.agents ?? []).map((agent) => [agent.id, agent.instructions]));
    return (agent) => byAgent.get(agent);
  } catch {
    return () => undefined;
  }
}

export async function traceCommand(
  configPath: string,
  options: { session?: string; json?: boolean },
  io: CliIO,
): Promise<number> {
  if (options.session === undefined) throw await noSessionGiven(configPath, "give --session ID", io);
  const { runs } = await recordedRuns(configPath, { session: options.session }, io);
  if (options.json) io.stdout.line(JSON.stringify(runs, null, 2));
  else for (const line of traceLines(runs, instructionsOf(configPath))) io.stdout.line(line);
  return EXIT.completed;
}
