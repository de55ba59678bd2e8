/**
 * Programs that run another program named in their arguments (`env`, `timeout`, `sudo`,
 * `npx` …), with every option they take and whether it takes a value, so the shell rule
 * finds the program they run: in `timeout -s KILL 10 python3 -c …` that is `python3`, not
 * `KILL`. An option not listed here is unknown and the walk stops with a refusal (a guess
 * at its arity could take the real program for a value).
 */
import { isOptionWord, type OptionSpec, type OptionTable, optionTable, readOption } from "./shell-options.js";

interface Wrapper {
  readonly options: OptionTable;
  /** Words after the options and before the program: `timeout`'s duration, `chrt`'s priority. */
  readonly operands: number;
  /** `NAME=value` words before the program set its environment (`env`, `sudo`). */
  readonly assignments: boolean;
}

function wrapper(spec: OptionSpec & { operands?: number; assignments?: boolean }): Wrapper {
  return { options: optionTable(spec), operands: spec.operands ?? 0, assignments: spec.assignments ?? false };
}

const SHELL_INSTEAD = "name the program directly, without a shell in between";

const NPX = wrapper({
  flag: "-y --yes --no --no-install --ignore-existing -q --quiet --workspaces --no-workspaces --include-workspace-root",
  value: "-p --package -w --workspace",
  refused: { "-c --call": `npx -c runs its value as a shell command; ${SHELL_INSTEAD}` },
});

export const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  env: wrapper({
    flag: "- -i -0 -v --ignore-environment --null --debug --list-signal-handling",
    value: "-u -C --unset --chdir",
    attached: { "--block-signal": /.*/, "--default-signal": /.*/, "--ignore-signal": /.*/ },
    refused: {
      "-S --split-string": "env -S splits its value into a command; write the command's words directly",
    },
    assignments: true,
  }),
  nice: wrapper({ value: "-n --adjustment" }),
  nohup: wrapper({}),
  timeout: wrapper({
    flag: "-f -p -v --foreground --preserve-status --verbose",
    value: "-s -k --signal --kill-after",
    operands: 1,
  }),
  stdbuf: wrapper({ value: "-i -o -e --input --output --error" }),
  sudo: wrapper({
    flag:
      "-A -b -B -E -H -k -K -l -n -N -P -S -v -V --askpass --background --bell --set-home --reset-timestamp" +
      " --remove-timestamp --list --non-interactive --preserve-groups --stdin --validate --version",
    value:
      "-u -g -C -D -p -r -t -T -U -R -a -c --user --group --close-from --chdir --prompt --role --type" +
      " --command-timeout --other-user --chroot --host",
    attached: { "-h": /.*/, "--preserve-env": /.*/ },
    refused: {
      "-s -i --shell --login": `sudo -s and -i run the command through a shell; ${SHELL_INSTEAD}`,
      "-e --edit": "sudo -e runs an editor; edit files with a script of yours",
    },
    assignments: true,
  }),
  doas: wrapper({
    flag: "-n -L",
    value: "-u -C",
    refused: { "-s": `doas -s runs a shell; ${SHELL_INSTEAD}` },
  }),
  exec: wrapper({ flag: "-c -l", value: "-a" }),
  command: wrapper({ flag: "-p -v -V" }),
  time: wrapper({
    flag: "-a -p -q -v -V --append --portability --quiet --verbose --version",
    value: "-f -o --format --output",
  }),
  setsid: wrapper({ flag: "-c -f -w --ctty --fork --wait" }),
  ionice: wrapper({
    flag: "-t --ignore",
    value: "-c -n --class --classdata",
    refused: {
      "-p -P -u --pid --pgid --uid": "ionice -p, -P and -u act on running processes, not a command",
    },
  }),
  chrt: wrapper({
    flag:
      "-a -b -d -e -f -i -m -o -r -R -v --all-tasks --batch --deadline --ext --fifo --idle --max --other --rr" +
      " --reset-on-fork --verbose",
    value: "-T -P -D --sched-runtime --sched-period --sched-deadline",
    refused: { "-p --pid": "chrt -p acts on a running process, not a command" },
    operands: 1,
  }),
  taskset: wrapper({
    flag: "-a -c --all-tasks --cpu-list",
    refused: { "-p --pid": "taskset -p acts on a running process, not a command" },
    operands: 1,
  }),
  npx: NPX,
  pnpx: wrapper({
    flag: "-s --silent",
    value: "--package",
    refused: { "-c --shell-mode": `pnpx -c runs the command through a shell; ${SHELL_INSTEAD}` },
  }),
  bunx: wrapper({ flag: "--bun --silent --verbose", value: "-p --package" }),
  uvx: wrapper({
    flag: "-q -v -n --quiet --verbose --no-cache --offline --isolated --no-progress --no-config",
    value:
      "-p --python --from --with --with-editable --with-requirements --index --default-index --index-url" +
      " --extra-index-url --cache-dir --python-preference",
  }),
};

/** Wrappers that look the program up in the working folder (`node_modules/.bin`). */
export const RESOLVES_FROM_CWD = new Set(["npx", "pnpx", "bunx"]);

export interface WrapperWalk {
  /** Index of the program the chain ends at (argv.length when there is none). */
  readonly program: number;
  /** The wrappers passed through, outermost first. */
  readonly wrappers: readonly string[];
  /** Why the program cannot be known (an unknown or refused wrapper option). */
  readonly problem?: string;
  /** The first index of a wrapper's own word holding an input template, if any. */
  readonly ownTemplate?: { readonly wrapper: string; readonly index: number };
}

/**
 * Follows wrappers to the program they run: `env -u LANG A=1 timeout -s KILL 5s python3 …`
 * → the index of `python3`. `name` maps argv[0]-like words to table names (programName).
 */
export function walkWrappers(
  argv: readonly string[],
  name: (word: string) => string,
  isInput: (word: string) => boolean,
): WrapperWalk {
  const wrappers: string[] = [];
  let ownTemplate: WrapperWalk["ownTemplate"];
  const walk = (program: number, problem?: string): WrapperWalk => ({
    program,
    wrappers,
    ...(problem !== undefined && { problem }),
    ...(ownTemplate && { ownTemplate }),
  });
  let index = 0;
  for (;;) {
    const word = argv[index];
    const wrapperName = word === undefined || isInput(word) ? undefined : name(word);
    const spec = wrapperName === undefined ? undefined : WRAPPERS[wrapperName];
    if (!spec || wrapperName === undefined) return walk(index);
    wrappers.push(wrapperName);
    const start = index + 1;
    let at = start;
    while (at < argv.length && isOptionWord(argv[at]!, spec.options)) {
      if (argv[at] === "--") {
        at++;
        break;
      }
      const read = readOption(argv, at, spec.options);
      const refused = read.found?.find((option) => option.kind === "refused");
      if (read.unknown !== undefined || refused) {
        if (isInput(argv[at]!)) ownTemplate ??= { wrapper: wrapperName, index: at };
        return walk(argv.length, refused ? refused.reason! : unknownOption(wrapperName, read.unknown!));
      }
      at = read.next;
    }
    if (spec.assignments) while (at < argv.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(argv[at]!)) at++;
    at = Math.min(at + spec.operands, argv.length);
    const templated = argv.slice(start, at).findIndex(isInput);
    if (templated >= 0) ownTemplate ??= { wrapper: wrapperName, index: start + templated };
    index = at;
  }
}

function unknownOption(wrapper: string, option: string): string {
  return (
    `${wrapper}'s option ${option} is not one hookwise knows, so it cannot tell which program ${wrapper} runs;` +
    ` write long options in full (--signal, not --sig), drop the option, or run a script of yours that takes the value from env:`
  );
}
