import { describe, expect, it } from "vitest";
import { cli, cliProcess } from "../support/cli.js";

describe("hookwise validate", () => {
  it("accepts the quickstart (exit 0) and names warnings without failing", async () => {
    const out = await cli(["validate", "examples/quickstart/hookwise.yaml"]);
    expect(out).toMatchObject({ code: 0 });
    expect(out.stdout).toContain("examples/quickstart/hookwise.yaml: valid");
  });

  it("lists every error with file:line:col, path, expected and nearest value (exit 2)", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "hookwise-validate-"));
    try {
      const file = join(dir, "bad.yaml");
      writeFileSync(
        file,
        "runtime:\n  hooks:\n    - id: a\n      on: tool_strat\n      max_fires: -1\n      action: { type: gatee }\n",
      );
      const out = await cli(["validate", file]);
      expect(out.code).toBe(2);
      const lines = out.stderr.trim().split("\n");
      expect(lines).toEqual([
        `${file}:4:11: runtime.hooks[0].on: unknown event "tool_strat"; expected one of ${lines[0]!.split("expected one of ")[1]!.split(";")[0]}; did you mean "tool_start"?`,
        `${file}:5:18: runtime.hooks[0].max_fires: -1 is too small; expected a number ≥ 0`,
        expect.stringMatching(
          new RegExp(
            `^${file}:6:23: runtime\\.hooks\\[0\\]\\.action\\.type: unknown action "gatee"; expected one of .*; did you mean "gate"\\?$`,
          ),
        ),
        `${file}: 3 errors`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("hookwise validate --model", () => {
  it("checks a config that names no model as run --model runs it, and the model itself", async () => {
    const { mkdtempSync, writeFileSync, copyFileSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "hookwise-validate-model-"));
    try {
      const file = join(dir, "c.yaml");
      writeFileSync(
        file,
        "runtime:\n  hooks:\n    - { id: a, on: tool_start, action: { type: log, message: hi } }\n",
      );
      copyFileSync("examples/quickstart/script.yaml", join(dir, "s.yaml"));
      const bare = await cli(["validate", file]);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain('the agent "main" has no model');
      const given = await cli(["validate", file, "--model", "scripted:./s.yaml"]);
      expect([given.code, given.stdout.trim()]).toEqual([0, `${file}: valid`]);
      const missing = await cli(["validate", file, "--model", "scripted:./nope.yaml"]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("cannot read script file");
      const env = await cliProcess(["validate", file], { env: { HOOKWISE_MODEL: "bogus:x" } });
      expect(env.code).toBe(2);
      expect(env.stderr).toContain('unknown model provider "bogus"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("hookwise explain", () => {
  it("shows, per agent and event, the hooks in run order with kind, condition, priority and limits", async () => {
    const out = await cli(["explain", "examples/seeds/003-scopes.yaml"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("agent reviewer");
    expect(out.stdout).toMatch(
      /app_wide_compact \[transform\] priority 50 · app · when context_pressure .* · compact_context/,
    );
    expect(out.stdout).toMatch(
      /reviewer_lint \[inspect\] priority 100 · agent reviewer · when all_of .* · notify · max_fires 10, per session/,
    );
  });

  it("orders transforms before decides before inspects, by priority", async () => {
    const out = await cli(["explain", "examples/quickstart/hookwise.yaml"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    const toolCall = lines.indexOf("  tool_call");
    expect(lines[toolCall + 1]).toContain("policy [decide]");
    expect(lines[toolCall + 2]).toContain("audit-tool-calls [inspect]");
  });

  it("warns about a system-prompt injection only when its text can change (a fixed text stays cached)", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "hookwise-explain-cache-"));
    try {
      const file = join(dir, "c.yaml");
      const config = (content: string) =>
        `models: { default: "scripted:./s.yaml" }\nruntime:\n  hooks:\n    - id: ctx\n      on: model_request\n      action: { type: inject_message, strategy: system, content: "${content}" }\n`;
      writeFileSync(join(dir, "s.yaml"), "- text: hi\n");
      writeFileSync(file, config("Answer in one sentence."));
      const fixed = await cli(["explain", file]);
      expect(fixed.code).toBe(0);
      expect(fixed.stdout).not.toContain("prompt cache");
      writeFileSync(file, config("Task: {{run.input}}"));
      const templated = await cli(["explain", file]);
      expect(templated.stdout).toContain("defeats the provider's prompt cache");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("--json prints one JSON document and nothing else on stdout (it pipes to jq)", async () => {
    const out = await cli(["explain", "examples/quickstart/hookwise.yaml", "--json"]);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as Record<string, Record<string, { hook: string; kind: string }[]>>;
    expect(report.main!.tool_call!.map((hook) => `${hook.hook}:${hook.kind}`)).toEqual([
      "policy:decide",
      "audit-tool-calls:inspect",
    ]);
  });
});

describe("hookwise schema", () => {
  it("prints a JSON Schema that lists events, conditions and actions for editors", async () => {
    const out = await cli(["schema"]);
    expect(out.code).toBe(0);
    const schema = JSON.parse(out.stdout);
    const hook = schema.properties.runtime.properties.hooks.items;
    expect(hook.properties.on.enum).toEqual(
      expect.arrayContaining(["tool_call", "pre_tool_use", "turn_end"]),
    );
    const actionTypes = hook.properties.action.anyOf.map((option: any) => option.properties.type.const);
    expect(actionTypes).toEqual(expect.arrayContaining(["gate", "log", "notify", "transform_params"]));
    const conditionTypes = hook.properties.condition.anyOf.map((option: any) => option.properties.type.const);
    expect(conditionTypes).toHaveLength(14);
  });
});
