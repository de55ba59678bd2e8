/**
 * Programs that run code: shells, script interpreters, and `sed`/`awk`/`jq`, whose first
 * operand is a program. Each lists every option it takes and what the option's value is
 * (a setting, program text, the name of code it loads, data), so the shell rule knows
 * which word is the script: in `perl -Ilib -c {{x}}` the template is the script, because
 * `-Ilib` only adds a module folder. A template may be data only: never program text, the
 * script, a code-loading option's value, or any option's value but a data option's; an
 * option not listed is refused, since where the script is cannot be known past it.
 */
import { hasInputTemplate } from "./has-input-template.js";
import {
  type FoundOption,
  isOptionWord,
  type OptionSpec,
  type OptionTable,
  optionTable,
  readOption,
} from "./shell-options.js";

export const ENV_HINT =
  'pass the value in env: (e.g. env: { FILE: "{{tool.params.path}}" }) to a script you wrote';

interface Interpreter {
  readonly options: OptionTable;
  /**
   * `text`: the first operand is the program (sed, awk, jq) unless an option gave it, the
   * other operands are files, and options may follow them. `file`: the first operand is
   * the script unless an option gave the program; everything after it is the script's data.
   */
  readonly operand: "text" | "file";
  /** Nothing after program text is an option of the interpreter (`python -c … -x` is argv). */
  readonly programEndsOptions?: boolean;
  /** Options that make the interpreter open its data operands with a command-running open (perl -n). */
  readonly opensOperands?: readonly string[];
}

function interpreter(
  operand: Interpreter["operand"],
  spec: OptionSpec & Omit<Interpreter, "options" | "operand">,
): Interpreter {
  const { programEndsOptions, opensOperands, ...options } = spec;
  return {
    options: optionTable(options),
    operand,
    ...(programEndsOptions && { programEndsOptions }),
    ...(opensOperands && { opensOperands }),
  };
}

/** bash, sh, zsh …: `-c` is a flag and the first operand is the command text, else the script. */
const SHELL = interpreter("file", {
  flag:
    "-a -b -c -e -f -h -i -k -l -m -n -p -r -s -t -u -v -x -B -C -D -E -H -P -T -V -X -F -q" +
    " --norc --noprofile --posix --login --restricted --verbose --version --noediting --debugger" +
    " --dump-strings --dump-po-strings --pretty-print --protected",
  value: "-o -O",
  loads: "--rcfile --init-file",
  plus: true,
});

const NODE = interpreter("file", {
  clusters: false,
  program: "-e -p -pe --eval --print",
  loads:
    "-r --require --import --loader --experimental-loader --env-file --env-file-if-exists --openssl-config" +
    " --snapshot-blob",
  value:
    "-C --conditions --input-type --title --stack-trace-limit --max-old-space-size --max-semi-space-size" +
    " --stack-size --unhandled-rejections --disable-warning --dns-result-order --report-dir --report-directory" +
    " --report-filename --heapsnapshot-signal --heapsnapshot-near-heap-limit --inspect-port --disable-proto" +
    " --experimental-default-type --max-http-header-size --redirect-warnings --secure-heap --secure-heap-min" +
    " --diagnostic-dir --allow-fs-read --allow-fs-write --localstorage-file --trace-event-categories",
  attached: { "--inspect": /.*/, "--inspect-brk": /.*/, "--inspect-wait": /.*/ },
  flag:
    "-c -i -v -h --check --interactive --version --help --no-warnings --trace-warnings --trace-deprecation" +
    " --throw-deprecation --no-deprecation --pending-deprecation --enable-source-maps --preserve-symlinks" +
    " --preserve-symlinks-main --experimental-strip-types --no-experimental-strip-types" +
    " --experimental-transform-types --experimental-vm-modules --experimental-wasm-modules" +
    " --experimental-detect-module --no-experimental-detect-module --experimental-require-module" +
    " --no-experimental-require-module --abort-on-uncaught-exception --frozen-intrinsics --trace-uncaught" +
    " --trace-exit --trace-sigint --trace-sync-io --jitless --no-addons --no-global-search-paths --permission" +
    " --experimental-permission --allow-child-process --allow-worker --allow-wasi --allow-addons --expose-gc" +
    " --report-on-fatalerror --report-uncaught-exception --report-on-signal --report-compact --zero-fill-buffers" +
    " --use-openssl-ca --use-bundled-ca --prof --cpu-prof --heap-prof --insecure-http-parser" +
    " --experimental-websocket --experimental-sqlite --experimental-eventsource",
});

const PYTHON = interpreter("file", {
  flag: "-b -B -d -E -h -i -I -O -P -q -s -S -u -v -V -x -? --help --version --help-env --help-xoptions --help-all",
  program: "-c -m",
  loads: "-W",
  value: "-X --check-hash-based-pycs",
  programEndsOptions: true,
});

const LUA = interpreter("file", { clusters: false, code: "-e", loads: "-l", flag: "-i -v -E -W" });

export const INTERPRETERS: Record<string, Interpreter> = {
  ...Object.fromEntries(
    [
      "sh",
      "bash",
      "rbash",
      "zsh",
      "rzsh",
      "dash",
      "ksh",
      "rksh",
      "mksh",
      "lksh",
      "oksh",
      "loksh",
      "pdksh",
      "ash",
      "yash",
      "posh",
      "csh",
      "tcsh",
    ].map((name) => [name, SHELL]),
  ),
  fish: interpreter("file", {
    program: "-c --command",
    code: "-C --init-command",
    flag: "-i -l -n -N -P --interactive --login --no-execute --no-config --private --version --help",
    value: "-d -o -f --debug --debug-output --features --profile --profile-startup",
  }),
  python: PYTHON,
  pypy: PYTHON,
  node: NODE,
  nodejs: NODE,
  perl: interpreter("file", {
    flag: "-a -c -f -h -n -p -s -S -t -T -u -U -v -w -W -X",
    program: "-e -E",
    loads: "-I -M -m",
    attached: {
      "-0": /^(x[\da-fA-F]*|[0-7]*)/,
      "-l": /^[0-7]*/,
      "-C": /^[\dIOEioeSDALa]*/,
      "-i": /.*/,
      "-x": /.*/,
      "-D": /.*/,
      "-V": /.*/,
      "-F": /.*/,
      "-d": /.*/,
    },
    // -a and -F imply -n. Perl's <> opens "cmd |" by running cmd.
    opensOperands: ["-n", "-p", "-a", "-F"],
  }),
  ruby: interpreter("file", {
    flag: "-a -c -d -h -l -n -p -s -S -v -w -y -U --verbose --version --help --copyright --jit --yjit",
    program: "-e",
    loads: "-I -r",
    value:
      "-C -E --enable --disable --encoding --external-encoding --internal-encoding --dump --backtrace-limit" +
      " --crash-report --parser",
    attached: { "-0": /^[0-7]*/, "-W": /^(:.*|\d*)/, "-i": /.*/, "-x": /.*/, "-F": /.*/, "-K": /^./ },
  }),
  php: interpreter("file", {
    flag:
      "-a -e -h -H -i -l -m -n -q -s -v -w --interactive --info --syntax-check --modules --no-php-ini" +
      " --hide-args --version --no-header --strip --help --syntax-highlight --highlight --ini",
    program: "-r -R -f -F --run --process-code --file --process-file",
    code: "-B -E --process-begin --process-end",
    loads: "-c -d -z --php-ini --define --zend-extension",
    value:
      "-S -t --server --docroot --rf --rc --re --rz --ri --rfunction --rclass --rextension --rzendextension --rextinfo",
  }),
  lua: LUA,
  luajit: interpreter("file", {
    clusters: false,
    code: "-e",
    loads: "-l -j",
    flag: "-i -v -E",
    attached: { "-O": /.*/ },
  }),
  rscript: interpreter("file", {
    clusters: false,
    program: "-e",
    loads: "--default-packages",
    flag:
      "--verbose --vanilla --no-environ --no-site-file --no-init-file --restore --save --no-save --no-restore" +
      " --help --version --no-echo --quiet --silent --slave",
  }),
  tclsh: interpreter("file", { clusters: false, value: "-encoding" }),
  wish: interpreter("file", {
    clusters: false,
    value: "-encoding -display -geometry -name -visual -colormap -use",
    flag: "-sync",
  }),
  sed: interpreter("text", {
    flag:
      "-n -E -r -s -u -z -b --quiet --silent --regexp-extended --separate --unbuffered --null-data --posix" +
      " --debug --follow-symlinks --binary --help --version",
    program: "-e -f --expression --file",
    value: "-l --line-length",
    attached: { "-i": /.*/, "--in-place": /.*/ },
  }),
  awk: interpreter("text", {
    flag:
      "-b -c -C -g -h -M -n -N -O -P -r -s -S -t -V -Y --characters-as-bytes --traditional --copyright" +
      " --gen-pot --help --bignum --use-lc-numeric --no-optimize --optimize --posix --re-interval" +
      " --lint-old --version --non-decimal-data --csv",
    program: "-f -e -E --file --source --exec",
    loads: "-i -l --include --load",
    data: "-v --assign",
    value: "-F -W --field-separator",
    attached: {
      "-d": /.*/,
      "-D": /.*/,
      "-L": /.*/,
      "-o": /.*/,
      "-p": /.*/,
      "--debug": /.*/,
      "--dump-variables": /.*/,
      "--lint": /.*/,
      "--pretty-print": /.*/,
      "--profile": /.*/,
    },
  }),
  jq: interpreter("text", {
    flag:
      "-n -r -j -a -c -s -e -S -C -M -R -h -V --null-input --raw-output --raw-output0 --join-output" +
      " --ascii-output --compact-output --slurp --exit-status --sort-keys --color-output --monochrome-output" +
      " --raw-input --tab --stream --stream-errors --seq --unbuffered --args --jsonargs --help --version" +
      " --build-configuration",
    program: "-f --from-file",
    loads: "-L --library-path",
    value: "--indent",
    data2: "--arg --argjson --slurpfile --rawfile",
  }),
};
for (const name of ["gawk", "mawk", "nawk"]) INTERPRETERS[name] = INTERPRETERS.awk!;
INTERPRETERS.gsed = INTERPRETERS.sed!;

const codeMessage = (program: string) =>
  `a {{…}} template inside the code that ${program} runs would be executed by it; ${ENV_HINT} and refer to it there ("$FILE")`;

function optionValueMessage(program: string, option: FoundOption): string | undefined {
  if (!option.value.some(hasInputTemplate)) return undefined;
  switch (option.kind) {
    case "data":
    case "data2":
      return undefined;
    case "program":
    case "code":
      return codeMessage(program);
    case "loads":
      return `a {{…}} template as the value of ${program} ${option.name} would choose code that ${program} runs (${option.name} loads it); ${ENV_HINT}`;
    default:
      return `a {{…}} template as the value of ${program} ${option.name} could change what ${program} runs; ${ENV_HINT}`;
  }
}

function unknownMessage(program: string, option: string): string {
  return (
    `${program}'s option ${option} is not one hookwise knows, so it cannot tell whether a {{…}} template` +
    ` becomes code ${program} runs; drop the option, write long options in full, or ${ENV_HINT}`
  );
}

/** The refusal for input templates in an interpreter's arguments (`args` follow the program), or undefined. */
export function interpreterProblem(program: string, args: readonly string[]): string | undefined {
  const spec = INTERPRETERS[program]!;
  const seen = new Set<string>();
  let programGiven = false;
  let endOfOptions = false;
  const dataProblem = (data: readonly string[]) =>
    spec.opensOperands?.some((option) => seen.has(option)) && data.some(hasInputTemplate)
      ? `${program} ${spec.opensOperands.filter((option) => seen.has(option)).join(" ")} opens its file arguments` +
        ` in a way that runs a name ending in "|" as a command, so they take no {{…}} template; ${ENV_HINT}`
      : undefined;
  for (let at = 0; at < args.length; ) {
    const word = args[at]!;
    if (!endOfOptions && word === "--") {
      endOfOptions = true;
      at++;
      continue;
    }
    if (!endOfOptions && word !== "-" && isOptionWord(word, spec.options)) {
      const read = readOption(args, at, spec.options);
      if (read.unknown !== undefined) {
        return hasInputTemplate(word)
          ? `a {{…}} template in ${program}'s options could make it run code; ${ENV_HINT}`
          : unknownMessage(program, read.unknown);
      }
      for (const option of read.found) {
        seen.add(option.name);
        if (option.kind === "refused") return option.reason!;
        const problem = optionValueMessage(program, option);
        if (problem) return problem;
        if (option.kind === "program") programGiven = true;
      }
      at = read.next;
      if (programGiven && spec.programEndsOptions) return dataProblem(args.slice(at));
      continue;
    }
    // An operand.
    if (!programGiven) {
      if (hasInputTemplate(word)) return codeMessage(program);
      if (spec.operand === "file") return dataProblem(args.slice(at + 1)); // the script; the rest is its data
      programGiven = true; // text: the program; the other operands are files
    } else if (spec.operand === "file") {
      return dataProblem(args.slice(at));
    }
    at++;
  }
  // Only options and, for sed/awk/jq, the program and its files: nothing more to check.
  return undefined;
}
