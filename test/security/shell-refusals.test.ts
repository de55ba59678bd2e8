/**
 * The `shell` action's template rule, as a table: commands (with cwd and env) that must be
 * refused when the config loads, commands that must be accepted, values refused when the
 * command runs; then the rule end to end through `validate`, `run` and a hook's timeout.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderedArgvProblem, shellTemplateProblem } from "../../src/config/actions/shell/shell-rule.js";
import { ShellWordsError, splitShellWords } from "../../src/config/actions/shell/split-shell-words.js";
import { loadConfig } from "../../src/config/load-config.js";
import { cli } from "../support/cli.js";
import { runOn, SURFACES } from "../support/surfaces.js";

type Row = [
  command: string,
  options: { cwd?: string; env?: Record<string, string> },
  where: string,
  why: RegExp,
];

const X = "{{tool.params.x}}";

/** Refused when the config loads: [command, cwd/env, the field named, the reason]. */
const REFUSED: Row[] = [
  // Code a program runs: sed's script, awk's program, jq's filter, an interpreter's -c/-e.
  [`sed -n ${X} f.txt`, {}, "command", /code that sed runs/],
  [`sed -e ${X} f.txt`, {}, "command", /code that sed runs/],
  [`sed --expression=${X} f.txt`, {}, "command", /code that sed runs/],
  [`sed -f ${X} f.txt`, {}, "command", /code that sed runs/],
  [`sed -n -- ${X} f.txt`, {}, "command", /code that sed runs/],
  [`sed -n p f.txt -e ${X}`, {}, "command", /code that sed runs/],
  [`/usr/bin/sed -i.bak ${X} f.txt`, {}, "command", /code that sed runs/],
  [`awk ${X} f.txt`, {}, "command", /code that awk runs/],
  [`gawk -f ${X} f.txt`, {}, "command", /code that gawk runs/],
  [`gawk --source=${X} f.txt`, {}, "command", /code that gawk runs/],
  [`jq ${X} data.json`, {}, "command", /code that jq runs/],
  [`perl -ne ${X} f.txt`, {}, "command", /code that perl runs/],
  [`perl ${X}`, {}, "command", /code that perl runs/],
  [`perl -M${X} s.pl`, {}, "command", /code that perl runs/],
  [`ruby -e ${X}`, {}, "command", /code that ruby runs/],
  [`python3 -c ${X}`, {}, "command", /code that python runs/],
  [`python3.12 -Ic ${X}`, {}, "command", /code that python runs/],
  [`python -m ${X}`, {}, "command", /code that python runs/],
  [`python -X dev ${X}`, {}, "command", /code that python runs/],
  [`node -e ${X}`, {}, "command", /code that node runs/],
  [`node -p ${X}`, {}, "command", /code that node runs/],
  [`node --eval=${X}`, {}, "command", /code that node runs/],
  [`node --require ${X} app.js`, {}, "command", /code that node runs/],
  [`node ${X}`, {}, "command", /code that node runs/],
  [`bash -c ${X}`, {}, "command", /code that bash runs/],
  [`sh -ec 'echo ${X}'`, {}, "command", /code that sh runs/],
  [`php -r ${X}`, {}, "command", /code that php runs/],
  [`lua -e ${X}`, {}, "command", /code that lua runs/],
  // A program another program runs, or the arguments of one that runs them as a command.
  [`${X} --version`, {}, "command", /cannot name the program/],
  [`env ${X} ls`, {}, "command", /cannot name the program/],
  [`env FOO=${X} ls`, {}, "command", /env's own arguments/],
  [`timeout 5 ${X}`, {}, "command", /cannot name the program/],
  [`nice -n 5 python -c ${X}`, {}, "command", /code that python runs/],
  [`npx ${X}`, {}, "command", /cannot name the program/],
  [`xargs echo ${X}`, {}, "command", /xargs runs its arguments/],
  [`ssh host ls ${X}`, {}, "command", /ssh runs its arguments/],
  [`make test FILE=${X}`, {}, "command", /make runs its arguments/],
  [`npm run lint -- ${X}`, {}, "command", /npm runs its arguments/],
  [`vim ${X}`, {}, "command", /vim runs its arguments/],
  [`less ${X}`, {}, "command", /less runs its arguments/],
  [`prlimit --nofile=10 python3 -c ${X}`, {}, "command", /prlimit runs its arguments/],
  [`firejail --quiet sh -c ${X}`, {}, "command", /firejail runs its arguments/],
  [`sqlite3 notes.db ${X}`, {}, "command", /sqlite runs its arguments/],
  [`tsx script.ts ${X}`, {}, "command", /tsx runs its arguments/],
  [`find . -exec grep -l ${X} '{}' ';'`, {}, "command", /find's -exec command/],
  [`find . -execdir ${X} ';'`, {}, "command", /find's -exec command/],
  // git: global options, the subcommand, subcommands that store or run commands.
  [`git -c core.pager=${X} log`, {}, "command", /git's global options/],
  [`git -c ${X} log`, {}, "command", /git's global options/],
  [`git ${X}`, {}, "command", /git's subcommand/],
  [`git config core.editor ${X}`, {}, "command", /git config stores or runs commands/],
  [`git fetch --upload-pack=${X} origin`, {}, "command", /value of --upload-pack/],
  // Options whose value is a command.
  [`tar --to-command=${X} -xf a.tar`, {}, "command", /value of --to-command/],
  [`tar -I ${X} -xf a.tar`, {}, "command", /value of -I/],
  [`rsync -e ${X} a b:`, {}, "command", /value of -e/],
  // Wrapper options that take a value are read as the wrapper reads them: the program is found.
  [`timeout -s KILL 10 python3 -c ${X}`, {}, "command", /code that python runs/],
  [`timeout -sKILL 10 python3 -c ${X}`, {}, "command", /code that python runs/],
  [`timeout --signal=KILL 10 python3 -c ${X}`, {}, "command", /code that python runs/],
  [`timeout --signal KILL 5 node -e ${X}`, {}, "command", /code that node runs/],
  [`env -u LANG sed -n ${X} /etc/hostname`, {}, "command", /code that sed runs/],
  [`env -uLANG sed -n ${X} f.txt`, {}, "command", /code that sed runs/],
  [`env - python -c ${X}`, {}, "command", /code that python runs/],
  [`env -i -- PATH=/usr/bin sh -c ${X}`, {}, "command", /code that sh runs/],
  [`sudo -u app perl -e ${X}`, {}, "command", /code that perl runs/],
  [`env -u X xargs ${X}`, {}, "command", /xargs runs its arguments/],
  [`timeout -s KILL 5 git -c ${X} log`, {}, "command", /git's global options/],
  [`nice -n 5 ionice -c 3 stdbuf -oL bash -c ${X}`, {}, "command", /code that bash runs/],
  [`timeout -s ${X} 5 ls`, {}, "command", /timeout's own arguments/],
  // A wrapper option hookwise does not know, or one that hides the program, is refused.
  [`timeout --sig KILL 5 cat -- ${X}`, {}, "command", /timeout's option --sig is not one hookwise knows/],
  [`env -P /bin python -c ${X}`, {}, "command", /env's option -P is not one hookwise knows/],
  [`nice -5 cat -- ${X}`, {}, "command", /nice's option -5 is not one hookwise knows/],
  [`env -S 'python3 -c' ${X}`, {}, "command", /env -S splits its value into a command/],
  [`sudo -s cat -- ${X}`, {}, "command", /run the command through a shell/],
  [`npx -c eslint ${X}`, {}, "command", /npx -c runs its value as a shell command/],
  ["timeout --sig KILL 5 ls", { cwd: X }, "cwd", /timeout's option --sig is not one hookwise knows/],
  ["npx eslint a.js", { cwd: X }, "cwd", /program npx finds there/],
  // An option that takes a value, or loads code, does not take the script's place.
  [`perl -Ilib -c ${X}`, {}, "command", /code that perl runs/],
  [`perl -I lib -c ${X}`, {}, "command", /code that perl runs/],
  [`perl -Mstrict ${X}`, {}, "command", /code that perl runs/],
  [`perl -I ${X} script.pl`, {}, "command", /value of perl -I would choose code that perl runs/],
  [`ruby -rjson ${X}`, {}, "command", /code that ruby runs/],
  [`ruby -I lib ${X}`, {}, "command", /code that ruby runs/],
  [`node --require ./setup.cjs ${X}`, {}, "command", /code that node runs/],
  [`node -r ./setup.cjs ${X}`, {}, "command", /code that node runs/],
  [`node --import ./setup.mjs ${X}`, {}, "command", /code that node runs/],
  [`node --loader ./loader.mjs ${X}`, {}, "command", /code that node runs/],
  [`node --import=${X} app.js`, {}, "command", /value of node --import/],
  [`php -d display_errors=1 ${X}`, {}, "command", /code that php runs/],
  [`php -d ${X} script.php`, {}, "command", /value of php -d/],
  [`bash --rcfile ./rc ${X}`, {}, "command", /code that bash runs/],
  [`python -X pycache_prefix=/tmp/c ${X}`, {}, "command", /code that python runs/],
  [`python -W error ${X}`, {}, "command", /code that python runs/],
  [`python -W ${X} script.py`, {}, "command", /value of python -W/],
  [`lua -e 'x = 1' ${X}`, {}, "command", /code that lua runs/],
  // An interpreter option hookwise does not know is refused: what it does to the script is unknown.
  [`node --test a.mjs ${X}`, {}, "command", /node's option --test is not one hookwise knows/],
  [`python --frobnicate a.py ${X}`, {}, "command", /python's option --frobnicate is not one hookwise knows/],
  // perl -n/-p open their file arguments with a 2-argument open: "cmd|" runs cmd.
  [`perl -ne 'print' -- ${X}`, {}, "command", /perl -n opens its file arguments/],
  [`perl -lpe 's/a/b/' ${X}`, {}, "command", /perl -p opens its file arguments/],
  // git subcommand options that run a command.
  [`git grep -O${X} TODO`, {}, "command", /value of -O would choose a command that git grep runs/],
  [`git clone -u ${X} repo`, {}, "command", /value of -u/],
  // A template inside an option word: the input chooses the option, or the value of one
  // hookwise would not recognise (an abbreviation, a cluster).
  [`tar -${X} -xf a.tar`, {}, "command", /inside the option word "-\{\{tool.params.x\}\}"/],
  [`git -C repo grep -${X} TODO`, {}, "command", /inside the option word/],
  [`sort -${X} f.txt`, {}, "command", /inside the option word/],
  [`grep --regexp=${X} f.txt`, {}, "command", /inside the option word/],
  [`git log --output=${X}`, {}, "command", /inside the option word/],
  // Abbreviated long options (GNU getopt and git take any unique prefix).
  [`tar --to-c=${X} -xf a.tar`, {}, "command", /value of --to-c would choose a command/],
  [`tar --to-c ${X} -xf a.tar`, {}, "command", /value of --to-c would choose a command/],
  [`tar -xf a.tar --checkpoint=1 --checkpoint-a=exec=${X}`, {}, "command", /value of --checkpoint-a/],
  [`tar -xf a.tar --use-c ${X}`, {}, "command", /value of --use-c/],
  [`git ls-remote --upl=${X} /tmp/r`, {}, "command", /value of --upl/],
  [`git ls-remote --upl ${X} /tmp/r`, {}, "command", /value of --upl/],
  [`git grep --open ${X} TODO`, {}, "command", /value of --open/],
  [`git push --receive-p=${X}`, {}, "command", /value of --receive-p/],
  // Short clusters and tar's old-style first argument.
  [`zip -T -TT ${X} b.zip f.txt`, {}, "command", /value of -TT would choose a command that zip runs/],
  [`tar xIf ${X} a.tar`, {}, "command", /value of -I would choose a command that tar runs/],
  [`tar fI a.tar ${X}`, {}, "command", /value of -I would choose a command that tar runs/],
  [`tar ${X} a.tar`, {}, "command", /tar's first argument/],
  // Wrappers and programs known under other names.
  [`linux64 python3 -c ${X}`, {}, "command", /linux64 runs its arguments/],
  [`i386 python3 -c ${X}`, {}, "command", /i386 runs its arguments/],
  [`x86_64 python3 -c ${X}`, {}, "command", /x86_64 runs its arguments/],
  [`ssh-agent python3 -c ${X}`, {}, "command", /ssh-agent runs its arguments/],
  [`cross-env A=1 node -e ${X}`, {}, "command", /cross-env runs its arguments/],
  [`R -e ${X}`, {}, "command", /r runs its arguments/],
  [`Rscript -e ${X}`, {}, "command", /code that rscript runs/],
  [`rbash -c ${X}`, {}, "command", /code that rbash runs/],
  [`python3.12-dbg -c ${X}`, {}, "command", /code that python runs/],
  [`python3.7m -c ${X}`, {}, "command", /code that python runs/],
  [`curl --config ${X} http://x`, {}, "command", /value of --config/],
  [`curl -K ${X} http://x`, {}, "command", /value of -K/],
  [`git clone -c ${X} /tmp/r d`, {}, "command", /value of -c would choose a command that git clone runs/],
  [`git clone --config=${X} /tmp/r d`, {}, "command", /value of --config/],
  [`git clone --template=${X} /tmp/r d`, {}, "command", /value of --template/],
  [`git clone --template ${X} /tmp/r d`, {}, "command", /value of --template/],
  // A templated cwd that chooses the program, or the folder a program reads code from.
  ["./hook.sh", { cwd: "{{tool.params.dir}}" }, "cwd", /relative program "\.\/hook\.sh"/],
  ["bin/lint --all", { cwd: "{{tool.params.dir}}" }, "cwd", /relative program/],
  ["python -m py_compile a.py", { cwd: "{{tool.params.dir}}" }, "cwd", /folder python reads code from/],
  ["git status", { cwd: "sub/{{tool.params.dir}}" }, "cwd", /folder git reads code from/],
  // Tools that load their config (conftest.py, eslint.config.js) from the folder they run in.
  ["pytest -q", { cwd: "{{tool.params.dir}}" }, "cwd", /folder pytest reads code from/],
  ["eslint --max-warnings 0 .", { cwd: "{{tool.params.dir}}" }, "cwd", /folder eslint reads code from/],
  ["make", { cwd: "{{run.input}}" }, "cwd", /folder make reads code from/],
  ["timeout 5 node app.js", { cwd: "{{tool.params.dir}}" }, "cwd", /folder node reads code from/],
  // Environment variables read as code, a path to code, or options.
  ...[
    "NODE_OPTIONS",
    "LD_PRELOAD",
    "LD_LIBRARY_PATH",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "BASH_ENV",
    "ENV",
    "PERL5OPT",
    "RUBYOPT",
    "GIT_SSH_COMMAND",
    "GIT_CONFIG_PARAMETERS",
    "PATH",
    "HOME",
    "JAVA_TOOL_OPTIONS",
    "TAR_OPTIONS",
    "GREP_OPTIONS",
    "RSYNC_RSH",
    "OPENSSL_CONF",
    "AWKPATH",
    "WGETRC",
    "ZIPOPT",
    "XZ_OPT",
    "GZIP",
    "CURL_HOME",
    "GIT_PAGER",
    "MANPAGER",
    "SUDO_EDITOR",
    "NODE_EXTRA_CA_CERTS",
    "PROMPT_COMMAND",
  ].map(
    (name): Row => ["ls", { env: { [name]: `x:${X}` } }, `env.${name}`, new RegExp(`template in ${name}`)],
  ),
];

/** Refused by the splitter: shell syntax nothing would interpret. */
const SPLITTER_REFUSED: [string, RegExp][] = [
  ["ls *.txt", /"\*" is a glob character/],
  ["cat file?.txt", /"\?" is a glob character/],
  ["ls [ab].txt", /"\[" is a glob character/],
  ["cat ~/notes.txt", /leading "~"/],
  ["ls ~", /leading "~"/],
  ["echo hi # a comment", /"#" starting a word/],
  ["echo $HOME", /\$ expansions/],
  ["make && make test", /shell operator/],
];

/** Accepted: templates that land on data. */
const ACCEPTED: [string, { cwd?: string; env?: Record<string, string> }][] = [
  // Options whose names hold a command word without being one, and flags before an operand.
  [`gh repo create demo --description ${X}`, {}],
  [`curl -sS --compressed ${X}`, {}],
  [`rsync -a --progress -- ${X} backup/`, {}],
  [`gh issue list --per-page ${X}`, {}],
  [`./hook.sh --page ${X}`, {}],
  [`./hook.sh --action ${X}`, {}],
  [`./hook.sh --edit ${X}`, {}],
  [`git cherry-pick -s ${X}`, {}],
  [`git revert -s --no-edit ${X}`, {}],
  [`python -m py_compile ${X}`, {}],
  [`sh ./lint.sh ${X}`, {}],
  [`sh -c 'cat "$FILE"'`, { env: { FILE: X } }],
  [`bash -c 'wc -l -- "$1"' bash ${X}`, {}],
  [`python -c 'import sys; print(sys.argv[1])' ${X}`, {}],
  [`node script.mjs ${X}`, {}],
  [`perl script.pl ${X}`, {}],
  [`python -X dev script.py ${X}`, {}],
  [`perl -e 'print for @ARGV' -- ${X}`, {}],
  [`perl -Ilib script.pl ${X}`, {}],
  [`perl -Ilib -c script.pl ${X}`, {}],
  [`ruby -rjson script.rb ${X}`, {}],
  [`node --require ./setup.cjs app.js ${X}`, {}],
  [`node --max-old-space-size=256 app.js ${X}`, {}],
  [`python -X dev -W error script.py ${X}`, {}],
  [`fish -c 'echo $argv' ${X}`, {}],
  [`timeout -s KILL 10 python3 -m py_compile ${X}`, {}],
  [`timeout -sKILL --kill-after=2 5s cat -- ${X}`, {}],
  [`env -u LANG sed -n -e p -- ${X}`, {}],
  [`env -i PATH=/usr/bin A=1 cat -- ${X}`, {}],
  [`sudo -u app -- cat -- ${X}`, {}],
  [`nice -n 5 ionice -c 3 stdbuf -oL wc -l -- ${X}`, {}],
  [`git grep -n -e ${X} -- src`, {}],
  ["timeout --sig KILL 5 ls", {}],
  [`sed -n -e p -- ${X}`, {}],
  [`sed -n p -- ${X}`, {}],
  [`awk -v x=${X} '{ print x }' f.txt`, {}],
  [`jq --arg q ${X} '.[$q]' data.json`, {}],
  [`grep -n -e ${X} -- f.txt`, {}],
  [`git log -- ${X}`, {}],
  [`git show ${X}`, {}],
  [`cat -- ${X}`, {}],
  [`printf '%s\\n' ${X}`, {}],
  [`timeout 5 python -m py_compile ${X}`, {}],
  [`find {{workspace}} -name '*.ts' -newer ${X}`, {}],
  ["echo 'a*b' a#b '~' \"[x]\"", {}],
  ["./hook.sh", { cwd: "{{workspace}}" }],
  ["./hook.sh", { cwd: "{{workspace}}/sub", env: { TARGET: X } }],
  ["ls -la", { cwd: "{{tool.params.dir}}" }],
  ["/usr/bin/wc -l", { cwd: "{{tool.params.dir}}" }],
  ["node app.js", { env: { NODE_OPTIONS: "--max-old-space-size=256", INPUT: "{{run.input}}" } }],
  ["node {{workspace}}/app.js", { env: { HOME: "{{workspace}}" } }],
  // Values passed through env: to a script under ordinary names.
  ["./hook.sh", { env: { FILE: X, QUERY: X, NAME: X, TEXT: X, TARGET: X, INPUT: X, SRC: X } }],
  [`sh -c 'grep -n -e "$QUERY" -- "$FILE"'`, { env: { FILE: X, QUERY: X } }],
  // Options with a template as their own word after --, old-style tar without a command letter, zip's -T.
  [`tar xf a.tar -- ${X}`, {}],
  [`zip -T b.zip -- ${X}`, {}],
  [`git grep --count -e ${X} -- src`, {}],
];

function problem(command: string, options: { cwd?: string; env?: Record<string, string> }, vouched = false) {
  return shellTemplateProblem(splitShellWords(command), options.cwd, options.env, vouched);
}

describe("the shell template rule, as a table", () => {
  it.each(REFUSED)("refuses %s %j", (command, options, where, why) => {
    const found = problem(command, options);
    expect(found?.path.join(".")).toBe(where);
    expect(found?.message).toMatch(why);
  });

  it.each(SPLITTER_REFUSED)("the splitter refuses %s", (command, why) => {
    expect(() => splitShellWords(command)).toThrow(ShellWordsError);
    expect(() => splitShellWords(command)).toThrow(why);
  });

  // Not code hookwise knows of: accepted, on the author's word (templates_are_data) where the
  // program is not one hookwise knows to read data (test/security/shell-template-rule.test.ts).
  it.each(ACCEPTED)("accepts %s %j", (command, options) => {
    expect(problem(command, options, true)).toBeUndefined();
  });

  it.each([
    [["cat", X], "-n", /starts with "-" and would be read as an option by cat/],
    [["grep", X, "--", "f"], "--include=x", /read as an option by grep/],
    // A value after an option that does not take one is an option of its own.
    [["grep", "-n", X, "--", "f"], "--include=x", /read as an option by grep/],
    [["find", "--", X], "-delete", /read as an option by find/],
    [["vim2", X], "+!touch pwned", /starts with "\+"/],
    // Every templated word is checked as it runs, not only one that starts with the template.
    [["vim2", `+${X}`], "!touch pwned", /starts with "\+"/],
    [["cat", X], "a\0b", /NUL/],
    // The -- of a wrapper ends the wrapper's options, not the program's.
    [["env", "--", "cat", X], "-n", /read as an option by cat/],
    [["sudo", "-u", "app", "--", "cat", X], "-n", /read as an option by cat/],
    [["timeout", "-s", "KILL", "5", "find", "--", X], "-delete", /read as an option by find/],
    // tar reads host:file as a remote archive and connects to that host.
    [["tar", "-xf", X], "attacker.example:x.tar", /host:file.*--force-local/],
    [["tar", `--file=${X}`, "-x"], "evil:backup", /host:file/],
  ] as const)("refuses %j when the value is %j", (argv, value, why) => {
    const rendered = argv.map((word) => word.replaceAll(X, value));
    expect(renderedArgvProblem(argv, rendered)).toMatch(why);
  });

  it.each([
    [["cat", "--", X], "-n"],
    [["cat", `--file=${X}`], "-x"],
    [["cat", X], "notes.txt"],
    [["cat", "{{workspace}}"], "-odd-folder"],
    [["timeout", "-s", "KILL", "5", "cat", "--", X], "-n"],
    [["env", "-u", "LANG", "--", "cat", "--", X], "-n"],
    [["tar", "-xf", X], "backups/2026:11.tar"],
    // The value of an option that takes one is that option's, whatever it starts with.
    [["grep", "-n", "-e", X, "--", "notes.md"], "-v"],
    [["grep", "--regexp", X, "--", "notes.md"], "--include=x"],
    [["jq", "--arg", "q", X, ".[] | select(.n == $q)", "data.json"], "-1"],
    [["git", "commit", "-m", X], "- fix the parser"],
    [["date", "-d", X], "-1 day"],
    [["tar", "--force-local", "-xf", X], "c:backup.tar"],
    [["tar", "-czf", "b.tgz", "--", X], "notes:v2.txt"],
  ] as const)("runs %j with the value %j", (argv, value) => {
    const rendered = argv.map((word) => (word === X || word === "{{workspace}}" ? value : word));
    expect(renderedArgvProblem(argv, rendered)).toBeUndefined();
  });
});

describe("end to end", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-shell-guard-"));
    writeFileSync(
      join(dir, "tools.mjs"),
      `import { writeFileSync } from "node:fs";
export const note = {
  description: "Writes a note",
  inputSchema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] },
  execute: ({ x }) => { writeFileSync(new URL("./tool-ran.txt", import.meta.url), x); return "noted"; },
};
`,
    );
    writeFileSync(join(dir, "f.txt"), "one\ntwo\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function config(hook: string, x: string): string {
    writeFileSync(
      join(dir, "script.yaml"),
      `- tool_calls: [{ name: tools_note, args: { x: ${JSON.stringify(x)} } }]\n- text: done\n`,
    );
    const file = join(dir, "hookwise.yaml");
    writeFileSync(
      file,
      `models: { default: "scripted:./script.yaml" }
toolsets: { tools: { kind: module, path: ./tools.mjs } }
runtime:
  state: { kind: memory }
  hooks:
${hook}
agents:
  - { id: main, tools: [tools.*] }
`,
    );
    return file;
  }

  it("sed -n {{tool.params.x}} with x = '1e touch pwned': validate and run refuse it (exit 2, line:col); nothing is created", async () => {
    const file = config(
      `    - id: peek
      on: tool_result
      action:
        type: shell
        command: "sed -n {{tool.params.x}} f.txt"`,
      "1e touch pwned",
    );
    const validated = await cli(["validate", file]);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toContain(
      `${file}:10:18: runtime.hooks[0].action.command: a {{…}} template inside the code that sed runs would be executed by it`,
    );
    const ran = await cli(["run", file, "--prompt", "go"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("code that sed runs");
    expect(existsSync(join(dir, "pwned"))).toBe(false);
    expect(existsSync(join(dir, "tool-ran.txt"))).toBe(false);
  });

  // Each command ran the model's value as code before wrapper options and interpreter
  // options were read with their values; `pwned` is what the value tries to create.
  it.each([
    ["timeout -s KILL 10 sh -c {{tool.params.x}}", "touch pwned", "code that sh runs"],
    ["timeout -s KILL 10 python3 -c {{tool.params.x}}", "open('pwned', 'w')", "code that python runs"],
    ["env -u LANG sed -n {{tool.params.x}} f.txt", "1e touch pwned", "code that sed runs"],
    ["env -u HOME xargs {{tool.params.x}} pwned", "touch", "xargs runs its arguments"],
    ["perl -Ilib -c {{tool.params.x}}", "evil.pl", "code that perl runs"],
    ["node --require ./setup.cjs {{tool.params.x}}", "evil.cjs", "code that node runs"],
    ["perl -ne print -- {{tool.params.x}}", "touch pwned |", "perl -n opens its file arguments"],
  ])("%s with x = %j: validate and run refuse it; nothing is created", async (command, x, why) => {
    writeFileSync(join(dir, "evil.pl"), "BEGIN { open my $f, '>', 'pwned' } 1;\n");
    writeFileSync(join(dir, "evil.cjs"), "require('node:fs').writeFileSync('pwned', '');\n");
    writeFileSync(join(dir, "setup.cjs"), "");
    const file = config(
      `    - id: check
      on: tool_call
      action: { type: shell, command: ${JSON.stringify(command)} }`,
      x,
    );
    const validated = await cli(["validate", file]);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toContain(why);
    const ran = await cli(["run", file, "--prompt", "go"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(why);
    expect(existsSync(join(dir, "pwned"))).toBe(false);
    expect(existsSync(join(dir, "tool-ran.txt"))).toBe(false);
  });

  // Each ran the model's value as a command through tar, git or zip before option words
  // with templates, abbreviated options and option-reading variables were refused.
  it.each([
    ["tar -{{tool.params.x}} -xf a.tar", {}, "-to-command=touch pwned", "inside the option word"],
    ["git -C repo grep -{{tool.params.x}} TODO", {}, "Otouch ../pwned; true", "inside the option word"],
    ["tar -xf a.tar -{{tool.params.x}}", {}, "-use-compress-program=touch pwned", "inside the option word"],
    ["tar --to-c {{tool.params.x}} -xf a.tar", {}, "touch pwned", "value of --to-c"],
    [
      "tar -xf a.tar --checkpoint=1 --checkpoint-a {{tool.params.x}}",
      {},
      "exec=touch pwned",
      "value of --checkpoint-a",
    ],
    ["tar --use-c {{tool.params.x}} -xf a.tar", {}, "touch pwned", "value of --use-c"],
    [
      "tar -xf a.tar",
      { TAR_OPTIONS: "{{tool.params.x}}" },
      "--to-command=touch pwned",
      "template in TAR_OPTIONS",
    ],
    ["zip -T b.zip f.txt", { ZIPOPT: "{{tool.params.x}}" }, "-TT touch pwned;", "template in ZIPOPT"],
    ["tar -xf a.tar", { TAR_OPTIONS: "--to-c={{tool.params.x}}" }, "touch pwned", "template in TAR_OPTIONS"],
  ] as const)(
    "%s %j with x = %j: validate and run refuse it; nothing is created",
    async (command, env, x, why) => {
      execFileSync("tar", ["-cf", "a.tar", "f.txt"], { cwd: dir });
      const repo = join(dir, "repo");
      mkdirSync(repo);
      writeFileSync(join(repo, "notes.txt"), "TODO\n");
      execFileSync("git", ["init", "-q"], { cwd: repo });
      execFileSync("git", ["add", "notes.txt"], { cwd: repo });
      const file = config(
        `    - id: check
      on: tool_call
      action: { type: shell, command: ${JSON.stringify(command)}, env: ${JSON.stringify(env)} }`,
        x,
      );
      const validated = await cli(["validate", file]);
      expect(validated.code).toBe(2);
      expect(validated.stderr).toContain(why);
      const ran = await cli(["run", file, "--prompt", "go"]);
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(why);
      expect(existsSync(join(dir, "pwned"))).toBe(false);
      expect(existsSync(join(dir, "tool-ran.txt"))).toBe(false);
    },
  );

  it("a value passed in env: under a plain name reaches the script as data, and nothing is created", async () => {
    writeFileSync(join(dir, "show.sh"), '#!/bin/sh\nprintf "%s|%s" "$FILE" "$QUERY" > seen.txt\n', {
      mode: 0o755,
    });
    const file = config(
      `    - id: show
      on: tool_call
      action: { type: shell, command: "sh ./show.sh", env: { FILE: "{{tool.params.x}}", QUERY: "{{tool.params.x}}" }, templates_are_data: true }`,
      "$(touch pwned); touch pwned",
    );
    expect((await cli(["validate", file])).code).toBe(0);
    const ran = await cli(["run", file, "--prompt", "go"]);
    expect(ran.code).toBe(0);
    expect(readFileSync(join(dir, "seen.txt"), "utf8")).toBe(
      "$(touch pwned); touch pwned|$(touch pwned); touch pwned",
    );
    expect(existsSync(join(dir, "pwned"))).toBe(false);
  });

  it("the same value as a data argument after -- is a file name: sed runs, reads nothing, creates nothing", async () => {
    const file = config(
      `    - id: peek
      on: tool_result
      action:
        type: shell
        command: "sed -n -e p -- {{tool.params.x}}"
        on_error: inject`,
      "1e touch pwned",
    );
    expect((await cli(["validate", file])).code).toBe(0);
    const ran = await cli(["run", file, "--prompt", "go", "--json"]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain("sed failed (exit 2)");
    expect(ran.stdout).toContain("can't read 1e touch pwned");
    expect(existsSync(join(dir, "pwned"))).toBe(false);
  });

  it("a value starting with - is refused when the command runs, and the refusal names the hook", async () => {
    const file = config(
      `    - id: count
      on: tool_result
      action: { type: shell, command: "wc -l {{tool.params.x}}" }`,
      "--files0-from=/etc/passwd",
    );
    const ran = await cli(["run", file, "--prompt", "go", "--json"]);
    expect(ran.code).toBe(0); // an inspect hook: its failure is isolated and logged
    expect(ran.stderr).toMatch(
      /count.*\[shell\] wc refused: argument 2 \("--files0-from=\/etc\/passwd"\) starts with "-"/,
    );
  });

  it.each(SURFACES)(
    "%s: a hook's timeout kills its command and its children; the guarded tool call stops, naming the hook",
    async (surface) => {
      const late = join(dir, "late.txt");
      const pids = join(dir, "pids.json");
      writeFileSync(
        join(dir, "slow.mjs"),
        `import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
const code = ${JSON.stringify(`setTimeout(() => require("fs").writeFileSync(${JSON.stringify(late)}, "child"), 3000)`)};
const child = spawn(process.execPath, ["-e", code], { stdio: "ignore" });
writeFileSync(${JSON.stringify(pids)}, JSON.stringify([process.pid, child.pid]));
setTimeout(() => writeFileSync(${JSON.stringify(late)}, "parent"), 3000);
`,
      );
      const file = config(
        `    - id: slow-check
      on: tool_call
      timeout: 1
      action: { type: shell, command: "${process.execPath} slow.mjs {{tool.params.x}}", on_error: inject, templates_are_data: true }`,
        "a.txt",
      );
      const loaded = await loadConfig(file);
      try {
        const agent = await loaded.createAgent();
        const started = Date.now();
        const { result } = await runOn(surface, agent, "go");
        const [call] = result.steps[0]!.toolResults;
        expect(call).toMatchObject({ toolName: "tools_note", isError: true, executed: false });
        expect(call!.result).toBe(
          'tool not run: hook "slow-check" on tool_call: timed out after 1000 ms (failed closed)',
        );
        expect(existsSync(join(dir, "tool-ran.txt"))).toBe(false);
        // The command and its child are gone; past the 3 s they would have written at, nothing was.
        // (On a loaded machine the command may be killed before it wrote its pids: then it
        // started nothing.)
        if (existsSync(pids)) {
          const [parent, child] = JSON.parse(readFileSync(pids, "utf8")) as number[];
          for (let tries = 0; tries < 100 && (alive(parent!) || alive(child!)); tries++) await pause(20);
          expect(alive(parent!)).toBe(false);
          expect(alive(child!)).toBe(false);
        }
        await pause(Math.max(0, started + 3_500 - Date.now()));
        expect(existsSync(late)).toBe(false);
      } finally {
        await loaded.close();
      }
    },
    15_000,
  );
});

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
