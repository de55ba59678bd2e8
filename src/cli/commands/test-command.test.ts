/**
 * `hookwise test`: a config's own test cases — passing ones exit 0, a failing one exits 1
 * with a diff of what was expected and what happened, a malformed test file is an error
 * with file:line:col. (Every example config passes its own tests: test/cli/examples.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../../../test/support/cli.js";
import type { RunRecord } from "../../agent/run-record.js";
import { checkExpectations } from "./test-command.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TOOLS = `const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
export const read_file = { inputSchema: schema, execute: ({ path }) => "contents of " + path };
export const delete_file = { inputSchema: schema, execute: ({ path }) => "deleted " + path };
`;

function project(tests: string, inConfig = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-test-"));
  dirs.push(dir);
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `toolsets:
  fs: { kind: module, path: ./tools.mjs }
runtime:
  policies:
    - { decision: deny, tool: fs.delete_file, reason: "no deletes" }
${inConfig}`,
  );
  if (tests) writeFileSync(join(dir, "hookwise.test.yaml"), tests);
  return join(dir, "hookwise.yaml");
}

const CASE = `  - name: deletes are denied
    prompt: tidy up
    model:
      - tool_calls:
          - { name: fs_read_file, args: { path: a.md } }
          - { name: fs_delete_file, args: { path: a.md } }
      - text: "Read a.md; could not delete it."
    expect:
`;

describe("hookwise test", () => {
  it("passes a config's cases (sibling file and tests: in the config) and exits 0", async () => {
    const config = project(
      `tests:\n${CASE}      outcome: completed\n      denied: [fs.delete_file]\n      ran: [fs.read_file]\n      hook_fired: { id: policy, times: 2 }\n`,
      `tests:\n${CASE}      text_contains: could not delete\n`,
    );
    const out = await cli(["test", config]);
    expect(out.stdout).toContain("✓ deletes are denied");
    expect(out.stdout).toContain("2 test(s), 0 failed");
    expect(out.code).toBe(0);
  });

  it("says in one line that a config file does not exist (exit 2, no stack trace)", async () => {
    const out = await cli(["test", "no-such-config.yaml"]);
    expect(out.code).toBe(2);
    expect(out.stderr.trim()).toBe("hookwise: cannot read config file no-such-config.yaml: no such file");
  });

  it("fails with a readable diff, exit 1, and --json for CI", async () => {
    const config = project(`tests:\n${CASE}      denied: [fs.read_file]\n      outcome: terminated\n`);
    const out = await cli(["test", config]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain("✗ deletes are denied");
    expect(out.stdout).toContain('outcome:\n      - expected "terminated"\n      + actual   "completed"');
    expect(out.stdout).toContain(
      'denied:\n      - expected "fs.read_file"\n      + actual   ["fs.delete_file"]',
    );
    const json = JSON.parse((await cli(["test", config, "--json"])).stdout);
    expect(json.tests[0]).toMatchObject({
      passed: false,
      failures: [{ expectation: "outcome" }, { expectation: "denied" }],
    });
  });

  it("hook_fired with an effect counts only the firings that decided it", async () => {
    const passing = project(
      `tests:\n${CASE}      hook_fired: [{ id: policy, effect: deny, times: 1 }, { id: policy, effect: allow, times: 1 }]\n`,
    );
    expect((await cli(["test", passing])).code).toBe(0);
    const failing = project(`tests:\n${CASE}      hook_fired: { id: policy, effect: deny, times: 2 }\n`);
    const out = await cli(["test", failing]);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(
      "hook_fired policy (deny):\n      - expected 2\n      + actual   1\n        (its firings: allow, deny)",
    );
    const json = JSON.parse((await cli(["test", failing, "--json"])).stdout);
    expect(json.tests[0].failures[0]).toMatchObject({ expected: 2, actual: 1 });
  });

  it("a run that suspends: ran lists what ran before it, denied takes either name, counts are numbers", async () => {
    const config = project(
      `tests:
  - name: asks before paying
    prompt: tidy up
    model:
      - tool_calls:
          - { name: fs_read_file, args: { path: a.md } }
          - { name: fs_delete_file, args: { path: a.md } }
          - { name: fs_pay, args: { path: a.md } }
      - text: never reached
    expect:
      outcome: suspended
      ran: [fs.read_file, fs_read_file]
      not_ran: [fs.pay, fs.delete_file]
      denied: [fs.delete_file, fs_delete_file]
      hook_fired: { id: policy, times: 3 }
`,
      "    - { decision: ask_user, tool: fs.pay }\n",
    );
    writeFileSync(
      join(config, "../tools.mjs"),
      `${TOOLS}export const pay = { inputSchema: { type: "object", properties: {} }, execute: () => "paid" };\n`,
    );
    const out = await cli(["test", config]);
    expect(out.stdout).toContain("✓ asks before paying");
    expect(out.code).toBe(0);
    // A wrong count reads as a number, in text and JSON.
    const wrong = join(config, "../hookwise.test.yaml");
    writeFileSync(wrong, readFileSync(wrong, "utf8").replace("times: 3", "times: 4"));
    const failing = JSON.parse((await cli(["test", config, "--json"])).stdout);
    expect(failing.tests[0].failures).toEqual([{ expectation: "hook_fired policy", expected: 4, actual: 3 }]);
  });

  it("points at the line and column of a malformed test", async () => {
    const config = project(
      `tests:\n  - name: x\n    prompt: hi\n    expect:\n      denyed: [fs.delete_file]\n`,
    );
    const out = await cli(["test", config]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/hookwise\.test\.yaml:5:7/);
    expect(out.stderr).toContain("denyed");
    const none = await cli(["test", project("")]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("declares no test");
  });
});

describe("an expectation names a tool or hook that exists", () => {
  it("not_ran, denied and ran naming no tool: an error with the nearest tool, nothing passes", async () => {
    const config = project(
      `tests:\n${CASE}      not_ran: [fs.delete_fiel]\n      denied: [fs_delete]\n      ran: [Fs.read_file]\n`,
    );
    const out = await cli(["test", config]);
    expect(out.code).toBe(2);
    expect(out.stdout).not.toContain("✓");
    const file = config.replace(/hookwise\.yaml$/, "hookwise.test.yaml");
    expect(out.stderr).toContain(
      `${file}:10:17: tests[0].expect.not_ran[0]: not_ran tool "fs.delete_fiel" names no tool; expected one of: fs.read_file, fs.delete_file; did you mean "fs.delete_file"?`,
    );
    expect(out.stderr).toContain(
      `${file}:11:16: tests[0].expect.denied[0]: denied tool "fs_delete" names no tool; expected one of: fs.read_file, fs.delete_file; did you mean "fs_delete_file"?`,
    );
    expect(out.stderr).toContain(
      `${file}:12:13: tests[0].expect.ran[0]: ran tool "Fs.read_file": no toolset is named "Fs"; expected a toolset declared under toolsets: (fs); did you mean "fs"?`,
    );
  });

  it("hook_fired and fired_in_order naming no hook: an error with the nearest hook id", async () => {
    const config = project(
      `tests:\n${CASE}      hook_fired: { id: polcy }\n      fired_in_order: [policy, audt]\n`,
      "  hooks:\n    - { id: audit, on: tool_result, action: { type: log, message: seen } }\n",
    );
    const out = await cli(["test", config]);
    expect(out.code).toBe(2);
    const file = config.replace(/hookwise\.yaml$/, "hookwise.test.yaml");
    expect(out.stderr).toContain(
      `${file}:10:25: tests[0].expect.hook_fired.id: hook_fired "polcy" names no hook; expected the id of one of: audit, policy; did you mean "policy"?`,
    );
    expect(out.stderr).toContain('did you mean "policy"?');
    expect(out.stderr).toContain(
      `${file}:11:32: tests[0].expect.fired_in_order[1]: fired_in_order "audt" names no hook;`,
    );
    expect(out.stderr).toContain('did you mean "audit"?');
  });

  it("a disabled hook's id exists (times: 0 holds)", async () => {
    const config = project(
      `tests:\n${CASE}      hook_fired: { id: audit, times: 0 }\n`,
      "  hooks:\n    - { id: audit, enabled: false, on: tool_result, action: { type: log, message: seen } }\n",
    );
    const out = await cli(["test", config]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
  });
});

describe("fired_in_order", () => {
  const record = (hooks: string[]) =>
    ({
      steps: [],
      hooks: hooks.map((hook) => ({ event: "run_start", hook, kind: "transform", effect: "inject" })),
      outcome: "completed",
      text: "",
    }) as unknown as RunRecord;
  const test = { name: "t", prompt: "p", expect: { fired_in_order: ["a", "b"] } };

  it("holds when the hooks' first firings come in that order, others in between", () => {
    expect(checkExpectations(test, [record(["x", "a", "a", "y", "b", "a"])])).toEqual([]);
  });

  it("fails with the order they came in, or when one never fired", () => {
    expect(checkExpectations(test, [record(["b", "a"])])).toEqual([
      { expectation: "fired_in_order", expected: ["a", "b"], actual: ["b", "a"] },
    ]);
    expect(checkExpectations(test, [record(["a"])])).toEqual([
      { expectation: "fired_in_order", expected: ["a", "b"], actual: ["a"] },
    ]);
  });
});
