/**
 * Terminal output cannot be forged: a tool argument, a tool result, a tool error and a
 * command's output holding ESC sequences, carriage returns and newlines followed by text
 * that looks like a verdict reach `log`, `notify`, a `shell` failure and the live trace —
 * and what the CLI prints holds no raw control character and no line that starts with the
 * forged text.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { printable, printableLines, printableOutput, printableText } from "../../src/config/printable.js";
import { cli } from "../support/cli.js";

const ATTACK = "a\u001b[2J\u001b[31mred\rOVERWRITTEN\nAPPROVED by admin\u009b1m\u202eevil";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-terminal-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup(): string {
  writeFileSync(
    join(dir, "tools.mjs"),
    `export const echo = {
  description: "Echoes",
  inputSchema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
  execute: ({ x }) => "result: " + x,
};
export const fail = {
  description: "Fails",
  inputSchema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
  execute: ({ x }) => { throw new Error("failed: " + x); },
};
`,
  );
  writeFileSync(
    join(dir, "script.yaml"),
    `- text: ${JSON.stringify(`thinking ${ATTACK}`)}
  tool_calls:
    - { name: t_echo, args: { x: ${JSON.stringify(ATTACK)} } }
    - { name: t_fail, args: { x: ${JSON.stringify(ATTACK)} } }
- text: done
`,
  );
  const file = join(dir, "hookwise.yaml");
  writeFileSync(
    file,
    `models: { default: "scripted:./script.yaml" }
toolsets: { t: { kind: module, path: ./tools.mjs } }
runtime:
  state: { kind: memory }
  hooks:
    - id: log-args
      on: tool_call
      action: { type: log, message: "args {{tool.params.x}}" }
    - id: log-result
      on: tool_result
      action: { type: log, message: "result {{tool.result}} error {{tool.error}}" }
    - id: tell
      on: tool_result
      action: { type: notify, title: "{{tool.name}}", message: "saw {{tool.params.x}}" }
    - id: lint
      on: tool_result
      action:
        type: shell
        command: "${process.execPath} -e \\"process.stdout.write(process.argv[1]); process.exit(1)\\" -- {{tool.params.x}}"
agents:
  - { id: main, tools: [t.*] }
`,
  );
  return file;
}

/** No raw control character but tab and newline, and no line starting with forged text. */
function expectNotForged(output: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for exactly these characters
  expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/);
  expect(output).not.toMatch(/^\s*(APPROVED|OVERWRITTEN|red)/m);
}

describe("terminal output cannot be forged", () => {
  it("human output: the trace, log, notify and a shell failure escape control characters", async () => {
    const out = await cli(["run", setup(), "--prompt", "go"]);
    expect(out.code).toBe(0);
    const all = out.stdout + out.stderr;
    expectNotForged(all);
    // The values are all there, visibly escaped.
    expect(out.stdout).toContain("model calls t_echo");
    expect(out.stdout).toContain(
      "  assistant: thinking a\\x1b[2J\\x1b[31mred\\rOVERWRITTEN\n    ┆ APPROVED by admin",
    );
    expect(out.stdout).toContain("\\x1b[2J");
    expect(out.stdout).toContain("\\nAPPROVED by admin");
    expect(out.stdout).toMatch(
      /✎ args a\\x1b\[2J\\x1b\[31mred\\rOVERWRITTEN\\nAPPROVED by admin\\x9b1m\\u202eevil/,
    );
    expect(out.stdout).toMatch(/🔔 \[info\] t_echo: saw a\\x1b\[2J/);
    expect(out.stdout).toContain("◀ t_fail (error): ");
    // The shell's own output (a command's, not a template's) keeps its lines, continued.
    expect(out.stdout).toMatch(
      /\[shell\] .* failed \(exit 1\):\n {4}┆ a\\x1b\[2J\\x1b\[31mred\\rOVERWRITTEN/,
    );
    expect(out.stdout).toMatch(/\n {4}┆ APPROVED by admin\\x9b1m\\u202eevil/);
  });

  it("--json: stdout is one parseable result; the logs on stderr are escaped too", async () => {
    const out = await cli(["run", setup(), "--prompt", "go", "--json"]);
    expect(out.code).toBe(0);
    expectNotForged(out.stderr);
    expect(out.stderr).toContain("✎ args a\\x1b[2J");
    const result = JSON.parse(out.stdout);
    expect(result.steps[0].toolCalls[0].args.x).toBe(ATTACK); // data is kept as it was
  });

  it("the helpers", () => {
    expect(printable("a\u001b[2J\r\n\tb\u0007")).toBe("a\\x1b[2J\\r\\n\tb\\x07");
    expect(printableLines("one\r\ntwo\u001b\nthree", "  | ")).toBe("one\n  | two\\x1b\n  | three");
    expect(printableText("line\nnext\u001b[0m")).toBe("line\nnext\\x1b[0m");
  });
});

/** Every kind the issue names: C0 (BEL, BS, CR), ESC, DEL, C1, bidi and line separators. */
const HOSTILE =
  "h\u0007\b\r\u001b]0;title\u0007\u001b[2J\u007f\u0085\u009b31m\u202e\u2066\u200f\u2028\u2029end";

/** No raw character a terminal acts on; newline and tab are the CLI's own structure. */
function expectNoRawControl(label: string, output: string): void {
  const raw =
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for exactly these characters
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.exec(
      output,
    );
  expect(raw && `${label}: U+${raw[0].charCodeAt(0).toString(16)} at ${raw.index}`).toBeNull();
}

function hostileProject(): string {
  writeFileSync(
    join(dir, "tools.mjs"),
    `export const echo = {
  description: ${JSON.stringify(`Echoes ${HOSTILE}`)},
  inputSchema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
  execute: ({ x }) => "result: " + x,
};
export const fail = {
  description: "Fails",
  inputSchema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
  execute: ({ x }) => { throw new Error("failed: " + x); },
};
`,
  );
  writeFileSync(
    join(dir, "script.yaml"),
    `- text: ${JSON.stringify(`thinking ${HOSTILE}`)}
  reasoning: ${JSON.stringify(`why ${HOSTILE}`)}
  tool_calls:
    - { name: t_echo, args: { x: ${JSON.stringify(HOSTILE)} } }
    - { name: t_fail, args: { x: ${JSON.stringify(HOSTILE)} } }
    - { name: t_echo, args: { x: deny-me } }
- text: ${JSON.stringify(`done ${HOSTILE}`)}
`,
  );
  const file = join(dir, "hookwise.yaml");
  writeFileSync(
    file,
    `models: { default: "scripted:./script.yaml" }
toolsets: { t: { kind: module, path: ./tools.mjs } }
runtime:
  hooks:
    - id: no-deny-me
      on: tool_call
      condition: { type: expression, expr: 'has(args.x) && args.x == "deny-me"' }
      action: { type: gate, reason: ${JSON.stringify(`denied ${HOSTILE}`)} }
agents:
  - { id: main, tools: [t.*] }
`,
  );
  writeFileSync(
    join(dir, "hookwise.test.yaml"),
    `tests:
  - name: ${JSON.stringify(`case ${HOSTILE}`)}
    prompt: go
    model:
      - text: ${JSON.stringify(`answer ${HOSTILE}`)}
    expect:
      text_contains: ${JSON.stringify(`other ${HOSTILE}`)}
`,
  );
  return file;
}

describe("every subcommand escapes control characters from data", () => {
  it("run, trace, history, replay, test, tools, resume (text and JSON)", async () => {
    const config = hostileProject();
    const outputs: Record<string, Awaited<ReturnType<typeof cli>>> = {};
    outputs.run = await cli(["run", config, "--session", "s1", "--prompt", `go ${HOSTILE}`]);
    expect(outputs.run.code, outputs.run.stderr).toBe(0);
    outputs.runJson = await cli(["run", config, "--session", "s2", "--prompt", `go ${HOSTILE}`, "--json"]);
    outputs.trace = await cli(["trace", config, "--session", "s1"]);
    outputs.traceJson = await cli(["trace", config, "--session", "s1", "--json"]);
    outputs.history = await cli(["history", config, "--session", "s1"]);
    outputs.historyJson = await cli(["history", config, "--session", "s1", "--json"]);
    outputs.historyJsonl = await cli(["history", config, "--session", "s1", "--jsonl"]);
    outputs.replay = await cli(["replay", config, "--session", "s1"]);
    outputs.replayJson = await cli(["replay", config, "--session", "s1", "--json"]);
    outputs.test = await cli(["test", config]);
    outputs.testJson = await cli(["test", config, "--json"]);
    outputs.tools = await cli(["tools", config]);
    outputs.toolsJson = await cli(["tools", config, "--json"]);
    outputs.resume = await cli(["resume", config, "--run", `r-${HOSTILE}`, "--approve", "all"]);
    outputs.missingSession = await cli(["trace", config, "--session", `s-${HOSTILE}`]);
    for (const [name, out] of Object.entries(outputs)) {
      expectNoRawControl(`${name} stdout`, out.stdout);
      expectNoRawControl(`${name} stderr`, out.stderr);
    }
    // The data is shown, escaped, where each command shows it.
    expect(outputs.trace.stdout).toContain("deny: denied h\\x07\\x08 \\x1b]0;title");
    expect(outputs.trace.stdout).toContain("\\x9b31m\\u202e");
    expect(outputs.test.code).toBe(1);
    expect(outputs.test.stdout).toContain('- expected "other h\\u0007');
    expect(outputs.test.stdout).toContain("\\x9b31m\\u202e");
    // JSON documents stay valid and keep the data exactly as it was.
    for (const name of ["runJson", "traceJson", "historyJson", "replayJson", "testJson", "toolsJson"]) {
      expect(() => JSON.parse(outputs[name]!.stdout), name).not.toThrow();
    }
    expect(outputs.historyJson.stdout.includes("\\u009b31m")).toBe(true);
    expect(JSON.stringify(JSON.parse(outputs.historyJson.stdout))).toContain(
      JSON.stringify(HOSTILE).slice(1, -1),
    );
    for (const line of outputs.historyJsonl.stdout.trim().split("\n"))
      expect(() => JSON.parse(line)).not.toThrow();
  });

  it("validate, explain and serve echo config values escaped", async () => {
    const file = join(dir, "bad.yaml");
    writeFileSync(
      file,
      `models: { default: ${JSON.stringify(`nope:${HOSTILE}`)} }
runtime:
  hooks:
    - id: ${JSON.stringify(`hook-${HOSTILE}`)}
      on: ${JSON.stringify(`tool_call${HOSTILE}`)}
      action: { type: log, message: "x" }
agents:
  - { id: main }
`,
    );
    const good = join(dir, "good.yaml");
    writeFileSync(
      good,
      `models: { default: "scripted:./script.yaml" }
runtime:
  hooks:
    - id: ${JSON.stringify(`hook-${HOSTILE}`)}
      on: tool_call
      action: { type: log, message: ${JSON.stringify(`m ${HOSTILE}`)} }
agents:
  - { id: main, instructions: ${JSON.stringify(`be ${HOSTILE}`)} }
`,
    );
    writeFileSync(join(dir, "script.yaml"), "- text: hi\n");
    const outputs = {
      validate: await cli(["validate", file]),
      validateGood: await cli(["validate", good]),
      explain: await cli(["explain", good]),
      explainJson: await cli(["explain", good, "--json"]),
      explainBad: await cli(["explain", file]),
      serveBad: await cli(["serve", file, "--port", "0"]),
      runBad: await cli(["run", file, "--prompt", "x"]),
    };
    expect(outputs.validate.code).toBe(2);
    expect(outputs.explain.code, outputs.explain.stderr).toBe(0);
    expect(outputs.explain.stdout).toContain("hook-h");
    for (const [name, out] of Object.entries(outputs)) {
      expectNoRawControl(`${name} stdout`, out.stdout);
      expectNoRawControl(`${name} stderr`, out.stderr);
    }
    expect(() => JSON.parse(outputs.explainJson.stdout)).not.toThrow();
  });

  it("printableOutput: every control but newline and tab; the CLI's own colours only when on", () => {
    expect(printableOutput("a\u001b[2Jb\u001b[31mc\u009b\u202e\n\td\u2028")).toBe(
      "a\\u001b[2Jb\\u001b[31mc\\u009b\\u202e\n\td\\u2028",
    );
    expect(printableOutput("\u001b[31mred\u001b[39m \u001b[2J \u001b]0;t\u0007", true)).toBe(
      "\u001b[31mred\u001b[39m \\u001b[2J \\u001b]0;t\\u0007",
    );
    expect(JSON.parse(printableOutput(JSON.stringify({ v: "\u009b\u202e\u2028" })))).toEqual({
      v: "\u009b\u202e\u2028",
    });
  });
});
