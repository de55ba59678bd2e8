/**
 * The tools and hooks a test case's expectations name must exist: `not_ran` or `denied`
 * naming a tool the agent does not have would pass for the wrong reason, and `hook_fired`
 * naming no hook would fail with a bare count. Checked once the case's agent is built (its
 * tools known, an MCP server's included): each a config error at its line and column in the
 * test file, with the nearest tool or hook — the same check as the config's own references.
 */

import { nearest } from "../../errors/nearest.js";
import type { KnownTool } from "../check/check-references.js";
import { type AddIssue, toolReferenceCheck } from "../check/tool-reference-check.js";
import type { ConfigFile } from "../schema/schema.js";
import type { ConfigIssue, ConfigPath } from "../source/config-error.js";
import type { ConfigTestCase } from "./config-tests.js";

export interface TestReferences {
  config: Pick<ConfigFile, "toolsets">;
  /** The tools the case's agent can call. */
  tools: readonly KnownTool[];
  /** The hooks whose firings a record can show (`policy` for the policies). */
  hooks: readonly string[];
}

const TOOL_EXPECTATIONS = ["denied", "ran", "not_ran"] as const;

export function checkTestReferences(testCase: ConfigTestCase, known: TestReferences): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add: AddIssue = (path, message, extra = {}) => {
    issues.push({
      severity: extra.severity ?? "error",
      file: testCase.file,
      ...testCase.positionOf(path),
      path,
      message,
      ...(extra.expected ? { expected: extra.expected } : {}),
      ...(extra.suggestion ? { suggestion: extra.suggestion } : {}),
    });
  };
  const at = [...testCase.path, "expect"];
  const { expect } = testCase.test;
  const checkTool = toolReferenceCheck(known.config, { pending: [] }, add);
  for (const key of TOOL_EXPECTATIONS)
    expect[key]?.forEach((name, index) => {
      checkTool(name, [...at, key, index], `${key} tool`, known.tools, { exact: true });
    });

  const hooks = [...new Set(known.hooks)];
  const checkHook = (id: string, path: ConfigPath, what: string) => {
    if (hooks.includes(id)) return;
    add(path, `${what} "${id}" names no hook`, {
      expected: hooks.length ? `the id of one of: ${hooks.join(", ")}` : "the id of a hook of the config",
      suggestion: nearest(id, hooks),
    });
  };
  const fired = expect.hook_fired;
  if (Array.isArray(fired))
    fired.forEach((entry, index) => {
      checkHook(entry.id, [...at, "hook_fired", index, "id"], "hook_fired");
    });
  else if (fired) checkHook(fired.id, [...at, "hook_fired", "id"], "hook_fired");
  expect.fired_in_order?.forEach((id, index) => {
    checkHook(id, [...at, "fired_in_order", index], "fired_in_order");
  });
  return issues.sort((a, b) => a.line - b.line || a.column - b.column);
}
