/**
 * `hookwise replay <config> --session ID | --from file.jsonl [--json]`: a recorded
 * session's runs through this config, without calling a model or a tool (recorded answers
 * and results stand in), and what it would decide otherwise: per step, the calls now
 * denied, rewritten, asked or skipped, and the injections and patches that differ.
 */

import { replayRuns } from "../../agent/replay-run.js";
import type { RunDiff } from "../../agent/run-diff.js";
import { diffRuns } from "../../agent/run-diff.js";
import { harnessRunRecord } from "../../config/harness-record.js";
import { loadConfig } from "../../config/load-config.js";
import { type HarnessHooks, loadHarnessHooks } from "../../config/load-harness-hooks.js";
import { formatIssue } from "../../config/source/config-error.js";
import { decideHarnessEvent } from "../../harnesses/decide-harness-event.js";
import { HARNESSES } from "../../harnesses/protocols.js";
import type { HarnessName } from "../../harnesses/types.js";
import { MemoryStore } from "../../state/memory-store.js";
import { EXIT } from "../exit-codes.js";
import { harnessVerdictText } from "../harness-verdict-text.js";
import { recordedRuns } from "../recorded-runs.js";
import type { CliIO } from "../types.js";

export interface ReplayReport {
  session: string;
  config: string;
  runs: (RunDiff & {
    unrecorded: string[];
    /** A harness's event: the harness, and hookwise's answer then and now (`allow`, `deny`, `ask`, `none`). */
    harness?: { name: string; before: string; after: string };
  })[];
  /** Calls and steps decided otherwise, over every run. */
  changes: number;
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

export async function replayReport(
  configPath: string,
  options: { session?: string; from?: string },
  io: CliIO,
): Promise<ReplayReport> {
  const { sessionId, runs } = await recordedRuns(configPath, options, io);
  // A store of the replay's own: hook counters and sessions of the real one stay untouched.
  // It lends each run the session's transcript (no copy per run): runs replay one at a time.
  const store = new MemoryStore({ lendTranscripts: true });
  const loaded = await loadConfig(configPath, {
    store,
    logger: {
      debug() {},
      info() {},
      warn: (m) => io.stderr.line(`  warning: ${m}`),
      error: (m) => io.stderr.line(`  error: ${m}`),
    },
  });
  try {
    for (const warning of loaded.warnings) io.stderr.line(formatIssue(warning));
    const report: ReplayReport = { session: sessionId, config: configPath, runs: [], changes: 0 };
    const byAgent = new Map<string, Awaited<ReturnType<typeof loaded.createAgent>>>();
    const harnesses = new Map<string, HarnessHooks>();
    try {
      for (const run of runs) {
        if (!run.harness) continue;
        // A harness's event: answered again by this config's hooks and policies, as hookwise hook would.
        const name = run.harness.name as HarnessName;
        let hooks = harnesses.get(name);
        if (!hooks) {
          hooks = await loadHarnessHooks(configPath, name, { store, logger: quiet });
          harnesses.set(name, hooks);
        }
        const protocol = HARNESSES[name];
        const event = protocol.parse(run.harness.payload as Record<string, unknown>);
        const outcome = await decideHarnessEvent(event, {
          protocol,
          registry: hooks.registry,
          policies: hooks.policies,
          store,
          log: quiet,
          runId: run.runId,
        });
        const diff = diffRuns(run, harnessRunRecord(event, outcome, run.runId, run.startedAt));
        const harness = { name, before: run.harness.decision, after: outcome.verdict.decision };
        report.runs.push({ ...diff, unrecorded: [], harness });
        report.changes += diff.calls.length + (diff.outcome.before !== diff.outcome.after ? 1 : 0);
      }
    } finally {
      for (const hooks of harnesses.values()) await hooks.close();
    }
    for (const run of runs) {
      if (run.harness) continue;
      const id = loaded.agentIds.includes(run.agent) ? run.agent : loaded.defaultAgentId;
      let agent = byAgent.get(id);
      if (!agent) {
        agent = await loaded.createAgent(id);
        byAgent.set(id, agent);
      }
      const [replayed] = await replayRuns(agent, [run], { store, sessionId: `replay-${sessionId}` });
      const diff = diffRuns(replayed!.recorded, replayed!.replayed);
      report.runs.push({ ...diff, unrecorded: replayed!.unrecorded });
      report.changes +=
        diff.calls.length + diff.steps.length + (diff.outcome.before !== diff.outcome.after ? 1 : 0);
    }
    return report;
  } finally {
    await loaded.close();
  }
}

export function printReplay(report: ReplayReport, io: CliIO): void {
  const out = io.stdout;
  out.line(
    `replay of session ${report.session} through ${report.config} · ${report.runs.length} run(s) · no model or tool called`,
  );
  for (const [index, run] of report.runs.entries()) {
    out.line(`run ${index + 1} (${run.runId}): ${JSON.stringify(run.input.slice(0, 80))}`);
    if (run.outcome.before !== run.outcome.after)
      out.line(`  outcome: ${run.outcome.before} → ${run.outcome.after}`);
    const side = (decision: string | undefined) =>
      run.harness && decision !== undefined ? { name: run.harness.name, decision } : undefined;
    for (const change of run.calls) {
      const before = harnessVerdictText(change.before, side(run.harness?.before));
      const after = harnessVerdictText(change.after, side(run.harness?.after));
      out.line(
        `  step ${change.step + 1} · ${change.tool} ${JSON.stringify(change.args)}: ${before} → ${after}`,
      );
    }
    for (const step of run.steps) {
      const where = step.step < 0 ? "run" : `step ${step.step + 1}`;
      for (const item of step.onlyNow) out.line(`  ${where} · now: ${item}`);
      for (const item of step.onlyThen) out.line(`  ${where} · no longer: ${item}`);
    }
    for (const id of run.unrecorded)
      out.line(
        `  note: call ${id} would run now but did not then; its result is unknown (replayed as an error)`,
      );
    if (!run.calls.length && !run.steps.length && run.outcome.before === run.outcome.after)
      out.line(`  same decisions (${run.compared} call(s) compared)`);
  }
  out.line(report.changes === 0 ? "no difference" : `${report.changes} difference(s)`);
}

export async function replayCommand(
  configPath: string,
  options: { session?: string; from?: string; json?: boolean },
  io: CliIO,
): Promise<number> {
  const report = await replayReport(configPath, options, io);
  if (options.json) io.stdout.line(JSON.stringify(report, null, 2));
  else printReplay(report, io);
  return EXIT.completed;
}
