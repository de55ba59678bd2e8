/**
 * The test cases a config declares: under `tests:` in the config itself, and in a file
 * beside it named after it (`hookwise.yaml` → `hookwise.test.yaml`). Each case: a prompt
 * (with the model's answers scripted, or the config's own model) or a recorded session
 * (a `hookwise history --jsonl` export, replayed), and what must come of it.
 */

import { existsSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { lazy } from "../../deps/load-package.js";
import { z } from "../../deps/zod.js";
import { HARNESS_NAMES } from "../../harnesses/types.js";
import { ConfigError, type ConfigIssue, type ConfigPath } from "../source/config-error.js";
import { readConfigFile } from "../source/read-config-file.js";
import { parseSource, positionOf } from "../source/source-map.js";
import { zodIssues } from "../source/zod-issues.js";

const hookFired = lazy(() =>
  z.strictObject({
    id: z.string().min(1).describe("the hook's id"),
    times: z.number().int().min(0).optional().describe("exactly this many firings (default: at least one)"),
    effect: z
      .string()
      .min(1)
      .optional()
      .describe(
        "count only the firings that decided this (deny, rewriteArgs, inject, patch, ask, continue, …)",
      ),
  }),
);

const names = lazy(() => z.array(z.string().min(1)));

export const testExpectSchema = lazy(() =>
  z.strictObject({
    outcome: z.enum(["completed", "terminated", "suspended", "max_steps", "error"]).optional(),
    denied: names().optional().describe("tools (toolset.tool or function name) whose calls were denied"),
    ran: names().optional().describe("tools whose calls ran"),
    not_ran: names().optional().describe("tools with no call that ran"),
    text_contains: z.union([z.string(), names()]).optional(),
    hook_fired: z.union([hookFired(), z.array(hookFired())]).optional(),
    fired_in_order: names()
      .min(2)
      .optional()
      .describe("hooks whose first firings came in this order (priority, file order)"),
    decision: harnessDecision()
      .optional()
      .describe("events: what the last event was answered (allow, deny, ask, none)"),
    decisions: z
      .array(harnessDecision())
      .min(1)
      .optional()
      .describe("events: what each event was answered, in order"),
    reason_contains: z
      .union([z.string(), names()])
      .optional()
      .describe("events: text the last event's reason holds"),
    answer: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("events: fields the last event's JSON answer has (the harness's own format)"),
    exit_code: z.number().int().min(0).optional().describe("events: the last event's exit code"),
  }),
);

/** Expectations only a case of harness events can have. */
const HARNESS_EXPECTATIONS = ["decision", "decisions", "reason_contains", "answer", "exit_code"] as const;

const harnessDecision = lazy(() => z.enum(["allow", "deny", "ask", "none"]));

export const testCaseSchema = lazy(() =>
  z
    .strictObject({
      name: z.string().min(1),
      agent: z.string().optional(),
      prompt: z.string().optional(),
      model: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .optional()
        .describe("the model's answers, one per attempt (as in a scripted model's script)"),
      session: z.string().optional().describe("a session exported with hookwise history --jsonl, replayed"),
      harness: z
        .enum(HARNESS_NAMES)
        .optional()
        .describe("events: the harness that sends them (default: the one the config guards)"),
      events: z
        .array(z.record(z.string(), z.unknown()))
        .min(1)
        .optional()
        .describe(
          "hook events as the harness sends them on stdin (session_id and the call ids may be left out), answered in order in one session",
        ),
      expect: testExpectSchema(),
    })
    .refine(
      (value) =>
        [value.prompt, value.session, value.events].filter((given) => given !== undefined).length === 1,
      { message: "a test needs exactly one of prompt:, session: or events:" },
    )
    .superRefine((value, context) => {
      if (value.events !== undefined) return;
      for (const key of HARNESS_EXPECTATIONS)
        if (value.expect[key] !== undefined)
          context.addIssue({
            code: "custom",
            path: ["expect", key],
            message: `${key} is what a harness hook event was answered: it needs events:, not ${value.prompt !== undefined ? "prompt:" : "session:"}`,
          });
    }),
);

export const testFileSchema = lazy(() => z.strictObject({ tests: z.array(testCaseSchema()).min(1) }));

export type ConfigTest = z.output<ReturnType<typeof testCaseSchema>>;
export type TestExpect = z.output<ReturnType<typeof testExpectSchema>>;

export interface ConfigTestCase {
  /** The file it came from: the config, or the sibling test file. */
  file: string;
  test: ConfigTest;
  /** Where it is in that file (`tests[2]`). */
  path: ConfigPath;
  /** The line and column of a path in that file, for problems found when the case runs. */
  positionOf(path: ConfigPath): { line: number; column: number };
}

export interface ConfigTests {
  /** In order: the config's own cases, then the sibling file's. */
  cases: ConfigTestCase[];
}

/** The sibling test file of a config: `name.test.yaml` (or `.test.yml`, `.test.json`) beside it. */
export function siblingTestFile(configFile: string): string | undefined {
  const stem = basename(configFile, extname(configFile));
  for (const ext of [".test.yaml", ".test.yml", ".test.json"]) {
    const candidate = join(dirname(configFile), stem + ext);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function parseTests(text: string, file: string, within: "config" | "file"): ConfigTestCase[] {
  const source = parseSource(text);
  const cases = (tests: ConfigTest[]): ConfigTestCase[] =>
    tests.map((test, index) => ({
      file,
      test,
      path: ["tests", index],
      positionOf: (path) => positionOf(source, path),
    }));
  if (source.document.errors.length) {
    const issues: ConfigIssue[] = source.document.errors.map((error) => {
      const [line, column] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [1, 1];
      return { severity: "error", file, line, column, path: [], message: error.message.split("\n")[0]! };
    });
    throw new ConfigError(issues);
  }
  const data = source.document.toJS() as unknown;
  if (within === "config") {
    const tests = (data as { tests?: unknown })?.tests;
    if (tests === undefined) return [];
    const parsed = z.array(testCaseSchema()).safeParse(tests);
    if (!parsed.success)
      throw new ConfigError(
        zodIssues(parsed.error, z.array(testCaseSchema()), tests, source, file, ["tests"]),
      );
    return cases(parsed.data);
  }
  const parsed = testFileSchema().safeParse(data);
  if (!parsed.success) throw new ConfigError(zodIssues(parsed.error, testFileSchema(), data, source, file));
  return cases(parsed.data.tests);
}

/** The config's test cases; a malformed case is a ConfigError with file:line:col. */
export function readConfigTests(configFile: string): ConfigTests {
  const sibling = siblingTestFile(configFile);
  return {
    cases: [
      ...parseTests(readConfigFile(configFile), configFile, "config"),
      ...(sibling ? parseTests(readConfigFile(sibling), sibling, "file") : []),
    ],
  };
}
