/**
 * Reading a program's options the way the program does, from a table of the options it
 * has and what each one's value is. The shell rule (shell-rule.ts) walks wrappers
 * (`timeout -s KILL 10 …`), interpreters (`perl -Ilib -c …`) and git's global options with
 * it, so it knows which word is an option's value, which is the program, and which is code.
 * An option not in the table is reported as unknown: its arity, and what it does, are not
 * known, so the caller refuses rather than guesses.
 */

/**
 * What an option takes.
 * - `flag`: nothing.
 * - `value`: a setting (attached `-sKILL`, `--signal=KILL`, or the next word).
 * - `attached`: an optional value, only attached (`sed -i.bak`, `perl -l0`); see `attached`.
 * - `program`: program text, or the file holding it, in place of a script (`python -c`, `perl -e`).
 * - `code`: code that runs before a script that is still expected (`lua -e`, `fish -C`).
 * - `loads`: the name of code that is loaded (`perl -I`, `node --require`, `php -d`).
 * - `data`, `data2`: one or two plain data words (`awk -v x=1`, `jq --arg name value`).
 * - `refused`: changes what runs in a way the rule does not follow (`env -S`, `sudo -s`).
 */
export type OptionKind =
  | "flag"
  | "value"
  | "attached"
  | "program"
  | "code"
  | "loads"
  | "data"
  | "data2"
  | "refused";

interface OptionInfo {
  readonly kind: OptionKind;
  /** For `attached`: the part of the word that is the value (the rest continues a cluster). */
  readonly attached?: RegExp;
  /** For `refused`: why, and what to write instead. */
  readonly reason?: string;
}

export interface OptionTable {
  readonly options: ReadonlyMap<string, OptionInfo>;
  /** Single-letter options combine in one word (`-iu NAME`, `-ne CODE`), getopt style. */
  readonly clusters: boolean;
  /** Words starting with `+` are options too (`sh +x`). */
  readonly plus: boolean;
}

export interface OptionSpec {
  /** Space-separated option words per kind: "-s -k --signal --kill-after". */
  readonly flag?: string;
  readonly value?: string;
  readonly program?: string;
  readonly code?: string;
  readonly loads?: string;
  readonly data?: string;
  readonly data2?: string;
  /** Option → the part of the word after it that is its value. */
  readonly attached?: Readonly<Record<string, RegExp>>;
  /** "option option" → why it is refused and what to write instead. */
  readonly refused?: Readonly<Record<string, string>>;
  readonly clusters?: boolean;
  readonly plus?: boolean;
}

/**
 * The table of `spec`, its options read at their first lookup: the shell rule's module holds
 * tables for dozens of programs, and every process that loads it (a harness's hook, once per
 * tool call) would otherwise build them all, most never read.
 */
export function optionTable(spec: OptionSpec): OptionTable {
  let options: ReadonlyMap<string, OptionInfo> | undefined;
  return {
    get options() {
      options ??= optionsOf(spec);
      return options;
    },
    clusters: spec.clusters ?? true,
    plus: spec.plus ?? false,
  };
}

function optionsOf(spec: OptionSpec): ReadonlyMap<string, OptionInfo> {
  const options = new Map<string, OptionInfo>();
  const kinds = ["flag", "value", "program", "code", "loads", "data", "data2"] as const;
  for (const kind of kinds) {
    for (const name of spec[kind]?.split(/\s+/).filter(Boolean) ?? []) options.set(name, { kind });
  }
  for (const [name, attached] of Object.entries(spec.attached ?? {})) {
    options.set(name, { kind: "attached", attached });
  }
  for (const [names, reason] of Object.entries(spec.refused ?? {})) {
    for (const name of names.split(/\s+/)) options.set(name, { kind: "refused", reason });
  }
  return options;
}

/** One option read from argv, with its value when it takes one. */
export interface FoundOption {
  readonly name: string;
  readonly kind: OptionKind;
  /** The value's words (attached part or following words). */
  readonly value: readonly string[];
  readonly reason?: string;
}

export type ReadOption =
  | { readonly found: readonly FoundOption[]; readonly next: number; readonly unknown?: undefined }
  | { readonly unknown: string; readonly found?: undefined; readonly next?: undefined };

/** Does this word start an option for a program with this table? */
export function isOptionWord(word: string, table: OptionTable): boolean {
  return table.options.has(word) || /^-./.test(word) || (table.plus && /^\+./.test(word));
}

/** Reads the option word at `args[at]` (and the words its value takes). */
export function readOption(args: readonly string[], at: number, table: OptionTable): ReadOption {
  const word = args[at]!;
  const normal = table.plus && word.startsWith("+") ? `-${word.slice(1)}` : word;
  if (normal.startsWith("--") && normal.length > 2) {
    const equals = normal.indexOf("=");
    const name = equals < 0 ? normal : normal.slice(0, equals);
    const info = table.options.get(name);
    if (!info) return { unknown: name };
    const attached = equals < 0 ? undefined : normal.slice(equals + 1);
    if (info.kind === "flag" || info.kind === "refused") {
      if (attached !== undefined) return { unknown: normal };
      return { found: [found(name, info, [])], next: at + 1 };
    }
    return withValue(args, at, name, info, attached);
  }
  const exact = table.options.get(normal);
  if (
    exact &&
    (!table.clusters || normal.length !== 2 || exact.kind === "flag" || exact.kind === "refused")
  ) {
    return exact.kind === "flag" || exact.kind === "refused"
      ? { found: [found(normal, exact, [])], next: at + 1 }
      : withValue(args, at, normal, exact, undefined);
  }
  if (!table.clusters) {
    // `lua -lmod`, `node -r./x`: a single-letter option with its value attached.
    const info = table.options.get(normal.slice(0, 2));
    if (!info || info.kind === "flag" || info.kind === "refused") return { unknown: normal };
    return withValue(args, at, normal.slice(0, 2), info, normal.slice(2));
  }
  return readCluster(args, at, normal, table);
}

function found(name: string, info: OptionInfo, value: readonly string[]): FoundOption {
  return info.reason === undefined
    ? { name, kind: info.kind, value }
    : { name, kind: info.kind, value, reason: info.reason };
}

function withValue(
  args: readonly string[],
  at: number,
  name: string,
  info: OptionInfo,
  attached: string | undefined,
): ReadOption {
  if (info.kind === "attached")
    return { found: [found(name, info, attached ? [attached] : [])], next: at + 1 };
  const count = info.kind === "data2" ? 2 : 1;
  if (attached !== undefined && attached !== "") {
    const value = [attached, ...args.slice(at + 1, at + count)];
    return { found: [found(name, info, value)], next: at + count };
  }
  return { found: [found(name, info, args.slice(at + 1, at + 1 + count))], next: at + 1 + count };
}

/** `-iu NAME`, `-ne CODE`, `-pi.bak`, `-sKILL`: letters until one takes a value. */
function readCluster(args: readonly string[], at: number, word: string, table: OptionTable): ReadOption {
  const options: FoundOption[] = [];
  for (let index = 1; index < word.length; index++) {
    const name = `-${word[index]}`;
    const info = table.options.get(name);
    if (!info) return { unknown: name };
    if (info.kind === "flag" || info.kind === "refused") {
      options.push(found(name, info, []));
      continue;
    }
    const rest = word.slice(index + 1);
    if (info.kind === "attached") {
      const value = info.attached!.exec(rest)?.[0] ?? "";
      options.push(found(name, info, value ? [value] : []));
      index += value.length;
      continue;
    }
    const read = withValue(args, at, name, info, rest);
    if (read.unknown !== undefined) return read;
    return { found: [...options, ...read.found], next: read.next };
  }
  return { found: options, next: at + 1 };
}
