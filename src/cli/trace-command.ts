/**
 * `hookwise trace <config> --session ID [--json]`: a recorded session's runs as a timeline
 * in the terminal — each run's steps, the attempts of each step (the model's answer or the
 * error), each tool call with its arguments, what became of it and its result, and every
 * hook that fired with its decision and reason. `--json` prints the run records.
 */

import { describeVerdict, verdictOf } from "../agent/run-diff.js";
import type { RecordedDecision, RunRecord } from "../agent/run-record.js";
import { EXIT } from "./exit-codes.js";
import { recordedRuns } from "./recorded-runs.js";
import type { CliIO } from "./types.js";

const WIDTH = 120;

function short(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const line = (text ?? "").replace(/\s+/g, " ");
  return line.length > WIDTH ? `${line.slice(0, WIDTH - 1)}…` : line;
}

function decision(entry: RecordedDecision): string {
  const detail = entry.detail === undefined ? "" : `: ${short(entry.detail)}`;
  return `hook ${entry.hook} (${entry.event}, ${entry.kind}) → ${entry.effect}${detail}`;
}

function time(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

export function traceLines(runs: readonly RunRecord[]): string[] {
  const lines: string[] = [];
  for (const [index, run] of runs.entries()) {
    lines.push(
      `run ${index + 1} · ${run.runId} · agent ${run.agent} · ${time(run.startedAt)} · ${run.endedAt - run.startedAt} ms`,
    );
    lines.push(`  user: ${short(run.input)}`);
    const ended = run.hooks.filter((entry) => entry.event === "run_end" || entry.event === "session_end");
    for (const entry of run.hooks.filter((item) => !ended.includes(item))) lines.push(`  ${decision(entry)}`);
    for (const step of run.steps) {
      lines.push(`  ── step ${step.index}`);
      for (const attempt of run.attempts.filter((item) => item.step === step.index)) {
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
      for (const entry of step.hooks) lines.push(`    ${decision(entry)}`);
      if (step.text) lines.push(`    assistant: ${short(step.text)}`);
      for (const call of step.calls) {
        lines.push(`    ▶ ${call.qualifiedName} ${short(call.args)} — ${describeVerdict(verdictOf(call))}`);
        for (const entry of call.hooks) lines.push(`      ${decision(entry)}`);
        if (call.pending) lines.push("      ⏸ waiting for approval");
        else if (call.result !== undefined)
          lines.push(`      ◀ ${call.isError ? "error: " : ""}${short(call.result)}`);
      }
    }
    for (const entry of ended) lines.push(`  ${decision(entry)}`);
    lines.push(
      `  ■ ${run.outcome}${run.reason ? `: ${run.reason}` : ""}${run.hook ? ` (hook ${run.hook})` : ""}`,
    );
  }
  return lines;
}

export async function traceCommand(
  configPath: string,
  options: { session: string; json?: boolean },
  io: CliIO,
): Promise<number> {
  const { runs } = await recordedRuns(configPath, { session: options.session }, io);
  if (options.json) io.stdout.line(JSON.stringify(runs, null, 2));
  else for (const line of traceLines(runs)) io.stdout.line(line);
  return EXIT.completed;
}
