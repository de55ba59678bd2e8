/**
 * Where a `shell` action may put a template. The rule, from first principles: a value that
 * comes from the model, a tool or a user (`{{tool.…}}`, `{{run.input}}`, `{{error.…}}`,
 * `{{session.id}}` …) may only become a plain DATA argument of a program that cannot turn
 * data into code. So, for every word of the command (split before templating):
 *
 * - never the program itself, nor a program another program runs (`env`, `timeout`,
 *   `nice`, `npx` … are followed through to the program they run, reading their options
 *   as they do: shell-wrappers.ts; an option they have that is not known is refused);
 * - never code: an interpreter's code (`-c`, `-e`, `--eval`, `-m`, the script it runs, the
 *   value of an option that loads code such as `-I`, `-M`, `--require`: shell-interpreters.ts),
 *   `sed`'s script, `awk`'s program, `jq`'s filter, `find`'s `-exec`, `git`'s `-c` and
 *   global options, the value of an option that names a command (`--to-command=`,
 *   `--upload-pack`, `-e` of `rsync` …);
 * - never anywhere in the arguments of a program that runs its arguments as a command or
 *   reads code chosen by them (`xargs`, `ssh`, `make`, `npm`, editors, pagers …): refused
 *   outright;
 * - never an option: a value starting with `-` is refused when it runs, unless it comes
 *   after a literal `--` (end of options) that the program honours;
 * - `cwd` may be templated only when the program is named by an absolute path or found on
 *   PATH, and is not one that reads code from its working folder (interpreters, `git`,
 *   `make`, `npm` …);
 * - `env` values may be templated, except in variables that programs read as code, as a
 *   path to code, or as options (`NODE_OPTIONS`, `LD_PRELOAD`, `PYTHONPATH`, `BASH_ENV`,
 *   `GIT_*` …).
 *
 * `{{workspace}}` (the config's own folder) is the config author's value, not an input, and
 * may go anywhere. The static part is checked when the config loads (`validate`); the part
 * that depends on the value (a leading `-`) when the command runs.
 */
import { hasInputTemplate } from "./has-input-template.js";
import { ENV_HINT, INTERPRETERS, interpreterProblem } from "./shell-interpreters.js";
import { isOptionWord, optionTable, readOption } from "./shell-options.js";
import { RESOLVES_FROM_CWD, type WrapperWalk, walkWrappers } from "./shell-wrappers.js";

export { hasInputTemplate };

/**
 * Programs that run their arguments as a command, pass them to a remote shell, or read
 * code the arguments choose, in ways too varied to model: no input template anywhere.
 */
const REFUSE_ANY = new Set([
  "xargs",
  "parallel",
  "watch",
  "ssh",
  "su",
  "runuser",
  "chroot",
  "unshare",
  "nsenter",
  "flock",
  "script",
  "expect",
  "at",
  "batch",
  "crontab",
  "screen",
  "tmux",
  "eval",
  "source",
  ".",
  "make",
  "gmake",
  "cmake",
  "ninja",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "uv",
  "pipx",
  "poetry",
  "pip",
  "pip3",
  "bundle",
  "rake",
  "cargo",
  "go",
  "gradle",
  "mvn",
  "dotnet",
  "java",
  "vi",
  "vim",
  "nvim",
  "view",
  "ex",
  "ed",
  "emacs",
  "nano",
  "less",
  "more",
  "man",
  "busybox",
  "cmd",
  "pwsh",
  "powershell",
  "osascript",
  "gdb",
  "strace",
  "ltrace",
  "valgrind",
  "docker",
  "podman",
  "kubectl",
  // Wrappers whose options are not modelled: the program they run cannot be found.
  "pkexec",
  "firejail",
  "bwrap",
  "systemd-run",
  "setpriv",
  "prlimit",
  "numactl",
  "faketime",
  "fakeroot",
  "proot",
  "unbuffer",
  "rlwrap",
  "gosu",
  "su-exec",
  "chpst",
  "tini",
  "dumb-init",
  "xvfb-run",
  "dbus-run-session",
  "cpulimit",
  "torsocks",
  "proxychains",
  "sg",
  "setarch",
  "hyperfine",
  "entr",
  "direnv",
  "mise",
  "asdf",
  "nix-shell",
  "pipenv",
  "conda",
  "corepack",
  // Programs whose arguments are code or commands.
  "tsx",
  "ts-node",
  "sqlite",
  "psql",
  "mysql",
  "dc",
  "m4",
]);

/** Programs whose working folder holds code they run (a Makefile, package.json, .git/config…). */
const READS_CODE_FROM_CWD = new Set(["git", ...REFUSE_ANY, ...Object.keys(INTERPRETERS)]);

/** Programs that do not treat `--` as the end of options. */
const NO_END_OF_OPTIONS = new Set(["find", "echo"]);

/** Long options of any program whose value is a command, a program or code. */
const COMMAND_OPTION =
  /^--[\w-]*(exec|command|cmd|program|prog|script|shell|eval|filter|pager|editor|hook|pack|rsh|ssh|proxy|strategy|action|plugin|module|require|import|loader|preload|compress|askpass|helper)[\w-]*$/i;
/** Short options whose value is a command, per program. */
const COMMAND_SHORT: Record<string, string> = { rsync: "e", tar: "IF", zip: "T", curl: "K" };
/** Short options of git subcommands whose value is a command or picks one (`git grep -O<pager>`). */
const GIT_COMMAND_SHORT: Record<string, string> = {
  grep: "O",
  clone: "u",
  "ls-remote": "u",
  merge: "s",
  pull: "s",
  "cherry-pick": "s",
  revert: "s",
};

/** git subcommands that store or run commands given as arguments. */
const GIT_CODE_SUBCOMMANDS = new Set([
  "config",
  "submodule",
  "bisect",
  "filter-branch",
  "rebase",
  "difftool",
  "mergetool",
  "daemon",
  "archive",
  "send-email",
  "instaweb",
  "web--browse",
  "remote-ext",
  "remote-fd",
]);

/** Variables a program, the runtime or the loader reads as code, a path to code, or options. */
const CODE_ENV =
  /^(LD_\w*|DYLD_\w*|GIT_\w*|PYTHON\w*|PERL\w*|RUBY\w*|NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|BASH_ENV|ENV|BASHOPTS|SHELLOPTS|PS4|PROMPT_COMMAND|IFS|PATH|CDPATH|SHELL|HOME|ZDOTDIR|XDG_CONFIG_HOME|XDG_CONFIG_DIRS|EDITOR|VISUAL|PAGER|MANPAGER|LESSOPEN|LESSCLOSE|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|NPM_CONFIG_\w*|YARN_\w*|SSH_ASKPASS|SUDO_ASKPASS|BROWSER|GCONV_PATH|TCLLIBPATH|LUA_PATH\w*|LUA_CPATH\w*|LUA_INIT\w*|R_PROFILE\w*|R_ENVIRON\w*|PHPRC|PHP_INI_SCAN_DIR|DOTNET_STARTUP_HOOKS|CORECLR_\w*|KUBECONFIG|DOCKER_HOST|MAKEFLAGS|MFLAGS|GNUMAKEFLAGS)$/i;

/** A refusal: where (`command`, `cwd`, `env.NAME`) and why. */
export interface ShellProblem {
  readonly path: readonly string[];
  readonly message: string;
}

export function programName(word: string): string {
  return word
    .split(/[\\/]/)
    .pop()!
    .replace(/\.exe$/i, "")
    .replace(/[\d.]+$/, "") // python3.12 → python
    .toLowerCase();
}

/** Follows wrappers (env, timeout, sudo …) to the program they run. */
function wrapperWalk(argv: readonly string[]): WrapperWalk {
  return walkWrappers(argv, programName, hasInputTemplate);
}

/**
 * The first refusal for this command (already split into argv), cwd and env, or
 * undefined when every input template lands on a data argument.
 */
export function shellTemplateProblem(
  argv: readonly string[],
  cwd: string | undefined,
  env: Readonly<Record<string, string>> = {},
): ShellProblem | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (CODE_ENV.test(name) && hasInputTemplate(value)) {
      return {
        path: ["env", name],
        message: `a {{…}} template in ${name} would let an input choose code that runs (${name} is read as code, a path to code, or options); use a variable of your own name`,
      };
    }
  }
  // A command without input templates runs only what its author wrote.
  const command = argv.some(hasInputTemplate) ? commandProblem(argv) : undefined;
  if (command) return { path: ["command"], message: command };
  if (cwd !== undefined && hasInputTemplate(cwd)) {
    const program = argv[0]!;
    if (/[\\/]/.test(program) && !/^([\\/]|[A-Za-z]:[\\/])/.test(program)) {
      return {
        path: ["cwd"],
        message: `a {{…}} template in cwd with the relative program "${program}" would let an input choose the program; name it by an absolute path ("{{workspace}}/…" is fine)`,
      };
    }
    const walk = wrapperWalk(argv);
    if (walk.problem) return { path: ["cwd"], message: walk.problem };
    const resolver = walk.wrappers.find((name) => RESOLVES_FROM_CWD.has(name));
    if (resolver) {
      return {
        path: ["cwd"],
        message: `a {{…}} template in cwd would let an input choose the program ${resolver} finds there (node_modules/.bin); keep cwd fixed and pass the folder as a data argument`,
      };
    }
    const inner = argv[walk.program];
    if (inner !== undefined && READS_CODE_FROM_CWD.has(programName(inner))) {
      return {
        path: ["cwd"],
        message: `a {{…}} template in cwd would let an input choose the folder ${programName(inner)} reads code from (scripts, modules, Makefile, package.json, .git/config); keep cwd fixed and pass the folder as a data argument`,
      };
    }
  }
  return undefined;
}

function commandProblem(argv: readonly string[]): string | undefined {
  const walk = wrapperWalk(argv);
  if (walk.ownTemplate)
    return `a {{…}} template in ${walk.ownTemplate.wrapper}'s own arguments could change what runs`;
  if (walk.problem) return walk.problem;
  const word = argv[walk.program];
  if (word === undefined) return undefined;
  if (hasInputTemplate(word)) {
    return "a {{…}} template cannot name the program to run; name it literally and pass values as data arguments";
  }
  const name = programName(word);
  const rest = argv.slice(walk.program + 1);
  if (REFUSE_ANY.has(name)) {
    return rest.some(hasInputTemplate)
      ? `${name} runs its arguments as a command or reads code they choose, so it takes no {{…}} template; ${ENV_HINT}`
      : undefined;
  }
  if (INTERPRETERS[name]) return interpreterProblem(name, rest);
  if (name === "find") return findProblem(rest);
  if (name === "git") return gitProblem(rest);
  return optionValueProblem(name, rest, COMMAND_SHORT[name] ?? "");
}

function findProblem(args: readonly string[]): string | undefined {
  for (let at = 0; at < args.length; at++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[at]!)) continue;
    for (at++; at < args.length && args[at] !== ";" && args[at] !== "+"; at++) {
      if (hasInputTemplate(args[at]!))
        return `a {{…}} template in find's ${"-exec"} command could change what runs; ${ENV_HINT}`;
    }
  }
  return optionValueProblem("find", args, "");
}

/** git's global options (before the subcommand); any other is refused before a template. */
const GIT_GLOBAL = optionTable({
  clusters: false,
  flag:
    "-p -P -v -h --paginate --no-pager --no-replace-objects --no-lazy-fetch --no-optional-locks --no-advice" +
    " --bare --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs --version --help" +
    " --html-path --man-path --info-path",
  value: "-c -C --git-dir --work-tree --namespace --config-env --attr-source --super-prefix --list-cmds",
  attached: { "--exec-path": /.*/ },
});

function gitProblem(args: readonly string[]): string | undefined {
  let at = 0;
  while (at < args.length && isOptionWord(args[at]!, GIT_GLOBAL)) {
    const read = readOption(args, at, GIT_GLOBAL);
    if (hasInputTemplate(args[at]!) || read.found?.some((option) => option.value.some(hasInputTemplate))) {
      return `a {{…}} template in git's global options (-c, -C, --exec-path …) could make it run code; pass values after the subcommand`;
    }
    if (read.unknown !== undefined) {
      return `git's global option ${read.unknown} is not one hookwise knows, so it cannot tell which subcommand runs; drop it or write it in full`;
    }
    at = read.next;
  }
  const subcommand = args[at];
  if (subcommand === undefined) return undefined;
  if (hasInputTemplate(subcommand)) return "a {{…}} template cannot name git's subcommand";
  const rest = args.slice(at + 1);
  if (GIT_CODE_SUBCOMMANDS.has(subcommand) && rest.some(hasInputTemplate)) {
    return `git ${subcommand} stores or runs commands given as arguments, so it takes no {{…}} template`;
  }
  return optionValueProblem(`git ${subcommand}`, rest, GIT_COMMAND_SHORT[subcommand] ?? "");
}

/**
 * A template as the value of an option that names a command (`--to-command=`, `rsync -e`,
 * `git grep -O…`). `short` lists the program's single-letter options whose value is a
 * command; their value is the rest of the word (`-O{{x}}`) or the next word.
 */
function optionValueProblem(program: string, args: readonly string[], short: string): string | undefined {
  const name = program.split(" ")[0]!;
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (word === "--" && !NO_END_OF_OPTIONS.has(name)) return undefined;
    if (word.startsWith("--")) {
      const flag = word.split("=")[0]!;
      const value = word.includes("=") ? word : (args[at + 1] ?? "");
      if (COMMAND_OPTION.test(flag) && hasInputTemplate(value))
        return `a {{…}} template as the value of ${flag} would choose a command that ${program} runs`;
      continue;
    }
    if (!word.startsWith("-")) continue;
    // A cluster of letters: the first command letter takes the rest of the word, or the next word.
    for (let index = 1; index < word.length && /[A-Za-z0-9]/.test(word[index]!); index++) {
      if (!short.includes(word[index]!)) continue;
      const value = word.slice(index + 1) || (args[at + 1] ?? "");
      if (hasInputTemplate(value))
        return `a {{…}} template as the value of -${word[index]} would choose a command that ${program} runs`;
      break;
    }
  }
  return undefined;
}

/**
 * The run-time half: with the values filled in, an input that starts with "-" would be
 * read as an option unless a literal `--` the program honours comes before it. Only a `--`
 * after the program counts: `env -- cat {{x}}` ends env's options, not cat's. The program
 * is found the same way as when the config loads. Returns the refusal, or undefined.
 */
export function renderedArgvProblem(
  template: readonly string[],
  rendered: readonly string[],
): string | undefined {
  const start = wrapperWalk(template).program;
  const program = programName(template[start] ?? template[0]!);
  const honoursEnd = !NO_END_OF_OPTIONS.has(program);
  let endOfOptions = false;
  for (let at = 1; at < template.length; at++) {
    const word = template[at]!;
    if (word === "--" && honoursEnd && at > start) endOfOptions = true;
    if (!hasInputTemplate(word)) continue;
    const value = rendered[at]!;
    if (value.includes("\0")) return `argument ${at} holds a NUL character`;
    // Only a value that begins the word can become an option: "--file={{x}}" stays the value.
    const startsWithInput = /^\{\{/.test(word);
    if (startsWithInput && !endOfOptions && /^[-+]/.test(value)) {
      return `argument ${at} (${JSON.stringify(value.slice(0, 40))}) starts with "${value[0]}" and would be read as an option by ${program}; put a literal -- before it in the command`;
    }
  }
  return undefined;
}
