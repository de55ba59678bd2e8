/**
 * Where a `shell` action may put a template. The rule, from first principles: a value that
 * comes from the model, a tool or a user (`{{tool.…}}`, `{{run.input}}`, `{{error.…}}`,
 * `{{session.id}}` …) may only become a plain DATA argument of a program that cannot turn
 * data into code. So, for every word of the command (split before templating):
 *
 * - never the program itself, nor a program another program runs (`env`, `timeout`,
 *   `nice`, `npx` … are followed through to the program they run);
 * - never code: an interpreter's code (`-c`, `-e`, `--eval`, `-m`, the script it runs),
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

/** A template whose value is an input (anything but `{{workspace}}`, `{{agent.…}}`, `{{request.…}}`). */
export function hasInputTemplate(word: string): boolean {
  for (const match of word.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)) {
    const root = match[1]!.split(".")[0];
    if (root !== "workspace" && root !== "agent" && root !== "request") return true;
  }
  return false;
}

/** Programs that run another program named in their arguments: the rule follows them through. */
const WRAPPERS = new Set([
  "env",
  "nice",
  "nohup",
  "timeout",
  "stdbuf",
  "sudo",
  "doas",
  "exec",
  "command",
  "time",
  "setsid",
  "ionice",
  "chrt",
  "taskset",
  "npx",
  "pnpx",
  "bunx",
  "uvx",
]);

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
]);

interface Interpreter {
  /** Single-dash letters whose argument (attached or next) is code or names code. */
  readonly codeLetters: string;
  /** Long options whose argument is code or names code. */
  readonly codeLong: readonly string[];
  /**
   * `text`: the first operand is the program text (sed, awk, jq) and options may still
   * follow operands; `file`: the first operand that looks like a path is the script, and
   * everything after it belongs to the script.
   */
  readonly operand: "text" | "file";
  /** Options whose next `n` arguments are data (`awk -v x=…`, `jq --arg name value`). */
  readonly dataOptions?: Readonly<Record<string, number>>;
}

const SHELL: Interpreter = { codeLetters: "c", codeLong: ["--rcfile", "--init-file"], operand: "file" };
const INTERPRETERS: Record<string, Interpreter> = {
  sh: SHELL,
  bash: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  mksh: SHELL,
  ash: SHELL,
  fish: SHELL,
  csh: SHELL,
  tcsh: SHELL,
  python: { codeLetters: "cm", codeLong: [], operand: "file" },
  pypy: { codeLetters: "cm", codeLong: [], operand: "file" },
  node: {
    codeLetters: "epr",
    codeLong: [
      "--eval",
      "--print",
      "--require",
      "--import",
      "--loader",
      "--experimental-loader",
      "--env-file",
    ],
    operand: "file",
  },
  nodejs: {
    codeLetters: "epr",
    codeLong: [
      "--eval",
      "--print",
      "--require",
      "--import",
      "--loader",
      "--experimental-loader",
      "--env-file",
    ],
    operand: "file",
  },
  perl: { codeLetters: "eEMmIx", codeLong: [], operand: "file" },
  ruby: { codeLetters: "erI", codeLong: [], operand: "file" },
  php: { codeLetters: "rfBREd", codeLong: [], operand: "file" },
  lua: { codeLetters: "el", codeLong: [], operand: "file" },
  luajit: { codeLetters: "elj", codeLong: [], operand: "file" },
  rscript: { codeLetters: "e", codeLong: [], operand: "file" },
  tclsh: { codeLetters: "", codeLong: [], operand: "file" },
  wish: { codeLetters: "", codeLong: [], operand: "file" },
  sed: { codeLetters: "ef", codeLong: ["--expression", "--file"], operand: "text" },
  awk: {
    codeLetters: "efEi",
    codeLong: ["--file", "--source", "--exec", "--include", "--load"],
    operand: "text",
    dataOptions: { "-v": 1, "--assign": 1 },
  },
  jq: {
    codeLetters: "fL",
    codeLong: ["--from-file"],
    operand: "text",
    dataOptions: { "--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2 },
  },
};
for (const name of ["gawk", "mawk", "nawk"]) INTERPRETERS[name] = INTERPRETERS.awk!;
for (const name of ["gsed"]) INTERPRETERS[name] = INTERPRETERS.sed!;

/** Programs whose working folder holds code they run (a Makefile, package.json, .git/config…). */
const READS_CODE_FROM_CWD = new Set(["git", ...REFUSE_ANY, ...Object.keys(INTERPRETERS)]);

/** Programs that do not treat `--` as the end of options. */
const NO_END_OF_OPTIONS = new Set(["find", "echo"]);

/** Long options of any program whose value is a command, a program or code. */
const COMMAND_OPTION =
  /^--[\w-]*(exec|command|cmd|program|prog|script|shell|eval|filter|pager|editor|hook|pack|rsh|ssh|proxy|action|plugin|module|require|import|loader|preload|compress|askpass|helper)[\w-]*$/i;
/** Short options whose value is a command, per program. */
const COMMAND_SHORT: Record<string, string> = { rsync: "e", tar: "IF", zip: "T", git: "c", curl: "K" };

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

const ENV_HINT = 'pass the value in env: (e.g. env: { FILE: "{{tool.params.path}}" }) to a script you wrote';

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
  const command = commandProblem(argv);
  if (command) return { path: ["command"], message: command };
  if (cwd !== undefined && hasInputTemplate(cwd)) {
    const program = argv[0]!;
    if (/[\\/]/.test(program) && !/^([\\/]|[A-Za-z]:[\\/])/.test(program)) {
      return {
        path: ["cwd"],
        message: `a {{…}} template in cwd with the relative program "${program}" would let an input choose the program; name it by an absolute path ("{{workspace}}/…" is fine)`,
      };
    }
    const inner = innermostProgram(argv);
    if (inner !== undefined && READS_CODE_FROM_CWD.has(programName(inner))) {
      return {
        path: ["cwd"],
        message: `a {{…}} template in cwd would let an input choose the folder ${programName(inner)} reads code from (scripts, modules, Makefile, package.json, .git/config); keep cwd fixed and pass the folder as a data argument`,
      };
    }
  }
  return undefined;
}

/** The program a chain of wrappers ends at (env A=1 timeout 5 python … → python). */
function innermostProgram(argv: readonly string[]): string | undefined {
  let index = 0;
  while (index < argv.length && WRAPPERS.has(programName(argv[index]!))) {
    index = skipWrapperOptions(argv, index + 1);
  }
  return argv[index];
}

/** Skips a wrapper's own flags, VAR=value assignments and durations (timeout 5s …). */
function skipWrapperOptions(argv: readonly string[], index: number): number {
  while (index < argv.length && /^(-|[A-Za-z_][A-Za-z0-9_]*=|\d+(\.\d+)?[smhd]?$)/.test(argv[index]!))
    index++;
  return index;
}

function commandProblem(argv: readonly string[]): string | undefined {
  let index = 0;
  for (;;) {
    const word = argv[index];
    if (word === undefined) return undefined;
    if (hasInputTemplate(word)) {
      return "a {{…}} template cannot name the program to run; name it literally and pass values as data arguments";
    }
    const name = programName(word);
    if (REFUSE_ANY.has(name)) {
      const templated = argv.slice(index + 1).find(hasInputTemplate);
      return templated === undefined
        ? undefined
        : `${name} runs its arguments as a command or reads code they choose, so it takes no {{…}} template; ${ENV_HINT}`;
    }
    if (!WRAPPERS.has(name)) break;
    const start = index + 1;
    index = skipWrapperOptions(argv, start);
    if (argv.slice(start, index).some(hasInputTemplate)) {
      return `a {{…}} template in ${name}'s own arguments could change what runs`;
    }
  }
  const name = programName(argv[index]!);
  const rest = argv.slice(index + 1);
  const interpreter = INTERPRETERS[name];
  if (interpreter) return interpreterProblem(name, interpreter, rest);
  if (name === "find") return findProblem(rest);
  if (name === "git") {
    const problem = gitProblem(rest);
    if (problem) return problem;
  }
  return optionValueProblem(name, rest);
}

const codeMessage = (program: string) =>
  `a {{…}} template inside the code that ${program} runs would be executed by it; ${ENV_HINT} and refer to it there ("$FILE")`;

/** Is `word` an option whose argument is code? Returns "attached" when the code is inside it. */
function codeOption(word: string, interpreter: Interpreter): "next" | "attached" | undefined {
  if (word.startsWith("--")) {
    const [flag, value] = word.split("=", 2) as [string, string | undefined];
    if (!interpreter.codeLong.includes(flag)) return undefined;
    return value === undefined ? "next" : "attached";
  }
  if (!word.startsWith("-") || word.length < 2) return undefined;
  const letters = word.slice(1);
  for (let at = 0; at < letters.length; at++) {
    if (interpreter.codeLetters.includes(letters[at]!))
      return at === letters.length - 1 ? "next" : "attached";
  }
  return undefined;
}

function interpreterProblem(
  program: string,
  interpreter: Interpreter,
  args: readonly string[],
): string | undefined {
  let codeFound = false;
  let endOfOptions = false;
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (!endOfOptions && word === "--") {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && word.startsWith("-") && word !== "-") {
      const data = interpreter.dataOptions?.[word.split("=")[0]!];
      if (data !== undefined) {
        at += word.includes("=") ? 0 : data;
        continue;
      }
      const code = codeOption(word, interpreter);
      if (code === "attached" && hasInputTemplate(word)) return codeMessage(program);
      if (code === "next") {
        if (hasInputTemplate(args[at + 1] ?? "")) return codeMessage(program);
        at++;
      }
      if (code !== undefined) {
        codeFound = true;
        // After a script's code, the rest belongs to the script (its data).
        if (interpreter.operand === "file") return undefined;
        continue;
      }
      if (hasInputTemplate(word)) return `a {{…}} template in ${program}'s options could make it run code`;
      continue;
    }
    // An operand.
    if (codeFound) {
      if (interpreter.operand === "file") return undefined;
      continue; // data (a file), options may follow
    }
    if (hasInputTemplate(word)) return codeMessage(program);
    if (interpreter.operand === "text" || /[./\\]/.test(word) || word === "-") {
      codeFound = true;
      if (interpreter.operand === "file") return undefined;
    }
    // Otherwise it may be the value of an option (python -X dev): the script comes later.
  }
  return undefined;
}

function findProblem(args: readonly string[]): string | undefined {
  for (let at = 0; at < args.length; at++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[at]!)) continue;
    for (at++; at < args.length && args[at] !== ";" && args[at] !== "+"; at++) {
      if (hasInputTemplate(args[at]!))
        return `a {{…}} template in find's ${"-exec"} command could change what runs; ${ENV_HINT}`;
    }
  }
  return optionValueProblem("find", args);
}

function gitProblem(args: readonly string[]): string | undefined {
  let at = 0;
  // Global options come before the subcommand (-c name=value, -C dir, --exec-path …).
  for (; at < args.length && args[at]!.startsWith("-"); at++) {
    if (
      hasInputTemplate(args[at]!) ||
      (/^-[cC]$|^--(git-dir|work-tree|namespace|exec-path|config-env)$/.test(args[at]!) &&
        hasInputTemplate(args[at + 1] ?? ""))
    ) {
      return `a {{…}} template in git's global options (-c, -C, --exec-path …) could make it run code; pass values after the subcommand`;
    }
    if (/^-[cC]$|^--(git-dir|work-tree|namespace|exec-path|config-env)$/.test(args[at]!)) at++;
  }
  const subcommand = args[at];
  if (subcommand === undefined) return undefined;
  if (hasInputTemplate(subcommand)) return "a {{…}} template cannot name git's subcommand";
  if (GIT_CODE_SUBCOMMANDS.has(subcommand) && args.slice(at + 1).some(hasInputTemplate)) {
    return `git ${subcommand} stores or runs commands given as arguments, so it takes no {{…}} template`;
  }
  return undefined;
}

/** A template as the value of an option that names a command (`--to-command=`, `rsync -e`). */
function optionValueProblem(program: string, args: readonly string[]): string | undefined {
  const short = COMMAND_SHORT[program] ?? "";
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (word === "--" && !NO_END_OF_OPTIONS.has(program)) return undefined;
    const flag = word.split("=")[0]!;
    const commandFlag =
      (flag.startsWith("--") && COMMAND_OPTION.test(flag)) ||
      (/^-[A-Za-z]+$/.test(flag) && [...short].some((letter) => flag.endsWith(letter)));
    if (!commandFlag) continue;
    const value = word.includes("=") ? word : (args[at + 1] ?? "");
    if (hasInputTemplate(value))
      return `a {{…}} template as the value of ${flag} would choose a command that ${program} runs`;
  }
  return undefined;
}

/**
 * The run-time half: with the values filled in, an input that starts with "-" would be
 * read as an option unless a literal `--` the program honours comes before it. Returns the
 * refusal, or undefined. `templated[i]` says whether argv word i held an input template.
 */
export function renderedArgvProblem(
  template: readonly string[],
  rendered: readonly string[],
): string | undefined {
  const program = programName(innermostProgram(template) ?? template[0]!);
  const honoursEnd = !NO_END_OF_OPTIONS.has(program);
  let endOfOptions = false;
  for (let at = 1; at < template.length; at++) {
    const word = template[at]!;
    if (word === "--" && honoursEnd) endOfOptions = true;
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
