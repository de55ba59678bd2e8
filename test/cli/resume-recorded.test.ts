/**
 * A run continued with `hookwise resume` is recorded: `trace` shows it past the approval
 * (the waiting call ran, its result, the final answer) and `replay` reads the whole run.
 * The CLI runs in-process; each command loads the config anew and shares only the SQLite
 * store beside it, as separate processes would. Temp folders are removed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TOOLS = `export const deploy = {
  inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
  execute: ({ env }) => "deployed " + env,
};
`;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-resume-recorded-"));
  dirs.push(dir);
  writeFileSync(join(dir, "tools.mjs"), TOOLS);
  writeFileSync(
    join(dir, "script.yaml"),
    '- tool_calls: [{ name: ops_deploy, args: { env: prod } }]\n- text: "Deployed to prod."\n',
  );
  const config = (extra: string) => `models:
  default: scripted:./script.yaml
toolsets:
  ops: { kind: module, path: ./tools.mjs }
runtime:
  hooks:
    - id: audit-results
      on: tool_result
      action: { type: log, message: "{{tool.fqn}} answered" }
  policies:
${extra}    - { decision: ask_user, tool: ops.deploy }
`;
  writeFileSync(join(dir, "hookwise.yaml"), config(""));
  writeFileSync(
    join(dir, "changed.yaml"),
    config('    - { decision: deny, tool: ops.deploy, reason: "deploys are frozen" }\n'),
  );
  return dir;
}

describe("a resumed run in the run records", () => {
  it("trace and replay see what happened after the approval", async () => {
    const dir = project();
    const config = join(dir, "hookwise.yaml");
    const run = await cli(["run", config, "--session", "s1", "--prompt", "ship it", "--json"]);
    const waiting = JSON.parse(run.stdout);
    expect(waiting.outcome).toBe("suspended");
    // The scripted model keeps its place in the session: the resume gets the answer after the call.
    const resumed = await cli(["resume", config, "--run", waiting.runId, "--approve", "all", "--json"]);
    expect(JSON.parse(resumed.stdout).outcome, resumed.stderr).toBe("completed");

    const trace = await cli(["trace", config, "--session", "s1"]);
    expect(trace.code, trace.stderr).toBe(0);
    const lines = trace.stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("run "))).toHaveLength(1);
    expect(trace.stdout).toContain("⏵ resumed after approval");
    expect(trace.stdout).toContain("ops.deploy");
    expect(trace.stdout).toContain("◀ deployed prod");
    expect(trace.stdout).toContain("hook audit-results (tool_result, inspect) → observed");
    expect(trace.stdout).toContain("assistant: Deployed to prod.");
    expect(trace.stdout).toContain("■ completed");
    expect(trace.stdout).not.toContain("waiting for approval");

    const json = JSON.parse((await cli(["trace", config, "--session", "s1", "--json"])).stdout);
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({ outcome: "completed", text: "Deployed to prod." });
    expect(json[0].steps[0].calls[0]).toMatchObject({ executed: true, result: "deployed prod" });

    // Replayed through a config that now denies the deploy: the call ran then, is denied now.
    const replay = await cli(["replay", join(dir, "changed.yaml"), "--from", await exported(config, dir)]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toContain(
      'ops.deploy {"env":"prod"}: asked by policy (approved) → denied by policy: "deploys are frozen"',
    );
    const same = await cli(["replay", config, "--session", "s1", "--json"]);
    const report = JSON.parse(same.stdout);
    expect(report.runs[0].outcome).toEqual({ before: "completed", after: "completed" });
    expect(report.changes).toBe(0);
  }, 60_000);
});

async function exported(config: string, dir: string): Promise<string> {
  const out = await cli(["history", config, "--session", "s1", "--jsonl"]);
  expect(out.code, out.stderr).toBe(0);
  const file = join(dir, "s1.jsonl");
  writeFileSync(file, out.stdout);
  return file;
}
