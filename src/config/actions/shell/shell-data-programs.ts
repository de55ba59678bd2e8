/**
 * The programs hookwise knows to read a `{{…}}` value as data only — text to print, count,
 * search or compare, a file to read — and, for each, the options it may take in a command
 * with a template: `flag`s (no value) and `data` options (a value that is only data: a
 * pattern, a count, a field). A templated word may be an operand, or the value of a data
 * option (`grep -e {{q}}`, `--regexp={{q}}`); a word that follows an option not listed here
 * may be that option's value, so it is refused, unless a `--` the program honours comes
 * first. Every other program — a script, an interpreter running a file or a module, a
 * build tool, a test runner, a package manager, a network client — may take a template
 * only when the action says `templates_are_data: true` (see shell-rule.ts).
 */
import { type OptionTable, optionTable } from "./shell-options.js";

const GREP = optionTable({
  flag:
    "-i -v -n -c -l -L -o -q -s -w -x -r -R -E -F -G -P -H -h -a -I -z -y --ignore-case --no-ignore-case" +
    " --invert-match --line-number --count --files-with-matches --files-without-match --only-matching --quiet" +
    " --silent --word-regexp --line-regexp --recursive --dereference-recursive --extended-regexp --fixed-strings" +
    " --basic-regexp --perl-regexp --with-filename --no-filename --text --null-data --no-messages --color",
  data: "-e --regexp -f --file -m --max-count -A -B -C --after-context --before-context --context --include --exclude --exclude-dir --label",
});

const LINES = optionTable({
  flag: "-q -v -z --quiet --silent --verbose --zero-terminated",
  data: "-n -c --lines --bytes",
});

const PATHS = optionTable({
  flag: "-a -s -z -e -m -f -n -q -L -P --multiple --zero --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --logical --physical",
  data: "--suffix --relative-to --relative-base",
});

/** Program name (as `programName` gives it) → the options it may take in a templated command. */
export const DATA_PROGRAMS: Readonly<Record<string, OptionTable>> = {
  cat: optionTable({
    flag: "-A -b -e -E -n -s -t -T -u -v --number --number-nonblank --show-all --show-ends --show-tabs --squeeze-blank --show-nonprinting",
  }),
  head: LINES,
  tail: LINES,
  wc: optionTable({
    flag: "-c -m -l -L -w --bytes --chars --lines --words --max-line-length",
  }),
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: optionTable({
    flag:
      "-i -v -n -c -l -o -w -x -F -S -s -u -H -N -I --ignore-case --invert-match --line-number --count" +
      " --files-with-matches --only-matching --word-regexp --line-regexp --fixed-strings --smart-case" +
      " --case-sensitive --hidden --no-ignore --with-filename --no-filename --no-heading --json --files",
    data: "-e --regexp -m --max-count -A -B -C --after-context --before-context --context -g --glob -t --type -T --type-not",
  }),
  sort: optionTable({
    flag:
      "-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --reverse --unique --numeric-sort --ignore-case" +
      " --stable --human-numeric-sort --version-sort --general-numeric-sort --month-sort --dictionary-order",
    data: "-k --key -t --field-separator",
  }),
  uniq: optionTable({
    flag: "-c -d -D -i -u -z --count --repeated --ignore-case --unique --zero-terminated",
    data: "-f -s -w --skip-fields --skip-chars --check-chars",
  }),
  cut: optionTable({
    flag: "-s -z -n --complement --only-delimited --zero-terminated",
    data: "-b -c -d -f --bytes --characters --delimiter --fields --output-delimiter",
  }),
  tr: optionTable({ flag: "-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1" }),
  diff: optionTable({
    flag:
      "-u -q -s -i -w -b -B -r -N -a -y -E -Z -t -T --brief --report-identical-files --ignore-case" +
      " --ignore-all-space --ignore-space-change --ignore-blank-lines --recursive --new-file --text" +
      " --side-by-side --expand-tabs --color",
    data: "-U --unified --label",
  }),
  cmp: optionTable({ flag: "-b -l -s --print-bytes --verbose --silent --quiet" }),
  comm: optionTable({ flag: "-1 -2 -3 -i -z --check-order --nocheck-order --zero-terminated" }),
  ls: optionTable({
    flag: "-a -A -l -h -1 -R -t -S -r -d -F -i -s --all --almost-all --human-readable --recursive --reverse --directory --classify",
  }),
  stat: optionTable({ flag: "-L -t -f --dereference --terse --file-system", data: "-c --format --printf" }),
  file: optionTable({ flag: "-b -i -L -z -E --brief --mime --mime-type --mime-encoding --dereference" }),
  du: optionTable({
    flag: "-s -h -a -c -b -k -m -L --summarize --human-readable --all --total --bytes --dereference",
    data: "-d --max-depth",
  }),
  basename: PATHS,
  dirname: PATHS,
  realpath: PATHS,
  readlink: PATHS,
  echo: optionTable({ flag: "-n -e -E" }),
  date: optionTable({ flag: "-u -R --utc --universal --rfc-email", data: "-d --date -I --iso-8601" }),
  find: optionTable({
    clusters: false,
    flag:
      "-L -P -H -print -print0 -depth -empty -prune -delete -o -a -not -and -or -true -false -xdev -mount" +
      " -ls -follow -readable -writable -executable -nouser -nogroup ! ( )",
    data:
      "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -maxdepth" +
      " -mindepth -size -mtime -mmin -atime -amin -ctime -cmin -newer -user -group -perm -links -inum -samefile",
  }),
};

/** git subcommands whose operands and listed options read a template as data (pathspecs, a message, a pattern). */
export const GIT_DATA_SUBCOMMANDS: Readonly<Record<string, OptionTable>> = {
  log: optionTable({
    flag: "--oneline --stat --patch -p --all --no-merges --reverse --graph --decorate --follow --name-only --name-status",
    data: "-n --max-count --since --until --author --grep --skip",
  }),
  show: optionTable({ flag: "--stat --name-only --name-status --oneline -s --no-patch" }),
  diff: optionTable({
    flag: "--stat --cached --staged --name-only --name-status --numstat -w --ignore-all-space",
  }),
  status: optionTable({ flag: "-s -b --short --branch --porcelain" }),
  blame: optionTable({ flag: "-w -s -e --show-email --porcelain", data: "-L" }),
  "ls-files": optionTable({
    flag: "-c -m -o -d -z --cached --modified --others --deleted --exclude-standard",
  }),
  grep: optionTable({
    flag: "-i -v -n -l -c -w -E -F -P --ignore-case --invert-match --line-number --files-with-matches --count --word-regexp --extended-regexp --fixed-strings --perl-regexp --cached",
    data: "-e -m --max-count",
  }),
  add: optionTable({ flag: "-A -u -N --all --update --intent-to-add" }),
  commit: optionTable({ flag: "-a -q --all --quiet --allow-empty --no-verify", data: "-m --message" }),
};

/**
 * Modules `python -m` may run with templated arguments: they read their arguments as files
 * to parse and never run them (`py_compile` compiles a file without running it).
 */
export const PYTHON_DATA_MODULES = new Set(["py_compile", "json.tool", "tokenize", "tabnanny"]);
