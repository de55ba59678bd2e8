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
 * - never an option: a word whose text before its template starts with `-` (`-{{x}}`,
 *   `--output={{x}}`) is refused unless a table of the program's options says the option
 *   takes data; a `--name` that abbreviates an option whose value is a command (`--to-c`)
 *   counts as it; a value starting with `-` or `+` is refused when it runs, unless it comes
 *   after a literal `--` (end of options) that the program honours;
 * - `cwd` may be templated only when the program is named by an absolute path or found on
 *   PATH, and is not one that reads code from its working folder (interpreters, `git`,
 *   `make`, `npm` …);
 * - `env` values may be templated, except in variables that programs read as code, as a
 *   path to code, as options or as a config (`NODE_OPTIONS`, `TAR_OPTIONS`, `ZIPOPT`,
 *   `LD_PRELOAD`, `AWKPATH`, `WGETRC`, `OPENSSL_CONF`, `GIT_*` …: see isCodeEnv).
 *
 * `{{workspace}}` (the config's own folder) is the config author's value, not an input, and
 * may go anywhere. The static part is checked when the config loads (`validate`); the part
 * that depends on the value (a leading `-`) when the command runs.
 */
import { hasInputTemplate } from "./has-input-template.js";
import { DATA_PROGRAMS, GIT_DATA_SUBCOMMANDS, PYTHON_DATA_MODULES } from "./shell-data-programs.js";
import { ENV_HINT, INTERPRETERS, interpreterProblem } from "./shell-interpreters.js";
import { isOptionWord, type OptionTable, optionTable, readOption } from "./shell-options.js";
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
  "linux32",
  "linux64",
  "i386",
  "x86_64",
  "uname26",
  "arch",
  "ssh-agent",
  "sshpass",
  "cross-env",
  "cross-env-shell",
  "env-cmd",
  "dotenv",
  "runcon",
  "caffeinate",
  "chronic",
  "ifne",
  "eatmydata",
  "nocache",
  "trickle",
  "cgexec",
  "sandbox-exec",
  "run0",
  "sudoedit",
  "toybox",
  "perf",
  "hyperfine",
  "entr",
  "direnv",
  "mise",
  "asdf",
  "nix-shell",
  "pipenv",
  "conda",
  "corepack",
  // Test runners: the files and names they are given are test code they load and run.
  "pytest",
  "py.test",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "tox",
  "nox",
  "phpunit",
  "rspec",
  // Programs whose arguments are code or commands.
  "tsx",
  "ts-node",
  "sqlite",
  "psql",
  "mysql",
  "dc",
  "m4",
  "r",
]);

/** Programs whose working folder holds code they run (a Makefile, package.json, .git/config…). */
const READS_CODE_FROM_CWD = new Set([
  "git",
  ...REFUSE_ANY,
  ...Object.keys(INTERPRETERS),
  // Tools that load a config of code, or plugins, from the folder they run in.
  ...(
    "pytest py.test tox nox eslint prettier stylelint jest vitest mocha ava tsc tsx vite webpack rollup" +
    " esbuild babel next nuxt astro playwright cypress rspack parcel gulp grunt rake bundle pre-commit" +
    " lefthook husky ruff mypy black flake8 pylint terraform ansible-playbook"
  ).split(" "),
]);

/** Programs that do not treat `--` as the end of options. */
const NO_END_OF_OPTIONS = new Set(["find", "echo"]);

/** Words in a long option's name that say its value is a command, a program, code or a config that may hold one. */
const COMMAND_WORDS = [
  "exec",
  "command",
  "cmd",
  "program",
  "prog",
  "script",
  "shell",
  "eval",
  "filter",
  "pager",
  "editor",
  "hook",
  "pack",
  "rsh",
  "ssh",
  "proxy",
  "strategy",
  "plugin",
  "module",
  "require",
  "import",
  "loader",
  "preload",
  "askpass",
  "helper",
  "config",
  "template",
  "execute",
  "engine",
  "provider",
  "toolchain",
  "init",
];
/**
 * Long options, per program, whose value is a command or code and whose name the pattern
 * above does not give away. GNU getopt and git accept any unique prefix (`--to-c`), so a
 * prefix of one of these counts as it.
 */
const COMMAND_LONG: Record<string, readonly string[]> = {
  tar: [
    "--to-command",
    "--checkpoint-action",
    "--use-compress-program",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
  ],
  git: ["--upload-pack", "--receive-pack", "--open-files-in-pager", "--exec", "--template", "--config"],
  rsync: ["--rsh", "--rsync-path"],
  curl: ["--config"],
  wget: ["--execute", "--config", "--use-askpass"],
  zip: ["--unzip-command"],
  sort: ["--compress-program"],
};
/** Short options whose value is a command, per program (`-TT` is zip's; its `-T` is a flag). */
const COMMAND_SHORT: Record<string, readonly string[]> = {
  rsync: ["-e"],
  tar: ["-I", "-F"],
  zip: ["-TT"],
  curl: ["-K"],
  wget: ["-e"],
  // openssl's options are single-dash words: these load a shared library, a provider or a config.
  openssl: ["-engine", "-provider", "-provider-path", "-config", "-keyform", "-inform"],
};
/** Short options of git subcommands whose value is a command, config, or picks one (`git grep -O<pager>`). */
const GIT_COMMAND_SHORT: Record<string, readonly string[]> = {
  grep: ["-O"],
  clone: ["-u", "-c"],
  "ls-remote": ["-u"],
  merge: ["-s"],
  pull: ["-s"],
};

/**
 * Whether `--name` (in full or abbreviated) is an option whose value is a command: its name
 * says so, its last part abbreviates such a word (`--to-c`, `--checkpoint-a`), or it is a
 * prefix of one the program has.
 */
function isCommandLongOption(name: string, program: string): boolean {
  // A part of the name that is one of the words, whole (`--upload-pack`, `--exec-path`), not
  // a word that merely holds one (`--description`, `--progress`, `--compressed`).
  const parts = name.slice(2).toLowerCase().split("-");
  if (parts.some((part) => COMMAND_WORDS.includes(part) || COMMAND_WORDS.includes(part.replace(/s$/, ""))))
    return true;
  // An abbreviation is known only where the program's options are: a prefix of a listed one.
  return name.length > 2 && (COMMAND_LONG[program] ?? []).some((option) => option.startsWith(name));
}

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
  "submodule--helper",
]);

/**
 * Variables a program, the runtime or the loader reads as code, a path to code, options or
 * a config: by the shape of the name (`TAR_OPTIONS`, `ZIPOPT`, `RSYNC_RSH`, `OPENSSL_CONF`,
 * `WGETRC`, `AWKPATH`, `GIT_…`), then by name.
 */
const CODE_ENV_SHAPES = [
  /(_OPTIONS|OPTS?|FLAGS|_ARGS|_RSH|_CONF|_CONFIG|(?<!S)RC|PATH|_HOME|HOME|_SHELL|SHELL|EDITOR|PAGER|_COMMAND|_CMD|_EXEC|_HOOKS?|_PROGRAM|_WRAPPER|_ASKPASS|_PRELOAD)$/i,
  /^(LD_|DYLD_|GIT_|PYTHON|NODE_|PERL|RUBY|BASH_|ZDOTDIR|ENV|PS4|NPM_|YARN_|PNPM_|BUN_|DENO_|JAVA|_JAVA|JDK_|CORECLR_|DOTNET_|LUA_|R_|PHP|CARGO_|RUST|PIP_|UV_|SSH_|SUDO_|DOCKER_|KUBE|LESS|TCL|GCONV|XDG_CONFIG|CMAKE_|PYTEST_|GRADLE_|MAVEN_|MVN_|GO|JEST_|VITEST_|OPENSSL_|CURL_|WGET|MAKE|CC_|CXX_|CFLAGS|LDFLAGS)/i,
  // A name that says it points at code, a toolchain, a plugin or a config (CMAKE_TOOLCHAIN_FILE).
  /(TOOLCHAIN|PLUGIN|MODULE|ENGINE|PROVIDER|LOADER|PRELOAD|INIT|STARTUP|CONFIG)/i,
];
const CODE_ENV_NAMES = new Set(
  (
    "IFS PROMPT_COMMAND VISUAL BROWSER CLASSPATH MAKEFLAGS MFLAGS GZIP ZIP UNZIP BZIP BZIP2 XZ_DEFAULTS" +
    " MORE TAPE RSH CC CXX CPP LD AR MAKE TERMINAL"
  ).split(" "),
);

function isCodeEnv(name: string): boolean {
  return CODE_ENV_NAMES.has(name.toUpperCase()) || CODE_ENV_SHAPES.some((shape) => shape.test(name));
}

/** A refusal: where (`command`, `cwd`, `env.NAME`) and why. */
export interface ShellProblem {
  readonly path: readonly string[];
  readonly message: string;
}

/** The program's file name, lower case, without `.exe`: `x86_64`, `python3.12-dbg`. */
function fileName(word: string): string {
  return word
    .split(/[\\/]/)
    .pop()!
    .replace(/\.exe$/i, "")
    .toLowerCase();
}

/** The program a word names, without its version and build: `python3.12-dbg`, `python3.7m` → `python`. */
export function programName(word: string): string {
  return fileName(word)
    .replace(/[-_](dbg|debug)$/, "")
    .replace(/\d[\d.]*[dmu]*$/, "");
}

/** The name under which a program takes no template anywhere (by file name or program name), if it is one. */
function refusesAny(word: string): string | undefined {
  return [fileName(word), programName(word)].find((name) => REFUSE_ANY.has(name));
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
  /** `templates_are_data: true`: the author vouches that the program reads its templates as data. */
  vouched = false,
): ShellProblem | undefined {
  const known = knownCodeProblem(argv, cwd, env);
  if (known || vouched) return known;
  return unvouchedTemplate(argv, cwd, env);
}

/** A template that turns into code or picks what runs whatever the author says (refused even when vouched for). */
function knownCodeProblem(
  argv: readonly string[],
  cwd: string | undefined,
  env: Readonly<Record<string, string>>,
): ShellProblem | undefined {
  for (const [name, value] of Object.entries(env)) {
    if (isCodeEnv(name) && hasInputTemplate(value)) {
      return {
        path: ["env", name],
        message: `a {{…}} template in ${name} would let an input choose code that runs (${name} is read as code, a path to code, options or a config: names such as *_OPTIONS, *OPT, *PATH, *RC (not SRC), *_CONF, *_RSH, LD_*, GIT_* are refused); use a plain name of your own such as FILE or QUERY`,
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
    return `a {{…}} template in ${walk.ownTemplate.wrapper}'s own arguments could change what runs (an option, a program, a variable such as LD_PRELOAD=…); ${ENV_HINT}`;
  if (walk.problem) return walk.problem;
  const word = argv[walk.program];
  if (word === undefined) return undefined;
  if (hasInputTemplate(word)) {
    return "a {{…}} template cannot name the program to run; name it literally and pass values as data arguments";
  }
  const name = programName(word);
  const rest = argv.slice(walk.program + 1);
  const refused = refusesAny(word);
  if (refused) {
    return rest.some(hasInputTemplate)
      ? `${refused} runs its arguments as a command or reads code they choose, so it takes no {{…}} template; ${ENV_HINT}`
      : undefined;
  }
  if (INTERPRETERS[name]) return pythonModuleProblem(name, rest) ?? interpreterProblem(name, rest);
  if (name === "find") return findProblem(rest);
  if (name === "git") return gitProblem(rest);
  return optionValueProblem(name, rest, COMMAND_SHORT[name] ?? []);
}

/** Modules that run code their arguments name (tests, a debugger, a profiler, an installer). */
const PYTHON_CODE_MODULES = new Set(
  "unittest doctest pdb runpy trace profile cProfile timeit pip code idlelib venv ensurepip pydoc site test".split(
    " ",
  ),
);

/** `python -m MODULE {{x}}` where the module runs what its arguments name (`-m pytest`, `-m unittest`). */
function pythonModuleProblem(program: string, args: readonly string[]): string | undefined {
  if (INTERPRETERS[program] !== INTERPRETERS.python || !args.some(hasInputTemplate)) return undefined;
  const module = moduleOf(args);
  if (module === undefined) return undefined;
  const root = module.split(".")[0]!;
  return PYTHON_CODE_MODULES.has(root) || REFUSE_ANY.has(root.toLowerCase())
    ? `python -m ${module} runs code that its arguments name (test files, scripts, packages), so it takes no {{…}} template; ${ENV_HINT}`
    : undefined;
}

/** The module of `python -m MODULE` (or `-mMODULE`, or at the end of a cluster: `-Im MODULE`), if the command runs one. */
function moduleOf(args: readonly string[]): string | undefined {
  const table = INTERPRETERS.python!.options;
  for (let at = 0; at < args.length && isOptionWord(args[at]!, table) && args[at] !== "--"; ) {
    const read = readOption(args, at, table);
    if (read.unknown !== undefined) return undefined;
    const program = read.found.find((option) => option.kind === "program");
    if (program) return program.name === "-m" ? program.value[0] : undefined;
    at = read.next;
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
  return optionValueProblem("find", args, []);
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
  return optionValueProblem(`git ${subcommand}`, rest, GIT_COMMAND_SHORT[subcommand] ?? []);
}

/**
 * A template in an option word, or as the value of an option that names a command
 * (`--to-command=`, `rsync -e`, `git grep -O…`). `short` lists the program's short options
 * whose value is a command; their value is the rest of the word (`-O{{x}}`) or the next word.
 */
function optionValueProblem(
  program: string,
  args: readonly string[],
  short: readonly string[],
): string | undefined {
  const name = program.split(" ")[0]!;
  const oldStyle = name === "tar" && args[0] !== undefined && !args[0].startsWith("-");
  if (oldStyle && hasInputTemplate(args[0]!))
    return `a {{…}} template in tar's first argument would choose its options (tar reads "xf" as "-xf"); ${ENV_HINT}`;
  const words = oldStyle ? oldStyleTar(args) : args;
  for (let at = 0; at < words.length; at++) {
    const word = words[at]!;
    if (word === "--" && !NO_END_OF_OPTIONS.has(name)) return undefined;
    if (!word.startsWith("-")) continue;
    const problem = commandValueProblem(program, word, words[at + 1] ?? "", short);
    if (problem) return problem;
    // Any other option word with a template: the input could choose the option (-{{x}}), or
    // an abbreviation or cluster the program reads differently from hookwise.
    if (hasInputTemplate(word) && literalPrefix(word).startsWith("-")) {
      return `a {{…}} template inside the option word ${JSON.stringify(word)} could choose an option of ${program}, or give a value to one that runs a command; pass the value as its own argument after --, or ${ENV_HINT}`;
    }
  }
  return undefined;
}

/** A template as the value of a long or short option whose value is a command. */
function commandValueProblem(
  program: string,
  word: string,
  next: string,
  short: readonly string[],
): string | undefined {
  if (word.startsWith("--")) {
    const flag = word.split("=")[0]!;
    const value = word.includes("=") ? word : next;
    return isCommandLongOption(flag, program.split(" ")[0]!) && hasInputTemplate(value)
      ? `a {{…}} template as the value of ${flag} would choose a command that ${program} runs`
      : undefined;
  }
  const option = commandShortOption(word, short);
  return option && hasInputTemplate(option.attached || next)
    ? `a {{…}} template as the value of ${option.name} would choose a command that ${program} runs`
    : undefined;
}

/** The text of a word before its first template. */
function literalPrefix(word: string): string {
  const start = word.indexOf("{{");
  return start < 0 ? word : word.slice(0, start);
}

/**
 * The command-valued short option in an option word, if any: one written out (`-TT…`), or
 * a letter of a cluster (`-xIf`), whose value is the rest of the word or the next word.
 */
function commandShortOption(
  word: string,
  short: readonly string[],
): { readonly name: string; readonly attached: string } | undefined {
  for (const option of short) {
    if (option.length > 2 && word.startsWith(option))
      return { name: option, attached: word.slice(option.length) };
  }
  const letters = short.filter((option) => option.length === 2).map((option) => option[1]!);
  for (let index = 1; index < word.length && /[A-Za-z0-9]/.test(word[index]!); index++) {
    if (letters.includes(word[index]!)) return { name: `-${word[index]}`, attached: word.slice(index + 1) };
  }
  return undefined;
}

/**
 * tar's first argument is a cluster of options even without a `-` (`tar xIf PROG a.tar`),
 * and the letters that take a value take the next words in turn. Returns the arguments with
 * the cluster split into one option word per letter, each followed by the first templated
 * word the cluster could give it, so a command letter's templated value is seen.
 */
function oldStyleTar(args: readonly string[]): readonly string[] {
  const first = args[0]!;
  const letters = [...first];
  const templated = args
    .slice(1, 1 + letters.length)
    .filter(hasInputTemplate)
    .slice(0, 1);
  return [...letters.flatMap((letter) => [`-${letter}`, ...templated]), ...args.slice(1)];
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
    // Every templated word is checked as it will run; only a word the command itself
    // starts as an option ("--file={{x}}", accepted when the config loaded) keeps its value.
    const writtenAsOption = literalPrefix(word).startsWith("-");
    const optionValue = isOptionValue(program, template, at);
    if (!writtenAsOption && !endOfOptions && !optionValue && /^[-+]/.test(value)) {
      return `argument ${at} (${JSON.stringify(value.slice(0, 40))}) starts with "${value[0]}" and would be read as an option by ${program}; put a literal -- before it in the command`;
    }
    // After `--` a tar operand is a member's name, where a ":" is just a character.
    if (
      program === "tar" &&
      !endOfOptions &&
      REMOTE_ARCHIVE.test(value) &&
      !template.includes("--force-local")
    ) {
      return `argument ${at} (${JSON.stringify(value.slice(0, 40))}) has a ":" before any "/": tar reads such an archive name as host:file and connects to that host; add --force-local to the command`;
    }
  }
  return undefined;
}

/**
 * Options of common data programs that take the next word as their value: a value there is
 * the option's, whatever it starts with (`grep -e {{q}}` given "-v" searches for "-v").
 */
const DATA_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  grep: ["-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context"],
  egrep: ["-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context"],
  fgrep: ["-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context"],
  rg: ["-e", "--regexp", "-m", "--max-count", "-A", "-B", "-C", "--context"],
  git: ["-m", "--message"],
  date: ["-d", "--date"],
};

/** Whether `template[at]` is the value of the option before it (or, for a two-word value, two before). */
function isOptionValue(program: string, template: readonly string[], at: number): boolean {
  const previous = template[at - 1] ?? "";
  const table = INTERPRETERS[program]?.options;
  if (table === undefined) return DATA_VALUE_OPTIONS[program]?.includes(previous) ?? false;
  const kind = table.options.get(previous)?.kind;
  if (kind === "value" || kind === "data" || kind === "data2") return true;
  return table.options.get(template[at - 2] ?? "")?.kind === "data2";
}

/** An archive name tar takes for `host:file` (a remote archive it reaches over rsh/ssh). */
const REMOTE_ARCHIVE = /^[^/]*:/;

/** How the author says that a program hookwise does not know reads its templates as data. */
export const VOUCH = "templates_are_data: true";

/**
 * Why the templates of this command need the author's word (`templates_are_data: true`):
 * a templated `env:` value or `cwd` (the program reads them in ways hookwise cannot see), or
 * a template in the arguments of a program that is not one hookwise knows to read them as
 * data only (shell-data-programs.ts), or in a place of a known one that is not data.
 * Undefined when the command is one hookwise vouches for itself.
 */
export function unvouchedTemplate(
  argv: readonly string[],
  cwd: string | undefined,
  env: Readonly<Record<string, string>> = {},
): ShellProblem | undefined {
  const walk = wrapperWalk(argv);
  const word = argv[walk.program];
  const program = word === undefined ? (argv[0] ?? "") : programName(word);
  const vouch = `; if ${word ?? program} reads the value as data only, say so with ${VOUCH} on the action (validate then reports it as a warning)`;
  for (const [name, value] of Object.entries(env)) {
    if (hasInputTemplate(value)) {
      return {
        path: ["env", name],
        message: `a {{…}} template in env ${name}: hookwise cannot see how ${program} (or what it starts) reads a variable${vouch}`,
      };
    }
  }
  const templated = argv.some(hasInputTemplate);
  if (cwd !== undefined && hasInputTemplate(cwd) && (templated || !DATA_PROGRAMS[program])) {
    if (!DATA_PROGRAMS[program]) {
      return {
        path: ["cwd"],
        message: `a {{…}} template in cwd: ${program} is not one of the programs hookwise knows to read only data in its working folder${vouch}`,
      };
    }
  }
  if (!templated || word === undefined) return undefined;
  const problem = dataUseProblem(program, argv.slice(walk.program + 1), word);
  return problem ? { path: ["command"], message: `${problem}${vouch}` } : undefined;
}

/** Why a template in `args` (what follows `program`) is not known to be data, or undefined. */
function dataUseProblem(program: string, args: readonly string[], written: string): string | undefined {
  const table = DATA_PROGRAMS[program];
  if (table) return dataArgumentsProblem(program, table, args);
  if (program === "git") return gitDataProblem(args);
  const interpreter = INTERPRETERS[program];
  if (interpreter) {
    // Program text written in the command is the author's own code, which hookwise read
    // (the templates are its data); a script file or a module is code it cannot read.
    if (interpreter.operand === "text") return undefined;
    const inline = inlineProgram(program, args);
    if (inline === "inline") return undefined;
    if (inline !== undefined && PYTHON_DATA_MODULES.has(inline)) return undefined;
    return inline === undefined
      ? `${program} runs a script hookwise cannot read, which may turn {{…}} values into code (a test file to load, a path to import); write the code in the command (-c, -e), where the values are its data`
      : `python -m ${inline} is not one of the modules hookwise knows to read its arguments as data (${[...PYTHON_DATA_MODULES].join(", ")})`;
  }
  return `${written} is not one of the programs hookwise knows to read {{…}} values as data only (cat, grep, sort, wc, diff, find, sed, awk, jq … see the list in the docs)`;
}

/** "inline" when the interpreter runs program text given in the command, the module of `python -m`, or undefined (a script). */
function inlineProgram(program: string, args: readonly string[]): string | undefined {
  const table = INTERPRETERS[program]!.options;
  for (let at = 0; at < args.length && args[at] !== "--" && isOptionWord(args[at]!, table); ) {
    const read = readOption(args, at, table);
    if (read.unknown !== undefined) return undefined;
    for (const option of read.found) {
      if (option.kind === "program") return option.name === "-m" ? option.value[0] : "inline";
      // A shell's -c is a flag: its first operand is the command text.
      if (option.name === "-c" && INTERPRETERS[program] === INTERPRETERS.sh) return "inline";
    }
    at = read.next;
  }
  return undefined;
}

function gitDataProblem(args: readonly string[]): string | undefined {
  let at = 0;
  while (at < args.length && isOptionWord(args[at]!, GIT_GLOBAL)) {
    const read = readOption(args, at, GIT_GLOBAL);
    if (read.unknown !== undefined) return `git's global option ${read.unknown} is not one hookwise knows`;
    at = read.next;
  }
  const subcommand = args[at] ?? "";
  const table = GIT_DATA_SUBCOMMANDS[subcommand];
  if (!table) {
    return `git ${subcommand} is not one of the git commands hookwise knows to read {{…}} values as data only (${Object.keys(GIT_DATA_SUBCOMMANDS).join(", ")})`;
  }
  return dataArgumentsProblem(`git ${subcommand}`, table, args.slice(at + 1));
}

/**
 * A data program's arguments: a template may be an operand, or the value of one of its data
 * options; an option it does not list, before a templated word, may take that word as its
 * value (or be one that reads code), so it is refused there.
 */
function dataArgumentsProblem(
  program: string,
  table: OptionTable,
  args: readonly string[],
): string | undefined {
  const honoursEnd = !NO_END_OF_OPTIONS.has(program);
  for (let at = 0; at < args.length; at++) {
    const word = args[at]!;
    if (word === "--") {
      if (honoursEnd) return undefined;
      continue; // find and echo read it as an operand: what follows is still read as options
    }
    const prefix = literalPrefix(word);
    const isOption = prefix.length > 1 ? prefix.startsWith("-") : prefix === "-" && hasInputTemplate(word);
    if (!isOption) continue; // an operand (a leading "-" in its value is refused when it runs)
    const option = optionName(word, table);
    const kind = table.options.get(option.name)?.kind;
    if (hasInputTemplate(word)) {
      // A template in the option word itself: only as the value of a data option.
      if (kind === "data" && option.value !== undefined && !hasInputTemplate(option.name)) continue;
      return `a {{…}} template in the option word ${JSON.stringify(word)} of ${program}: only the value of a data option (${dataOptions(table)}) may be templated`;
    }
    if (kind === "data") {
      if (option.value === undefined) at++; // its value is the next word, data whatever it holds
      continue;
    }
    if (kind === "flag") continue;
    if (args.slice(at + 1).some(hasInputTemplate)) {
      return `${program}'s option ${word} is not one hookwise knows (it may take the next word as its value, or read code); drop it, or put -- before the templated operands`;
    }
  }
  return undefined;
}

/** An option word's name and attached value: `--name=value`, `-n5` (a short option's rest), `-name` for find. */
function optionName(word: string, table: OptionTable): { name: string; value?: string } {
  if (word.startsWith("--")) {
    const equals = word.indexOf("=");
    return equals < 0 ? { name: word } : { name: word.slice(0, equals), value: word.slice(equals + 1) };
  }
  if (table.options.has(word) || !table.clusters) return { name: word };
  // A cluster of flags (`-rn`), possibly ending in a data option with its value attached (`-m5`, `-rne{{q}}`).
  for (let index = 1; index < word.length; index++) {
    const name = `-${word[index]}`;
    const kind = table.options.get(name)?.kind;
    if (kind === "data") return index + 1 < word.length ? { name, value: word.slice(index + 1) } : { name };
    if (kind !== "flag") return { name: word };
  }
  return { name: `-${word.at(-1)}` };
}

function dataOptions(table: OptionTable): string {
  const names = [...table.options].filter(([, info]) => info.kind === "data").map(([name]) => name);
  return names.length ? names.join(", ") : "none";
}
