import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Flow } from "../../../hooks/flow.js";
import { HookTimedOut } from "../../../hooks/invoke-hook.js";
import type { Evaluation } from "../../build/evaluation.js";
import { testServices, toolResultEvaluation } from "../../build/test-evaluation.js";
import { compileAction } from "../index.js";
import { ShellWordsError, splitShellWords, templatedCode } from "./split-shell-words.js";

const FIXTURES = fileURLToPath(new URL("../../../../test/fixtures/shell/", import.meta.url));
const NODE = process.execPath;
const ATTACK = "a.txt; touch PWNED && echo $(id)";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-shell-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(action: unknown, evaluation: Evaluation, services = testServices(dir)) {
  return compileAction(action, services, ["action"]).run(evaluation) as Promise<Flow | undefined>;
}

/** Running (a killed orphan may linger as a zombie until something reaps it: not running). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return true;
  }
}

describe("splitShellWords: argv before templating, no shell semantics", () => {
  it.each([
    ["python -m py_compile {{tool.params.path}}", ["python", "-m", "py_compile", "{{tool.params.path}}"]],
    [`echo 'a b' "c \\"d\\" $e" f\\ g`, ["echo", "a b", 'c "d" $e', "f g"]],
    ["  spaced\tout  ", ["spaced", "out"]],
    [`printf '%s;|&' ""`, ["printf", "%s;|&", ""]],
    ["echo price=5$", ["echo", "price=5$"]],
  ])("%s", (command, argv) => {
    expect(splitShellWords(command)).toEqual(argv);
  });

  it.each([
    ["make && make test", '"&" is a shell operator'],
    ["cat a | wc", '"|" is a shell operator'],
    ["echo hi > out.txt", '">" is a shell operator'],
    ["ls; rm x", '";" is a shell operator'],
    ["echo `id`", '"`" is a shell operator'],
    ["echo $(id)", "$ expansions do not happen"],
    ["echo $HOME", "$ expansions do not happen"],
    ["echo 'open", "unterminated single quote"],
    ['echo "open', "unterminated double quote"],
    ["   ", "the command is empty"],
  ])("refuses %s", (command, message) => {
    expect(() => splitShellWords(command)).toThrow(ShellWordsError);
    expect(() => splitShellWords(command)).toThrow(message);
  });

  it("refuses templates inside code an interpreter runs", () => {
    expect(templatedCode(["sh", "-c", "cat {{tool.params.path}}"])).toMatch(
      /executed by it; pass the value in env:/,
    );
    expect(templatedCode(["/usr/bin/python3", "-c", "open('{{tool.params.path}}')"])).toBeDefined();
    expect(templatedCode(["sh", "-c", 'cat "$FILE"'])).toBeUndefined();
    expect(templatedCode(["cat", "-c", "{{tool.params.path}}"])).toBeUndefined();
    // Every way of reaching an interpreter's code is refused...
    for (const argv of [
      ["sh", "-ec", "echo {{tool.params.path}}"],
      ["bash", "-lc", "echo {{tool.params.path}}"],
      ["env", "sh", "-c", "echo {{tool.params.path}}"],
      ["env", "A=1", "timeout", "5s", "bash", "-c", "echo {{tool.params.path}}"],
      ["python3.12", "-c", "print('{{tool.params.path}}')"],
      ["node", "--eval={{tool.params.code}}"],
      ["python", "-m", "{{tool.params.module}}"],
      ["node", "{{tool.params.script}}"],
      ["{{tool.params.program}}", "x"],
      ["xargs", "{{tool.params.program}}"],
    ]) {
      expect(templatedCode(argv), argv.join(" ")).toBeDefined();
    }
    // ...while a template as a plain argument stays allowed (seed 003's example).
    expect(templatedCode(["python", "-m", "py_compile", "{{tool.params.path}}"])).toBeUndefined();
    expect(templatedCode(["sh", "./lint.sh", "{{tool.params.path}}"])).toBeUndefined();
  });
});

describe("shell action", () => {
  it("a tool argument with shell syntax arrives as ONE literal argv element; no PWNED", async () => {
    const evaluation = toolResultEvaluation({
      name: "fs_write_file",
      params: { path: ATTACK },
      result: "ok",
    });
    const flow = await run(
      {
        type: "shell",
        command: `${NODE} ${join(FIXTURES, "record-argv.mjs")} --file {{tool.params.path}} x`,
        templates_are_data: true,
      },
      evaluation,
    );
    expect(flow).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, "argv.json"), "utf8"))).toEqual(["--file", ATTACK, "x"]);
    expect(existsSync(join(dir, "PWNED"))).toBe(false);
    expect(existsSync(join(process.cwd(), "PWNED"))).toBe(false);
  });

  it("templates fill env values too; cwd is templated and resolved against the workspace", async () => {
    const evaluation = toolResultEvaluation({ name: "w", params: { path: ATTACK }, result: "ok" });
    await run(
      {
        type: "shell",
        command: `sh -c 'printf "%s" "$TARGET" > from-env.txt'`,
        env: { TARGET: "{{tool.params.path}}" },
        cwd: "{{workspace}}",
        templates_are_data: true,
      },
      evaluation,
    );
    expect(readFileSync(join(dir, "from-env.txt"), "utf8")).toBe(ATTACK);
    expect(existsSync(join(dir, "PWNED"))).toBe(false);
  });

  it("is refused at load when the command uses shell syntax or templates code", () => {
    expect(() =>
      compileAction({ type: "shell", command: "make && make test" }, testServices(dir), ["action"]),
    ).toThrow(/action\.command: "&" is a shell operator/);
    expect(() =>
      compileAction({ type: "shell", command: "sh -c 'cat {{tool.params.path}}'" }, testServices(dir), [
        "action",
      ]),
    ).toThrow(/action\.command: a \{\{…\}\} template inside the code that sh runs/);
  });

  it("on_error: inject shows a failure and its (capped) output in the tool result", async () => {
    const evaluation = toolResultEvaluation({
      name: "fs_write_file",
      params: { path: "a.py" },
      result: "wrote a.py",
    });
    const flow = await run(
      {
        type: "shell",
        command: `${NODE} -e "process.stdout.write('x'.repeat(5000)); process.exit(3)"`,
        on_error: "inject",
        max_output: 100,
      },
      evaluation,
    );
    expect(flow?.type).toBe("rewriteResult");
    const text = (flow as { result: string }).result;
    expect(text).toBe(
      `wrote a.py\n\n[shell] ${NODE} failed (exit 3):\n${"x".repeat(100)}\n[output truncated]`,
    );
  });

  it("on_error: ignore (an inspect) logs the failure; success is silent", async () => {
    const services = testServices(dir);
    const evaluation = toolResultEvaluation({ name: "t", result: "ok" });
    expect(
      await run({ type: "shell", command: `${NODE} -e "process.exit(0)"` }, evaluation, services),
    ).toBeUndefined();
    expect(
      await run({ type: "shell", command: `${NODE} -e "process.exit(2)"` }, evaluation, services),
    ).toBeUndefined();
    expect(services.logs.filter((line) => line.level === "info").map((line) => line.message)).toEqual([
      `hook "test-hook": [shell] ${NODE} failed (exit 2)`,
    ]);
  });

  it("a program that does not exist is a failure, not a crash", async () => {
    const evaluation = toolResultEvaluation({ name: "t", result: "ok" });
    const flow = await run(
      { type: "shell", command: "hookwise-no-such-program --flag", on_error: "inject" },
      evaluation,
    );
    expect((flow as { result: string }).result).toMatch(
      /^ok\n\n\[shell\] hookwise-no-such-program could not start: .*ENOENT/,
    );
  });

  it("the hook's own timeout ends the command and the hook has no answer, even with on_error: inject", async () => {
    // The run's deadlines may be later than the hook's own signal on a busy machine: a failure
    // injected then would be the hook's answer, and the call it guards would run.
    const controller = new AbortController();
    const evaluation = { ...toolResultEvaluation({ name: "t", result: "ok" }), signal: controller.signal };
    const late = join(dir, "late.txt");
    const code = `setTimeout(() => require("fs").writeFileSync(${JSON.stringify(late)}, "late"), 1500)`;
    const running = run({ type: "shell", command: `${NODE} -e '${code}'`, on_error: "inject" }, evaluation);
    setTimeout(() => controller.abort(new HookTimedOut()), 300);
    await expect(running).rejects.toBeInstanceOf(HookTimedOut);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect(existsSync(late)).toBe(false);
  });

  it("a timeout kills the process group, grandchildren included", async () => {
    const evaluation = toolResultEvaluation({ name: "t", result: "ok" });
    const started = Date.now();
    const flow = await run(
      {
        type: "shell",
        command: `${NODE} ${join(FIXTURES, "spawn-and-hang.mjs")}`,
        timeout: 0.8,
        on_error: "inject",
      },
      evaluation,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((flow as { result: string }).result).toContain("timed out after 0.8 s (killed):\nstarted");
    const [leader, grandchild] = JSON.parse(readFileSync(join(dir, "pids.json"), "utf8")) as number[];
    for (let tries = 0; tries < 50 && (alive(leader!) || alive(grandchild!)); tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive(leader!)).toBe(false);
    expect(alive(grandchild!)).toBe(false);
  });
});
