/**
 * The shell-template rule as an allowlist. A `{{…}}` value from the model may fill
 * arguments only of programs hookwise knows to read it as data (cat, grep, sort, find,
 * sed/awk/jq's data, git log …), and there only where the data goes. Every other program
 * needs the action's `templates_are_data: true`, which `validate` reports as a warning; and
 * what is code whatever the author says (an interpreter's code, `wget -e`, `openssl
 * -engine`, a test runner's files, `CMAKE_TOOLCHAIN_FILE`) is refused even then.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderedArgvProblem, shellTemplateProblem } from "../../src/config/actions/shell/shell-rule.js";
import { splitShellWords } from "../../src/config/actions/shell/split-shell-words.js";
import { cli } from "../support/cli.js";

type Verdict = "data" | "vouch" | "code";

/** What the rule says of a command: data (accepted), vouch (needs templates_are_data), code (refused even then). */
function verdict(command: string, env: Record<string, string> = {}, cwd?: string): Verdict {
  const argv = splitShellWords(command);
  if (shellTemplateProblem(argv, cwd, env, true)) return "code";
  return shellTemplateProblem(argv, cwd, env, false) ? "vouch" : "data";
}

const X = "{{tool.params.x}}";

const TABLE: [string, Verdict][] = [
  // The holes: code or files the model's value chooses.
  [`wget -e ${X} https://example.com`, "code"],
  [`wget --execute ${X} https://example.com`, "code"],
  [`wget --execute=${X} https://example.com`, "code"],
  [`wget -O out.html ${X}`, "vouch"],
  [`pytest ${X}`, "code"],
  [`pytest -- ${X}`, "code"],
  [`python3 -m pytest ${X}`, "code"],
  [`python -m unittest ${X}`, "code"],
  [`openssl dgst -engine ${X} file`, "code"],
  [`openssl dgst -sha256 ${X}`, "vouch"],
  // Interpreters: code in the command is the author's; a script or a module is not known.
  [`python -c 'import sys; print(sys.argv[1])' ${X}`, "data"],
  [`python -c ${X}`, "code"],
  [`python script.py ${X}`, "vouch"],
  [`python -m py_compile ${X}`, "data"],
  [`python -m http.server ${X}`, "vouch"],
  [`node -e 'console.log(process.argv[1])' -- ${X}`, "data"],
  [`node ${X}`, "code"],
  [`node tool.mjs ${X}`, "vouch"],
  [`ruby -e 'puts ARGV[0]' ${X}`, "data"],
  [`ruby script.rb ${X}`, "vouch"],
  [`perl -e 'print @ARGV' -- ${X}`, "data"],
  [`perl -ne print -- ${X}`, "code"],
  [`bash -c 'cat -- "$1"' bash ${X}`, "data"],
  [`bash -c 'cat ${X}'`, "code"],
  [`bash ./hook.sh ${X}`, "vouch"],
  [`sed -n p -- ${X}`, "data"],
  [`sed -n ${X} f.txt`, "code"],
  [`awk -v v=${X} 'BEGIN { print v }'`, "data"],
  [`jq --arg q ${X} '.[$q]' data.json`, "data"],
  [`jq ${X}`, "code"],
  // Build tools.
  [`make ${X}`, "code"],
  [`cmake -S . -B ${X}`, "code"],
  [`gradle ${X}`, "code"],
  [`mvn ${X}`, "code"],
  [`cargo run -- ${X}`, "code"],
  // Test runners.
  [`jest ${X}`, "code"],
  [`vitest run ${X}`, "code"],
  [`go test ${X}`, "code"],
  // Package managers.
  [`npm install ${X}`, "code"],
  [`pip install ${X}`, "code"],
  [`apt-get install ${X}`, "vouch"],
  [`apt install ${X}`, "vouch"],
  // Network clients.
  [`curl -s ${X}`, "vouch"],
  [`curl -K ${X} https://example.com`, "code"],
  [`ssh host ${X}`, "code"],
  [`scp ${X} host:/tmp`, "vouch"],
  [`rsync -e ${X} a b`, "code"],
  [`rsync -a -- ${X} dest/`, "vouch"],
  [`git clone -- ${X}`, "vouch"],
  [`git -c core.pager=${X} log`, "code"],
  [`git log --oneline -- ${X}`, "data"],
  [`git commit -m ${X}`, "data"],
  [`git grep -e ${X} -- src`, "data"],
  // Data programs, and where in them a template goes.
  [`cat -- ${X}`, "data"],
  [`grep -n -e ${X} -- notes.txt`, "data"],
  // A template inside an option word could choose the option: refused whatever the program.
  [`grep --regexp=${X} notes.txt`, "code"],
  [`grep -rn ${X} src`, "data"],
  [`grep -${X} notes.txt`, "code"],
  [`grep --include=x.md --pre ${X} x`, "vouch"],
  [`sort -o ${X} in.txt`, "vouch"],
  [`sort -k 2 -- ${X}`, "data"],
  [`wc -l ${X}`, "data"],
  [`wc --files0-from=${X}`, "code"],
  [`diff -u a.txt ${X}`, "data"],
  [`find . -name ${X}`, "data"],
  [`find . -exec cat ${X} ';'`, "code"],
  [`find . -fprint ${X}`, "vouch"],
  [`echo ${X}`, "data"],
  [`./lint.sh ${X}`, "vouch"],
  // Programs that do not honour "--": an option after it is still an option.
  [`find . -- -${X}`, "code"],
  [`find . -- -name ${X}`, "data"],
  [`echo -- -n${X}`, "code"],
  [`cat -- -n${X}`, "data"],
  [`tar -${X} f a.tar`, "code"],
];

describe("the template rule, program by program", () => {
  it.each(TABLE)("%s → %s", (command, expected) => {
    expect(verdict(command)).toBe(expected);
  });

  it("templated env values need the author's word, and code-reading variables are refused even with it", () => {
    expect(verdict("./notify.sh", { TURN_INPUT: X })).toBe("vouch");
    expect(verdict("cat notes.txt", { QUERY: X })).toBe("vouch");
    expect(verdict("cmake -S . -B build", { CMAKE_TOOLCHAIN_FILE: X })).toBe("code");
    expect(verdict("pytest", { PYTEST_ADDOPTS: X })).toBe("code");
    expect(verdict("node tool.mjs", { NODE_OPTIONS: X })).toBe("code");
    expect(verdict("openssl version", { OPENSSL_CONF: X })).toBe("code");
    expect(verdict("cat notes.txt", { FILE: "{{workspace}}/notes.txt" })).toBe("data");
  });

  it("a templated cwd needs the author's word unless the program only reads data", () => {
    expect(verdict("ls -la", {}, X)).toBe("data");
    expect(verdict("/usr/bin/make", {}, X)).toBe("code");
    expect(verdict("/opt/tool/run", {}, X)).toBe("vouch");
  });

  it("find and echo do not honour --: a value after it that starts with - is refused when it runs", () => {
    expect(renderedArgvProblem(["echo", "--", X], ["echo", "--", "-n"])).toMatch(
      /would be read as an option/,
    );
    expect(renderedArgvProblem(["find", ".", "--", X], ["find", ".", "--", "-delete"])).toMatch(
      /would be read as an option/,
    );
    expect(renderedArgvProblem(["cat", "--", X], ["cat", "--", "-n"])).toBeUndefined();
  });
});

describe("validate", () => {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-shell-vouch-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, "lint.sh"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(join(dir, "script.yaml"), "- text: ok\n");
  const config = (name: string, action: string) => {
    const file = join(dir, name);
    writeFileSync(
      file,
      `models: { default: "scripted:./script.yaml" }\nruntime:\n  hooks:\n    - id: check\n      on: tool_result\n      action: ${action}\n`,
    );
    return file;
  };

  it("refuses a program it does not know to read data, naming the way to vouch for it", async () => {
    const out = await cli(["validate", config("plain.yaml", `{ type: shell, command: "./lint.sh ${X}" }`)]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("runtime.hooks[0].action.command: ./lint.sh is not one of the programs");
    expect(out.stderr).toContain("templates_are_data: true");
  });

  it("with templates_are_data: true, accepts it and reports a warning", async () => {
    const file = config(
      "vouched.yaml",
      `{ type: shell, command: "./lint.sh ${X}", templates_are_data: true }`,
    );
    const out = await cli(["validate", file]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout + out.stderr).toMatch(
      /warning: runtime\.hooks\[0\]\.action\.templates_are_data: .*lint\.sh/,
    );
  });

  it("refuses wget -e even with templates_are_data: true", async () => {
    const file = config(
      "wget.yaml",
      `{ type: shell, command: "wget -e ${X} https://example.com", templates_are_data: true }`,
    );
    const out = await cli(["validate", file]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("would choose a command that wget runs");
  });
});
