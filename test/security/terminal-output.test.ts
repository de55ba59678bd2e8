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
import { printable, printableLines, printableText } from "../../src/config/printable.js";
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
