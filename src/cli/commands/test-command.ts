/**
 * `hookwise test <config> [--json]`: runs the test cases the config declares (`tests:` in
 * it, and `<name>.test.yaml` beside it) and checks what each must come to: the outcome,
 * the tools denied and run, the answer's text, how often a hook fired. Each case runs in a
 * store of its own; a case with `model:` answers from that script, one with `session:`
 * replays a recorded session (no model or tool is called). Exit 1 when a case fails.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ReplayedRun, replayRuns } from "../../agent/replay-run.js";
import { verdictOf } from "../../agent/run-diff.js";
import { isMark, type RunRecord } from "../../agent/run-record.js";
import { type LoadedConfig, loadConfig } from "../../config/load-config.js";
import { manifestHookName } from "../../config/manifests/compile-manifest.js";
import { printable } from "../../config/printable.js";
import { ConfigError, type ConfigIssue } from "../../config/source/config-error.js";
import { checkTestReferences } from "../../config/testing/check-test-references.js";
import { type ConfigTest, type ConfigTestCase, readConfigTests } from "../../config/testing/config-tests.js";
import type { HookLogger } from "../../hooks/hook-context.js";
import { type ScriptEntry, scriptedModel } from "../../models/scripted-model.js";
import { MemoryStore } from "../../state/memory-store.js";
import { EXIT } from "../exit-codes.js";
import { checkHarnessAnswers, type HarnessAnswered, runHarnessCase } from "../harness-test-case.js";
import { runsFromJsonl } from "../session-jsonl.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";

export interface TestFailure {
  expectation: string;
  expected: unknown;
  actual: unknown;
  /** More on what was seen (a hook's firings), when it helps. */
  seen?: string;
}

/** What a case's run showed beyond its records. */
export interface CaseObservations {
  /** Calls whose body started: a suspended run's record lists none of its pending step's results. */
  started?: ReadonlySet<string>;
  /** `toolset.tool` of each function name the model can call. */
  qualifiedNames?: ReadonlyMap<string, string>;
}

type NamedCall = { qualifiedName: string; toolName: string };

export interface TestOutcome {
  name: string;
  file: string;
  passed: boolean;
  failures: TestFailure[];
}

function allDecisions(records: readonly RunRecord[]) {
  return records.flatMap((record) => [
    ...record.hooks,
    ...record.steps.flatMap((step) => [...step.hooks, ...step.calls.flatMap((call) => call.hooks)]),
  ]);
}

function calls(records: readonly RunRecord[]) {
  return records.flatMap((record) => record.steps.flatMap((step) => step.calls));
}

function named(list: readonly NamedCall[]): string[] {
  return [...new Set(list.map((call) => call.qualifiedName))];
}

/** A call answers to its `toolset.tool` name (what hooks and policies use) and to the model's. */
function has(list: readonly NamedCall[], name: string): boolean {
  return list.some((call) => call.qualifiedName === name || call.toolName === name);
}

/** What a case's expectations say of its records. */
export function checkExpectations(
  test: ConfigTest,
  records: readonly RunRecord[],
  observed: CaseObservations = {},
): TestFailure[] {
  const failures: TestFailure[] = [];
  const expect = test.expect;
  const last = records.at(-1);
  // A call the record knows only by the model's name (a suspended step) gets its qualified one.
  const all = calls(records).map((call) => {
    const qualified = observed.qualifiedNames?.get(call.toolName);
    return call.qualifiedName === call.toolName && qualified ? { ...call, qualifiedName: qualified } : call;
  });
  const denied = all.filter((call) => verdictOf(call).kind === "denied");
  const ran = all.filter((call) => call.executed || observed.started?.has(call.toolCallId) === true);
  if (expect.outcome !== undefined && last?.outcome !== expect.outcome)
    failures.push({ expectation: "outcome", expected: expect.outcome, actual: last?.outcome });
  for (const name of expect.denied ?? [])
    if (!has(denied, name)) failures.push({ expectation: "denied", expected: name, actual: named(denied) });
  for (const name of expect.ran ?? [])
    if (!has(ran, name)) failures.push({ expectation: "ran", expected: name, actual: named(ran) });
  for (const name of expect.not_ran ?? [])
    if (has(ran, name)) failures.push({ expectation: "not_ran", expected: name, actual: named(ran) });
  const text = records.map((record) => record.text).join("\n");
  const wanted = expect.text_contains === undefined ? [] : [expect.text_contains].flat();
  for (const part of wanted)
    if (!text.includes(part)) failures.push({ expectation: "text_contains", expected: part, actual: text });
  const decisions = allDecisions(records);
  const fired = expect.hook_fired === undefined ? [] : [expect.hook_fired].flat();
  for (const { id, times, effect } of fired) {
    const mine = decisions.filter((entry) => entry.hook === id);
    const count = mine.filter((entry) => effect === undefined || entry.effect === effect).length;
    if (times === undefined ? count === 0 : count !== times) {
      const what = effect === undefined ? "" : ` (${effect})`;
      const failure: TestFailure = {
        expectation: `hook_fired ${id}${what}`,
        expected: times ?? "at least once",
        actual: count,
      };
      if (effect !== undefined)
        failure.seen = `its firings: ${mine.length === 0 ? "none" : mine.map((entry) => entry.effect).join(", ")}`;
      failures.push(failure);
    }
  }
  if (expect.fired_in_order) {
    const firstFirings = [...new Set(decisions.map((entry) => entry.hook))];
    const order = firstFirings.filter((id) => expect.fired_in_order!.includes(id));
    if (order.join("\n") !== expect.fired_in_order.join("\n"))
      failures.push({ expectation: "fired_in_order", expected: expect.fired_in_order, actual: order });
  }
  return failures;
}

/**
 * Builds the case's agent, checks the names its expectations use, and runs it unless a name
 * is wrong (or `checkOnly`: an earlier case had a wrong name, so no case's result counts).
 */
async function runCase(
  configPath: string,
  testCase: ConfigTestCase,
  io: CliIO,
  checkOnly: boolean,
): Promise<{
  records: RunRecord[];
  issues: ConfigIssue[];
  observed?: CaseObservations;
  answers?: HarnessAnswered[];
}> {
  const { file, test } = testCase;
  const logger = {
    debug() {},
    info() {},
    warn: (m: string) => io.stderr.line(`  warning: ${m}`),
    error: (m: string) => io.stderr.line(`  error: ${m}`),
  };
  if (test.events !== undefined) return runEventsCase(configPath, testCase, logger, checkOnly);
  const store = new MemoryStore();
  const loaded = await loadConfig(configPath, { store, logger });
  try {
    const records: RunRecord[] = [];
    const model = test.model
      ? scriptedModel(test.model as ScriptEntry[], { modelId: `test "${test.name}"`, source: file })
      : undefined;
    const agent = await loaded.createAgent(test.agent, {
      ...(model ? { model } : {}),
      recordRuns: false,
      onRunRecord: (record) => records.push(record),
      // Nobody answers an ask in a test: it suspends the run (outcome: suspended).
      approvals: { suspend: true },
    });
    const issues = checkTestReferences(testCase, {
      config: loaded.config,
      tools: agent.runtime.tools,
      hooks: [...configHookIds(loaded), ...agent.runtime.registry.list().map((hook) => hook.name)].filter(
        (name) => !isMark(name),
      ),
    });
    if (issues.length || checkOnly) return { records, issues };
    if (test.session !== undefined) {
      const path = resolve(loaded.dir, test.session);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        throw new UsageError(`test "${test.name}" (${file}): cannot read session ${test.session}`);
      }
      const replayed: ReplayedRun[] = await replayRuns(agent, runsFromJsonl(text, path).runs, { store });
      return { records: replayed.map((run) => run.replayed), issues };
    }
    // Streamed, to see each call's body start, also in a step the run suspended in.
    const started = new Set<string>();
    const live = agent.stream(test.prompt!, { sessionId: `test-${test.name}` });
    for await (const event of live) if (event.type === "tool-execution-start") started.add(event.toolCallId);
    await live.result;
    const qualifiedNames = new Map(
      agent.runtime.tools.map((tool) => [tool.functionName, tool.qualifiedName]),
    );
    return { records, issues, observed: { started, qualifiedNames } };
  } finally {
    await loaded.close();
  }
}

/** A case written as harness hook events: answered in order, then its names checked. */
async function runEventsCase(
  configPath: string,
  testCase: ConfigTestCase,
  logger: HookLogger,
  checkOnly: boolean,
) {
  const run = await runHarnessCase(configPath, testCase, logger, checkOnly);
  const issues = run.issues.length
    ? run.issues
    : checkTestReferences(testCase, {
        config: { toolsets: {} },
        tools: run.tools,
        hooks: run.hooks.filter((name) => !isMark(name)),
      });
  const qualifiedNames = new Map(run.tools.map((tool) => [tool.functionName, tool.qualifiedName]));
  return {
    records: run.records,
    issues,
    observed: { started: run.started, qualifiedNames },
    answers: run.answers,
  };
}

/** Every hook id of the config, a disabled one's and every agent's included. */
function configHookIds(loaded: LoadedConfig): string[] {
  const { validated } = loaded;
  return [
    ...validated.manifests.map((manifest, index) => manifestHookName(manifest, index)),
    ...validated.appHooks.map((entry) => entry.id),
    ...[...validated.agentHooks.values()].flat().map((entry) => entry.id),
  ];
}

/** Runs every case; a case naming a tool or hook that does not exist is a ConfigError (all of them, at once). */
export async function runConfigTests(configPath: string, io: CliIO): Promise<TestOutcome[]> {
  const { cases } = readConfigTests(configPath);
  if (cases.length === 0)
    throw new UsageError(
      `${configPath} declares no test: add tests: to it, or a file beside it named after it (e.g. hookwise.test.yaml)`,
    );
  const outcomes: TestOutcome[] = [];
  const issues: ConfigIssue[] = [];
  for (const testCase of cases) {
    const ran = await runCase(configPath, testCase, io, issues.length > 0);
    issues.push(...ran.issues);
    if (issues.length) continue;
    const failures = ran.records.length
      ? [
          ...checkExpectations(testCase.test, ran.records, ran.observed),
          ...(ran.answers ? checkHarnessAnswers(testCase.test, ran.answers) : []),
        ]
      : [{ expectation: "a run", expected: "a finished run", actual: "none" }];
    outcomes.push({ name: testCase.test.name, file: testCase.file, passed: failures.length === 0, failures });
  }
  if (issues.length) throw new ConfigError(issues);
  return outcomes;
}

function show(value: unknown): string {
  const text = printable(JSON.stringify(value) ?? "undefined");
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

export async function testCommand(
  configPath: string,
  options: { json?: boolean },
  io: CliIO,
): Promise<number> {
  const outcomes = await runConfigTests(configPath, io);
  const failed = outcomes.filter((outcome) => !outcome.passed);
  if (options.json) io.stdout.line(JSON.stringify({ config: configPath, tests: outcomes }, null, 2));
  else {
    for (const outcome of outcomes) {
      io.stdout.line(`${outcome.passed ? "✓" : "✗"} ${printable(outcome.name)}`);
      for (const failure of outcome.failures) {
        io.stdout.line(`    ${failure.expectation}:`);
        io.stdout.line(`      - expected ${show(failure.expected)}`);
        io.stdout.line(`      + actual   ${show(failure.actual)}`);
        if (failure.seen !== undefined) io.stdout.line(`        (${failure.seen})`);
      }
    }
    io.stdout.line(`${outcomes.length} test(s), ${failed.length} failed`);
  }
  return failed.length ? EXIT.error : EXIT.completed;
}
