/**
 * `hookwise resume <config> --run ID (--approve ID|all | --deny ID [--reason TEXT])… [--json]`:
 * continues a suspended run, in this process, from the state store
 * beside the config. An id may also be a signed approval token. Same output and exit
 * codes as `run`; a refused resume (not suspended, unknown id, forged or expired
 * approval) exits 1 having run nothing, and the run stays resumable.
 */

import type { Agent } from "../../agent/types.js";
import { isApprovalToken } from "../../approvals/approval-signer.js";
import { loadSuspendedRun } from "../../approvals/suspended-run.js";
import type { ApprovalDecision } from "../../approvals/types.js";
import { keepScriptPosition } from "../../config/script-position.js";
import { formatIssue } from "../../config/source/config-error.js";
import type { PendingApproval, RunResult } from "../../loop/run-result.js";
import { exitCodeFor } from "../exit-codes.js";
import { LogRoute, loadCliConfig, notificationLine } from "../load-cli-config.js";
import { LiveTrace } from "../terminal/live-trace.js";
import { printApprovals } from "../terminal/print-approvals.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";
import { approvalChannel } from "./run-command.js";

/** One `--approve` / `--deny [--reason]`, in command-line order. */
export type CliDecision = { approve: string } | { deny: string; reason?: string };

export interface ResumeCommandOptions {
  run: string;
  decisions: readonly CliDecision[];
  json?: boolean;
}

function expand(decisions: readonly CliDecision[], pending: readonly PendingApproval[]): ApprovalDecision[] {
  return decisions.flatMap((given): ApprovalDecision[] => {
    const approved = "approve" in given;
    const target = approved ? given.approve : given.deny;
    const reason = !approved && given.reason !== undefined ? { reason: given.reason } : {};
    if (target === "all") return pending.map((approval) => ({ id: approval.id, approved, ...reason }));
    if (isApprovalToken(target)) return [{ token: target, approved, ...reason }];
    return [{ id: target, approved, ...reason }];
  });
}

async function resumeOnce(
  agent: Agent,
  options: ResumeCommandOptions,
  decisions: ApprovalDecision[],
  io: CliIO,
  configPath: string,
  logs: LogRoute,
): Promise<RunResult> {
  const header = `hookwise · resume run ${options.run} · agent ${agent.name}`;
  if (options.json) {
    logs.line(header);
    return agent.resume(options.run, decisions);
  }
  const trace = new LiveTrace(io.stdout, { color: io.color });
  const done = logs.through(trace);
  let result: RunResult;
  try {
    const live = agent.resumeStream(options.run, decisions);
    // The header once the resume is under way: a refused one (an unknown id) prints only its reason.
    let started = false;
    for await (const event of live) {
      if (!started) {
        started = true;
        io.stdout.line(header);
      }
      trace.event(event);
    }
    result = await live.result;
  } finally {
    done();
  }
  printApprovals(io.stdout, configPath, result);
  return result;
}

export async function resumeCommand(
  configPath: string,
  options: ResumeCommandOptions,
  io: CliIO,
): Promise<number> {
  if (options.decisions.length === 0) {
    throw new UsageError("hookwise resume needs at least one --approve ID|all or --deny ID [--reason TEXT]");
  }
  const logs = new LogRoute(options.json ? io.stderr : io.stdout);
  const loaded = await loadCliConfig(configPath, io, options.json, [], logs);
  const channel = approvalChannel(io, options.json);
  try {
    for (const warning of loaded.warnings) io.stderr.line(formatIssue(warning));
    // The run names its agent; a run that is not suspended is refused here, before anything is built.
    const suspended = await loadSuspendedRun(loaded.store, options.run);
    const agent = await loaded.createAgent(suspended.agentName, channel.overrides);
    keepScriptPosition(agent.runtime.model, loaded.store, suspended.sessionId);
    loaded.keepScriptPositions(suspended.sessionId);
    const unsubscribe = loaded.notifications.subscribe((note) =>
      logs.line(notificationLine(note), note.hook),
    );
    try {
      const decisions = expand(options.decisions, await agent.pendingApprovals(options.run));
      const result = await resumeOnce(agent, options, decisions, io, configPath, logs);
      if (options.json) io.stdout.line(JSON.stringify(result, null, 2));
      return exitCodeFor(result.outcome);
    } finally {
      unsubscribe();
    }
  } finally {
    channel.prompt?.close();
    await loaded.close();
  }
}
