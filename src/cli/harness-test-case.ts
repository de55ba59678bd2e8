/**
 * A `hookwise test` case written as harness hook events (`events:`): each event answered in
 * order, as `hookwise hook` answers it, in one session on a store of the case's own — so a
 * `max_fires` or a `cooldown` shows over the events of the case. What each event was
 * answered (the decision, the reason, the harness's own JSON and exit code) is checked
 * beside the expectations every case has (`denied`, `ran`, `hook_fired`…).
 */
import { randomUUID } from "node:crypto";
import type { RunRecord } from "../agent/run-record.js";
import { harnessesOf } from "../config/check/harness-tools-of.js";
import { harnessRunRecord } from "../config/harness-record.js";
import { loadHarnessHooks } from "../config/load-harness-hooks.js";
import type { ConfigIssue } from "../config/source/config-error.js";
import type { ConfigTest, ConfigTestCase } from "../config/testing/config-tests.js";
import { decideHarnessEvent } from "../harnesses/decide-harness-event.js";
import { HarnessInputError } from "../harnesses/harness-input-error.js";
import { HARNESSES } from "../harnesses/protocols.js";
import type { HarnessAnswer, HarnessName, HarnessVerdict } from "../harnesses/types.js";
import type { HookLogger } from "../hooks/hook-context.js";
import { MemoryStore } from "../state/memory-store.js";

/** One event of a case, answered. */
export interface HarnessAnswered {
  readonly verdict: HarnessVerdict;
  readonly answer: HarnessAnswer;
}

export interface HarnessCaseRun {
  records: RunRecord[];
  answers: HarnessAnswered[];
  issues: ConfigIssue[];
  /** The calls each event let through (allowed, or left to the harness), by call id. */
  started: Set<string>;
  /** The harness's tools and hooks, for the names the expectations use. */
  tools: { qualifiedName: string; functionName: string }[];
  hooks: string[];
}

/** The fields a test may leave out of an event, filled as the harness would. */
function completed(
  payload: Readonly<Record<string, unknown>>,
  harness: HarnessName,
  session: string,
  index: number,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...payload };
  const sessionKey = harness === "cursor" ? "conversation_id" : "session_id";
  filled[sessionKey] ??= session;
  if (harness === "claude" || harness === "codex") filled.tool_use_id ??= `toolu_test_${index}`;
  if (harness === "gemini") filled.tool_call_id ??= `call_test_${index}`;
  if (harness === "cursor") filled.tool_use_id ??= `call_test_${index}`;
  return filled;
}

/** The harness a case's events come from: its own `harness:`, else the one the config guards. */
function harnessOf(test: ConfigTest, guarded: readonly HarnessName[]): HarnessName | string {
  if (test.harness !== undefined) return test.harness;
  if (guarded.length === 1) return guarded[0]!;
  return guarded.length
    ? `the config guards ${guarded.join(", ")}: say which harness sends this case's events (harness: ${guarded[0]})`
    : `the config does not say it guards a harness: add "harness: claude" (or codex, gemini, cursor) at its top level`;
}

export async function runHarnessCase(
  configPath: string,
  testCase: ConfigTestCase,
  log: HookLogger,
  checkOnly: boolean,
): Promise<HarnessCaseRun> {
  const { test, file } = testCase;
  const run: HarnessCaseRun = {
    records: [],
    answers: [],
    issues: [],
    started: new Set(),
    tools: [],
    hooks: [],
  };
  const issue = (path: (string | number)[], message: string): void => {
    run.issues.push({ severity: "error", file, ...testCase.positionOf(path), path, message });
  };
  const { loadConfig } = await import("../config/load-config.js");
  const peek = await loadConfig(configPath, { store: new MemoryStore(), logger: log });
  const guarded = harnessesOf(peek.config);
  await peek.close();
  const harness = harnessOf(test, guarded);
  if (!(harness in HARNESSES)) {
    issue([...testCase.path, "events"], harness);
    return run;
  }
  const protocol = HARNESSES[harness as HarnessName];
  const store = new MemoryStore();
  const hooks = await loadHarnessHooks(configPath, protocol.name, {
    store,
    logger: log,
    ...(test.agent !== undefined ? { agent: test.agent } : {}),
  });
  try {
    run.tools = protocol.tools.map((tool) => ({
      qualifiedName: tool.family ?? tool.name,
      functionName: tool.name,
    }));
    run.hooks = hooks.registry.list().map((hook) => hook.name);
    const session = `test-${test.name}`;
    const events = (test.events ?? []).map((payload, index) => {
      try {
        return protocol.parse(completed(payload, protocol.name, session, index));
      } catch (error) {
        if (!HarnessInputError.isInstance(error)) throw error;
        issue([...testCase.path, "events", index], `${protocol.label} event: ${error.message}`);
        return undefined;
      }
    });
    if (run.issues.length || checkOnly) return run;
    for (const event of events) {
      const runId = randomUUID();
      const startedAt = Date.now();
      const outcome = await decideHarnessEvent(event!, {
        protocol,
        registry: hooks.registry,
        policies: hooks.policies,
        store,
        log,
        runId,
      });
      const { verdict } = outcome;
      run.answers.push({ verdict, answer: protocol.answer(event!, verdict) });
      run.records.push(harnessRunRecord(event!, outcome, runId, startedAt));
      const letThrough = verdict.decision === "allow" || verdict.decision === "none";
      if (event!.tool && event!.kind === "tool_call" && letThrough) run.started.add(event!.tool.callId);
    }
    return run;
  } finally {
    await hooks.close();
  }
}

/** Whether `actual` has every field of `expected` (objects compared field by field, the rest exactly). */
function holds(expected: unknown, actual: unknown): boolean {
  if (typeof expected !== "object" || expected === null)
    return JSON.stringify(expected) === JSON.stringify(actual);
  if (typeof actual !== "object" || actual === null) return false;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      expected.length === actual.length &&
      expected.every((item, index) => holds(item, actual[index]))
    );
  return Object.entries(expected).every(([key, value]) =>
    holds(value, (actual as Record<string, unknown>)[key]),
  );
}

function answerJson(answer: HarnessAnswer): unknown {
  if (!answer.stdout?.trim()) return {};
  try {
    return JSON.parse(answer.stdout);
  } catch {
    return answer.stdout;
  }
}

/** The expectations about what the events were answered. */
export function checkHarnessAnswers(
  test: ConfigTest,
  answers: readonly HarnessAnswered[],
): { expectation: string; expected: unknown; actual: unknown }[] {
  const failures: { expectation: string; expected: unknown; actual: unknown }[] = [];
  const { expect } = test;
  const last = answers.at(-1);
  const decisions = answers.map((answered) => answered.verdict.decision);
  if (expect.decision !== undefined && last?.verdict.decision !== expect.decision)
    failures.push({ expectation: "decision", expected: expect.decision, actual: last?.verdict.decision });
  if (expect.decisions !== undefined && decisions.join(",") !== expect.decisions.join(","))
    failures.push({ expectation: "decisions", expected: expect.decisions, actual: decisions });
  const reason = last?.verdict.reason ?? "";
  for (const part of expect.reason_contains === undefined ? [] : [expect.reason_contains].flat())
    if (!reason.includes(part))
      failures.push({ expectation: "reason_contains", expected: part, actual: reason });
  if (expect.answer !== undefined && last !== undefined && !holds(expect.answer, answerJson(last.answer)))
    failures.push({ expectation: "answer", expected: expect.answer, actual: answerJson(last.answer) });
  if (expect.exit_code !== undefined && last?.answer.exitCode !== expect.exit_code)
    failures.push({ expectation: "exit_code", expected: expect.exit_code, actual: last?.answer.exitCode });
  return failures;
}
