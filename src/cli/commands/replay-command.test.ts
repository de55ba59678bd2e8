/**
 * `hookwise replay`: a recorded session through a changed config, offline. Done when a
 * config with one added deny prints exactly the calls that would now be denied, and
 * neither the model nor a tool is called.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../../../test/support/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TOOLS = `import { appendFileSync } from "node:fs";
const ran = (name) => appendFileSync(new URL("./ran.log", import.meta.url), name + "\\n");
const schema = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
export const read_file = { inputSchema: schema, execute: ({ path }) => { ran("read_file"); return "contents of " + path; } };
export const delete_file = { inputSchema: schema, execute: ({ path }) => { ran("delete_file"); return "deleted " + path; } };
export const write_file = { inputSchema: schema, execute: ({ path }) => { ran("write_file"); return "wrote " + path; } };
`;

const CONFIG = `models:
  default: scripted:./script.yaml
toolsets:
  fs: { kind: module, path: ./tools.mjs }
runtime:
  policies:
    - { decision: deny, tool: fs.write_file, reason: "no writes" }
`;

/** A session recorded by `hookwise run` (SQLite beside the config), and the same config with one more deny. */
async function recorded(): Promise<{ dir: string; config: string; changed: string }> {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-replay-"));
  dirs.push(dir);
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(
    join(dir, "script.yaml"),
    `- tool_calls:
    - { name: fs_read_file, args: { path: notes.md } }
    - { name: fs_delete_file, args: { path: old.md } }
    - { name: fs_delete_file, args: { path: tmp.md } }
- text: "Tidied."
`,
  );
  writeFileSync(join(dir, "hookwise.yaml"), CONFIG);
  writeFileSync(
    join(dir, "changed.yaml"),
    `${CONFIG}    - { decision: deny, tool: fs.delete_file, reason: "deleting is not allowed" }\n`,
  );
  const run = await cli([
    "run",
    join(dir, "hookwise.yaml"),
    "--session",
    "s1",
    "--prompt",
    "tidy up",
    "--json",
  ]);
  expect(run.code).toBe(0);
  expect(readFileSync(join(dir, "ran.log"), "utf8")).toBe("read_file\ndelete_file\ndelete_file\n");
  rmSync(join(dir, "ran.log"));
  // A replay that called the model would fail on this answer.
  writeFileSync(join(dir, "script.yaml"), `- error: { status: 400, message: "the model was called" }\n`);
  return { dir, config: join(dir, "hookwise.yaml"), changed: join(dir, "changed.yaml") };
}

describe("hookwise replay", () => {
  it("through a config with one added deny, prints exactly the calls now denied; no model or tool is called", async () => {
    const { dir, changed } = await recorded();
    const out = await cli(["replay", changed, "--session", "s1"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const changes = out.stdout.split("\n").filter((line) => line.startsWith("  step "));
    expect(changes).toEqual([
      '  step 1 · fs.delete_file {"path":"old.md"}: ran → denied by policy: "deleting is not allowed"',
      '  step 1 · fs.delete_file {"path":"tmp.md"}: ran → denied by policy: "deleting is not allowed"',
    ]);
    expect(out.stdout).toContain("2 difference(s)");
    expect(existsSync(join(dir, "ran.log"))).toBe(false);
  });

  it("through the same config finds no difference; --json carries the comparison", async () => {
    const { config, changed } = await recorded();
    const same = await cli(["replay", config, "--session", "s1"]);
    expect(same.stdout).toContain("same decisions (3 call(s) compared)");
    expect(same.stdout).toContain("no difference");

    const json = await cli(["replay", changed, "--session", "s1", "--json"]);
    const report = JSON.parse(json.stdout);
    expect(report.changes).toBe(2);
    expect(
      report.runs[0].calls.map((call: { tool: string; after: { kind: string } }) => [
        call.tool,
        call.after.kind,
      ]),
    ).toEqual([
      ["fs.delete_file", "denied"],
      ["fs.delete_file", "denied"],
    ]);
  });

  it("reads a session exported by history --jsonl", async () => {
    const { dir, config, changed } = await recorded();
    const exported = await cli(["history", config, "--session", "s1", "--jsonl"]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: "session", id: "s1", runs: 1 });
    expect(lines.filter((line) => line.type === "run")).toHaveLength(1);
    writeFileSync(join(dir, "s1.jsonl"), exported.stdout);
    const out = await cli(["replay", changed, "--from", join(dir, "s1.jsonl"), "--json"]);
    expect(JSON.parse(out.stdout).changes).toBe(2);
  });

  it("names the line of a file that is not an export, and a session that was not recorded", async () => {
    const { dir, changed } = await recorded();
    writeFileSync(join(dir, "bad.jsonl"), `{"type":"session","id":"s1"}\nnot json\n`);
    const bad = await cli(["replay", changed, "--from", join(dir, "bad.jsonl")]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("bad.jsonl:2:1: not a JSON document");
    const missing = await cli(["replay", changed, "--session", "nope"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no session "nope"');
    const neither = await cli(["replay", changed]);
    expect(neither.stderr).toContain("give either --session ID or --from file.jsonl");
    const absent = await cli(["replay", changed, "--from", join(dir, "absent.jsonl")]);
    expect(absent.code).toBe(2);
    expect(absent.stderr.trim()).toBe(
      `hookwise: cannot read ${join(dir, "absent.jsonl")}: no such file; expected a session exported with hookwise history --jsonl`,
    );
  });
});

describe("hookwise trace", () => {
  it("shows a recorded run's steps, attempts, calls, every hook decision with its reason, and results", async () => {
    const { dir, changed } = await recorded();
    writeFileSync(
      join(dir, "script.yaml"),
      `- error: { status: 503, message: overloaded }
- tool_calls: [{ name: fs_delete_file, args: { path: old.md } }]
- text: "Could not delete."
`,
    );
    expect((await cli(["run", changed, "--session", "s2", "--prompt", "delete old.md", "--json"])).code).toBe(
      0,
    );
    const out = await cli(["trace", changed, "--session", "s2"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n").map((line) => line.trim());
    expect(lines).toContain("user: delete old.md");
    expect(lines).toContain("attempt 1: failed: internal 503: overloaded (retryable)");
    expect(lines).toContain("attempt 2: answered (tool-calls): calls fs_delete_file");
    expect(lines).toContain(
      '▶ fs.delete_file {"path":"old.md"} — denied by policy: "deleting is not allowed"',
    );
    expect(lines).toContain("hook policy (tool_call, decide) → deny: deleting is not allowed");
    expect(lines).toContain("assistant: Could not delete.");
    expect(lines.at(-2)).toBe("■ completed");
    const json = JSON.parse((await cli(["trace", changed, "--session", "s2", "--json"])).stdout);
    expect(json[0].steps[0].calls[0]).toMatchObject({ toolCallId: expect.any(String), executed: false });
  });
});

describe("hookwise test with a recorded session", () => {
  it("replays the session through the config and checks what it decides now", async () => {
    const { dir, config, changed } = await recorded();
    writeFileSync(
      join(dir, "s1.jsonl"),
      (await cli(["history", config, "--session", "s1", "--jsonl"])).stdout,
    );
    writeFileSync(
      join(dir, "changed.test.yaml"),
      `tests:
  - name: yesterday's session under the new deny
    session: ./s1.jsonl
    expect: { outcome: completed, denied: [fs.delete_file], ran: [fs.read_file], not_ran: [fs.delete_file] }
`,
    );
    const out = await cli(["test", changed]);
    expect(out.stdout).toContain("1 test(s), 0 failed");
    expect(out.code).toBe(0);
    expect(existsSync(join(dir, "ran.log"))).toBe(false);
  });
});
