/**
 * Settling a suspended run's pending batch, in two parts:
 *
 * - `planBatch` (no side effects): per call, in call order — already settled calls stay;
 *   a call whose tool already started in an earlier process is replayed, never re-run;
 *   a denial settles now, with its reason; an approval runs, unless an earlier call is
 *   still undecided (a sequential batch keeps its order), then it waits with its decision
 *   recorded; undecided approvals and the deferred calls behind them keep waiting.
 * - `runPlan`: executes the planned calls (`toolConcurrency` wide), each through the
 *   ordinary tail — execute → tool_error → tool_result → inspects — with an exactly-once
 *   guard. A terminate stops the batch as in `runToolBatch`; anything still waiting
 *   suspends the run again; otherwise the batch commits, in call order.
 *
 * The exactly-once records live in the StateStore under approvals/' keys: the resume hands
 * them in as a `OnceLedger`.
 */

import { contextFor, payload, type RunState } from "../run-state.js";
import type { LoopRuntime } from "../types.js";
import { executeCall } from "./execute-call.js";
import type { BatchEntry, CallOutcome, OnceGuard, PendingEntry, ResultOutcome } from "./types.js";

export interface Decision {
  approved: boolean;
  reason?: string;
}

export type PlannedCall =
  | { kind: "keep"; entry: BatchEntry }
  | { kind: "deny"; entry: PendingEntry; reason: string }
  | { kind: "execute"; entry: PendingEntry; replay: boolean };

export type SettledBatch =
  | { kind: "committed"; results: ResultOutcome[] }
  | { kind: "terminate"; reason: string; hook: string }
  | { kind: "suspend"; entries: BatchEntry[] };

/** The exactly-once records of a resumed run's pending calls. */
export interface OnceLedger {
  /** Whether the call's tool already started in an earlier process (its exactly-once intent exists). */
  started(entry: PendingEntry): Promise<boolean>;
  /** The guard the call's body runs under; its key is kept as one of the run's. */
  guard(entry: PendingEntry, label: string): OnceGuard;
}

export async function planBatch(
  ledger: OnceLedger,
  entries: readonly BatchEntry[],
  decisions: ReadonlyMap<string, Decision>,
): Promise<PlannedCall[]> {
  const plan: PlannedCall[] = [];
  let blocked = false;
  for (const entry of entries) {
    if (entry.kind === "settled") {
      plan.push({ kind: "keep", entry });
      continue;
    }
    if (await ledger.started(entry)) {
      plan.push({ kind: "execute", entry, replay: true });
      continue;
    }
    if (!entry.approval) {
      plan.push(blocked ? { kind: "keep", entry } : { kind: "execute", entry, replay: false });
      continue;
    }
    const decision = decisions.get(entry.approval.id) ?? entry.approval.decision;
    if (!decision) {
      blocked = true;
      plan.push({ kind: "keep", entry });
    } else if (!decision.approved) {
      plan.push({ kind: "deny", entry, reason: decision.reason ?? "denied by the approver" });
    } else if (blocked) {
      plan.push({ kind: "keep", entry: { ...entry, approval: { ...entry.approval, decision } } });
    } else {
      plan.push({ kind: "execute", entry, replay: false });
    }
  }
  return plan;
}

function toolCallPayload(state: RunState, entry: PendingEntry) {
  const fields: Parameters<typeof payload<"tool_call">>[2] = {
    toolCallId: entry.toolCallId,
    toolName: entry.toolName,
    qualifiedName: entry.qualifiedName,
    args: entry.args,
  };
  if (entry.original !== undefined) fields.original = entry.original;
  return payload(state, "tool_call", fields);
}

function errorOutcome(entry: PendingEntry, message: string): ResultOutcome {
  return {
    kind: "result",
    toolCallId: entry.toolCallId,
    toolName: entry.toolName,
    qualifiedName: entry.qualifiedName,
    args: entry.args,
    result: message,
    isError: true,
    executed: false,
  };
}

async function execute(
  runtime: LoopRuntime,
  state: RunState,
  entry: PendingEntry,
  replay: boolean,
  ledger: OnceLedger,
): Promise<CallOutcome> {
  const found = runtime.toolsByName.get(entry.toolName);
  // The binding covers the qualified name: a function name that now maps to another tool
  // (a store edit, or the agent's tools changed) does not run that tool.
  const tool = found?.qualifiedName === entry.qualifiedName ? found : undefined;
  if (found && !tool) {
    return errorOutcome(
      entry,
      `the saved call names function "${entry.toolName}", which is ${found.qualifiedName}, not ${entry.qualifiedName}; not run`,
    );
  }
  if (!tool) {
    const earlier = replay ? " (it started in an earlier process; its outcome is not known here)" : "";
    return errorOutcome(
      entry,
      `tool "${entry.qualifiedName}" is no longer available to agent "${runtime.name}"; not run${earlier}`,
    );
  }
  let args = entry.args;
  if (!replay) {
    // Saved as JSON: re-validate, so the body gets its schema's values (defaults, coercions).
    const checked = await tool.input.check(args);
    if (!checked.ok) {
      return errorOutcome(
        entry,
        `arguments for "${entry.qualifiedName}" no longer match its input schema: ${checked.message}; not run`,
      );
    }
    args = checked.value;
  }
  const callPayload = toolCallPayload(state, entry);
  const label = `tool "${entry.qualifiedName}"${entry.approval ? ` (approval ${entry.approval.id})` : ""}`;
  const once = ledger.guard(entry, label);
  return executeCall(state, {
    tool,
    base: { toolCallId: entry.toolCallId, toolName: entry.toolName, qualifiedName: entry.qualifiedName },
    args,
    callPayload,
    context: contextFor(state),
    selection: state.runner.select(callPayload),
    once,
    concurrent: true,
  });
}

export async function runPlan(
  runtime: LoopRuntime,
  state: RunState,
  plan: readonly PlannedCall[],
  ledger: OnceLedger,
): Promise<SettledBatch> {
  const outcomes: (CallOutcome | BatchEntry | undefined)[] = new Array(plan.length);
  const runnable: number[] = [];
  plan.forEach((planned, index) => {
    if (planned.kind === "keep") outcomes[index] = planned.entry;
    else if (planned.kind === "deny") {
      const callPayload = toolCallPayload(state, planned.entry);
      // The decision was made; inspections of tool_call see it like any other denial.
      state.runner.inspect(callPayload, contextFor(state));
      outcomes[index] = errorOutcome(
        planned.entry,
        `tool "${planned.entry.qualifiedName}" was not approved: ${planned.reason}`,
      );
    } else runnable.push(index);
  });

  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < runnable.length) {
      const index = runnable[next++]!;
      const planned = plan[index] as Extract<PlannedCall, { kind: "execute" }>;
      const outcome = await execute(runtime, state, planned.entry, planned.replay, ledger);
      outcomes[index] = outcome;
      if (outcome.kind === "terminate") stopped = true;
    }
  };
  const width = Math.max(1, Math.min(runtime.toolConcurrency, runnable.length));
  await Promise.all(Array.from({ length: width }, worker));

  if (stopped) {
    const terminate = outcomes.find(
      (outcome): outcome is Extract<CallOutcome, { kind: "terminate" }> => outcome?.kind === "terminate",
    );
    return terminate!;
  }
  const entries: BatchEntry[] = outcomes.map((outcome) => {
    const value = outcome!;
    if (value.kind === "result") return { kind: "settled", outcome: value };
    if (value.kind === "settled" || value.kind === "pending") return value as BatchEntry;
    // executeCall answers result or terminate only.
    throw new Error(`unexpected call outcome "${value.kind}" while settling a batch`);
  });
  if (entries.some((entry) => entry.kind === "pending")) return { kind: "suspend", entries };
  return {
    kind: "committed",
    results: entries.map((entry) => (entry as Extract<BatchEntry, { kind: "settled" }>).outcome),
  };
}
