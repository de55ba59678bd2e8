import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, cliProcess, copyExample } from "../support/cli.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function quickstart(): string {
  const example = copyExample("quickstart");
  cleanups.push(example.cleanup);
  return example.dir;
}

describe("hookwise run", () => {
  it("--json prints one RunResult document on stdout and nothing else; logs go to stderr", async () => {
    const dir = quickstart();
    const out = await cliProcess([
      "run",
      join(dir, "hookwise.yaml"),
      "--prompt",
      "What is 17 + 25?",
      "--json",
    ]);
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.outcome).toBe("completed");
    expect(result.text).toContain("42");
    expect(result.requests[0].attempt).toBe(1);
    expect(result.requests[1].attempt).toBe(2); // the scripted 429 was retried
    expect(result.events.some((event: { hook: string }) => event.hook === "policy")).toBe(true);
    expect(out.stderr).toContain("SCRIPTED model");
    expect(out.stderr).toContain("tool calc.add called");
    // The denied tool never ran (its body throws if it does; the model got the denial).
    const denied = result.steps[0].toolResults.find(
      (item: { toolName: string }) => item.toolName === "calc_delete_everything",
    );
    expect(denied).toMatchObject({ executed: false, isError: true });
    expect(denied.result).toContain("destructive tools are not allowed here");
  });

  it("human output shows steps, tool calls and hook firings as they happen, and says the model is scripted", async () => {
    const dir = quickstart();
    const out = await cli(["run", join(dir, "hookwise.yaml"), "--prompt", "hi"]);
    expect(out.code).toBe(0);
    const lines = out.stdout.split("\n");
    expect(lines[0]).toMatch(/SCRIPTED model .*no real LLM is called/);
    const index = (text: string) => lines.findIndex((line) => line.includes(text));
    expect(index("── step 1")).toBeGreaterThan(0);
    expect(index("⚑ hook request-context [transform on model_request] → patch")).toBeGreaterThan(
      index("── step 1"),
    );
    expect(index("⚑ hook policy [decide on tool_call] → deny")).toBeGreaterThan(0);
    expect(index("▶ run calc_add")).toBeGreaterThan(index("model calls calc_add"));
    expect(index("■ completed after 2 steps")).toBe(lines.filter(Boolean).length - 1);
  });

  it("the live trace prints each line where it happens: tool starts and results, then the step's tool_result hooks, then the next step", async () => {
    const dir = quickstart();
    writeFileSync(
      join(dir, "script.yaml"),
      [
        "- tool_calls:",
        "    - { name: calc_add, args: { a: 1, b: 2 } }",
        "    - { name: calc_weather, args: { city: Oslo } }",
        "- text: all done",
      ].join("\n"),
    );
    writeFileSync(
      join(dir, "order.yaml"),
      [
        'models: { default: "scripted:./script.yaml" }',
        "toolsets: { calc: { kind: module, path: ./tools.mjs } }",
        "runtime:",
        "  state: { kind: memory }",
        "  hooks:",
        '    - { id: audit-results, on: tool_result, action: { type: log, message: "saw {{tool.fqn}}" } }',
        "agents: [{ id: main, tools: [calc.*] }]",
      ].join("\n"),
    );
    const out = await cli(["run", join(dir, "order.yaml"), "--prompt", "go"]);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout
      .split("\n")
      .filter(Boolean)
      .slice(2)
      .map((line) => line.trim().replace(/ \{.*$/, ""));
    expect(lines).toEqual([
      "── step 1",
      "model calls calc_add",
      "model calls calc_weather",
      "▶ run calc_add",
      "◀ calc_add: 3",
      "▶ run calc_weather",
      "◀ calc_weather:",
      "✎ saw calc.add",
      "⚑ hook audit-results [inspect on tool_result] → observed",
      "✎ saw calc.weather",
      "⚑ hook audit-results [inspect on tool_result] → observed",
      "── step 2",
      "assistant: all done",
      "■ completed after 2 steps",
    ]);
  });

  it("--session continues the same conversation across processes (SQLite beside the config)", async () => {
    const dir = quickstart();
    writeFileSync(join(dir, "script.yaml"), ["- text: first answer", "- text: second answer"].join("\n"));
    const config = join(dir, "hookwise.yaml");
    const first = await cliProcess(["run", config, "--prompt", "one", "--session", "s1", "--json"]);
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, ".hookwise", "state.db"))).toBe(true);
    // The scripted model goes on where the session left its script: the second run gets the
    // second answer, and its request carries the first run's messages.
    const second = await cliProcess(["run", config, "--prompt", "two", "--session", "s1", "--json"]);
    expect(second.code).toBe(0);
    const result = JSON.parse(second.stdout);
    const sent = result.requests[0].messages.map((message: { role: string; content: unknown }) => [
      message.role,
      message.content,
    ]);
    expect(sent).toEqual([
      ["user", "one"],
      ["assistant", [{ type: "text", text: "first answer" }]],
      ["user", "two"],
    ]);
    expect(result.text).toBe("second answer");
    expect(result.messages).toHaveLength(4);
  });

  it("maps outcomes to exit codes: config error 2, max_steps 4, provider error 1", async () => {
    const dir = quickstart();
    const config = join(dir, "hookwise.yaml");
    writeFileSync(
      join(dir, "stop.yaml"),
      `models: { default: "scripted:./script.yaml" }\ntoolsets: { calc: { kind: module, path: ./tools.mjs } }\nruntime:\n  hooks:\n    - { id: no-input, on: tool_end, condition: { type: content_contains, keyword: forbidden }, action: { type: gate, reason: x } }\n`,
    );
    // gate on tool_end (tool_result) is invalid: validation error → exit 2 before anything runs.
    expect((await cli(["run", join(dir, "stop.yaml"), "--prompt", "forbidden"])).code).toBe(2);

    writeFileSync(
      join(dir, "script.yaml"),
      "- tool_calls: [{ name: calc_add, args: { a: 1, b: 2 } }]\n".repeat(3),
    );
    writeFileSync(
      join(dir, "loop.yaml"),
      `models: { default: "scripted:./script.yaml" }\ntoolsets: { calc: { kind: module, path: ./tools.mjs } }\nruntime: { max_steps: 2 }\n`,
    );
    expect((await cli(["run", join(dir, "loop.yaml"), "--prompt", "x", "--json"])).code).toBe(4);

    writeFileSync(join(dir, "script.yaml"), "- error: { status: 401, message: bad key }\n");
    const failed = await cli(["run", config, "--prompt", "x", "--json"]);
    expect(failed.code).toBe(1);
    // The message names the provider and model, the error class and the provider's words.
    expect(JSON.parse(failed.stdout)).toMatchObject({
      outcome: "error",
      error: { name: "ModelError", message: "model scripted:./script.yaml failed: auth (HTTP 401): bad key" },
    });
  });

  it("unknown flags and missing files exit 2 with a one-line reason", async () => {
    const missing = await cli(["run", "no/such/file.yaml", "--prompt", "x"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toContain("cannot read config file no/such/file.yaml: no such file");
    // Every command that reads a config says the same of a folder.
    for (const command of ["validate", "explain", "tools", "test"]) {
      const folder = await cli([command, "examples"]);
      expect(folder.code, command).toBe(2);
      expect(folder.stderr.trim(), command).toBe(
        "hookwise: cannot read config file examples: it is a folder",
      );
    }

    const flag = await cli(["run", "examples/quickstart/hookwise.yaml", "--promt", "x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--promt'");
    expect(flag.stderr).toContain("--prompt");

    const command = await cli(["rn", "x"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("run");
  });

  it("without --prompt and without a terminal asks for --prompt (exit 2)", async () => {
    const dir = quickstart();
    const out = await cli(["run", join(dir, "hookwise.yaml")]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("pass --prompt TEXT");
  });

  it("--agent picks an agent and names the nearest one when unknown", async () => {
    const dir = quickstart();
    const out = await cli(["run", join(dir, "hookwise.yaml"), "--agent", "mian", "--prompt", "x"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown agent "mian"');
    expect(out.stderr).toContain('did you mean "main"');
  });
});

describe("tool references", () => {
  it("a tools pattern that matches no tool is a config error in validate and in run (exit 2)", async () => {
    const example = copyExample("quickstart");
    cleanups.push(example.cleanup);
    const file = join(example.dir, "typo.yaml");
    writeFileSync(
      file,
      'models: { default: "scripted:./script.yaml" }\ntoolsets: { calc: { kind: module, path: ./tools.mjs } }\nagents:\n  - { id: main, tools: [calc.ad] }\n',
    );
    for (const args of [
      ["validate", file],
      ["run", file, "--prompt", "x"],
    ]) {
      const out = await cli(args);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain(
        `${file}:4:25: agents[0].tools[0]: tools pattern "calc.ad" matches no tool; expected a tool name or pattern over: calc.add,`,
      );
      expect(out.stderr).toContain('did you mean "calc.add"?');
    }
  });
});
