#!/usr/bin/env node
/**
 * Moves source files as `moves.json` says and rewrites every path that points at them.
 *
 *   node scripts/regroup/regroup.mjs [--dry-run] [--skip-missing] [--no-format] [moves.json]
 *
 * 1. Expands the rules of moves.json over the files git tracks (rules, in this order of
 *    precedence: an exact file; a basename pattern with `*`, e.g. `src/config/check-*.ts`,
 *    whose target is a folder ending in `/`; a whole folder, `from` and `to` ending in `/`).
 *    Files no rule names stay where they are.
 * 2. Refuses before touching anything when an exact source is missing (unless it is already
 *    at its target, which is reported as done, or --skip-missing is given), when two files
 *    would land on one path, or when a target exists and is not itself moving away.
 * 3. Reads every relative specifier of every .ts/.tsx/.mts/.mjs/.js file under src/, test/,
 *    bench/, scripts/, examples/, web/ (static and dynamic imports, `export … from`,
 *    `import("…")` types, `vi.mock`/`vi.doMock`/`vi.importActual`/`require`, and any other
 *    string literal starting with ./ or ../ that names an existing file or folder), resolved
 *    against the importing file's old place.
 * 4. `git mv`s the files, then writes each specifier that changed: the target's new place,
 *    relative to the importing file's new place, in the same extension style (`./x.js`).
 * 5. Rewrites repository paths (`src/config/x.ts`) in code, config files and docs, the
 *    src-relative paths docs name (`config/x.ts`), and those a string of code opens with
 *    (tsdown.config.ts: `graph.loads("cli/commands/validate-command.ts", id)`).
 * 6. Runs `biome check --write` on the files it rewrote (import order, line width).
 *
 * Prints every move and rewrite, and each relative specifier it could not resolve.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");
const require = createRequire(join(ROOT, "package.json"));
const ts = require("typescript");

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const dryRun = flag("--dry-run");
const skipMissing = flag("--skip-missing");
const format = !flag("--no-format");
const movesFile = resolve(
  args.find((arg) => !arg.startsWith("--")) ?? join(import.meta.dirname, "moves.json"),
);

const SCANNED = ["src", "test", "bench", "scripts", "examples", "web"];
const CODE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
const TEXT_FILES = [/^docs\/.*\.md$/, /^README\.md$/, /^[^/]+\.(ts|mts|json)$/, /^\.ci\//];

function git(...argv) {
  return execFileSync("git", argv, { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 26 });
}

function fail(message) {
  console.error(`regroup: ${message}`);
  process.exit(1);
}

// ── 1. the rules over the tracked files ─────────────────────────────────────────────────

const tracked = git("ls-files", "-z").split("\0").filter(Boolean);
const trackedSet = new Set(tracked);
const { moves: rules } = JSON.parse(readFileSync(movesFile, "utf8"));
if (!Array.isArray(rules)) fail(`${movesFile}: expected { "moves": [ { "from", "to" } … ] }`);

const exact = rules.filter((rule) => !rule.from.endsWith("/") && !rule.from.includes("*"));
const patterns = rules.filter((rule) => rule.from.includes("*"));
const folders = rules.filter((rule) => rule.from.endsWith("/"));
for (const rule of patterns) {
  if (!rule.to.endsWith("/")) fail(`pattern ${rule.from}: its target must be a folder ending in /`);
  if (rule.from.slice(0, rule.from.lastIndexOf("/")).includes("*"))
    fail(`pattern ${rule.from}: * only in the file name`);
}
for (const rule of folders) if (!rule.to.endsWith("/")) fail(`folder ${rule.from}: its target must end in /`);

/** old path → new path, repository-relative. */
const moved = new Map();
const done = [];
const missing = [];
for (const rule of exact) {
  if (trackedSet.has(rule.from)) moved.set(rule.from, rule.to);
  else if (trackedSet.has(rule.to)) done.push(rule.from);
  else missing.push(rule.from);
}
const patternOf = (from) => {
  const slash = from.lastIndexOf("/");
  const base = from
    .slice(slash + 1)
    .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*");
  return { dir: from.slice(0, slash + 1), base: new RegExp(`^${base}$`) };
};
for (const rule of patterns) {
  const { dir, base } = patternOf(rule.from);
  for (const file of tracked) {
    if (moved.has(file) || !file.startsWith(dir)) continue;
    const rest = file.slice(dir.length);
    if (!rest.includes("/") && base.test(rest)) moved.set(file, rule.to + rest);
  }
}
for (const rule of folders) {
  let any = false;
  for (const file of tracked) {
    if (!moved.has(file) && file.startsWith(rule.from)) {
      moved.set(file, rule.to + file.slice(rule.from.length));
      any = true;
    }
  }
  if (!any) {
    if (tracked.some((file) => file.startsWith(rule.to))) done.push(rule.from);
    else missing.push(rule.from);
  }
}
for (const [from, to] of moved) if (from === to) moved.delete(from);

if (missing.length && !skipMissing)
  fail(
    `missing sources (neither at the old nor the new place; --skip-missing to go on):\n  ${missing.join("\n  ")}`,
  );
const landing = new Map();
for (const [from, to] of moved) {
  if (landing.has(to)) fail(`${from} and ${landing.get(to)} would both land on ${to}`);
  landing.set(to, from);
  if (trackedSet.has(to) && !moved.has(to)) fail(`${from} → ${to}: the target exists and stays`);
}
for (const from of done) console.log(`already moved: ${from}`);
for (const from of missing) console.log(`missing, skipped: ${from}`);
if (moved.size === 0) {
  console.log("regroup: nothing to move");
  process.exit(0);
}

// ── 3. the specifiers, resolved in the old layout ───────────────────────────────────────

/** old folder → new folder, for the folders whose every file moves to one new folder. */
const movedFolders = new Map();
const candidates = new Map();
for (const [from, to] of moved) {
  let a = posix.dirname(from);
  let b = posix.dirname(to);
  let suffix = posix.basename(from);
  while (a !== "." && b !== "." && posix.basename(to) === posix.basename(from)) {
    if (!to.endsWith(`/${suffix}`)) break;
    const guess = to.slice(0, to.length - suffix.length - 1);
    const seen = candidates.get(a);
    candidates.set(a, seen === undefined || seen === guess ? guess : null);
    suffix = `${posix.basename(a)}/${suffix}`;
    a = posix.dirname(a);
    b = posix.dirname(b);
  }
}
for (const [folder, guess] of candidates) {
  if (!guess || guess === folder) continue;
  const inside = tracked.filter((file) => file.startsWith(`${folder}/`));
  if (inside.every((file) => moved.get(file) === guess + file.slice(folder.length)))
    movedFolders.set(folder, guess);
}

const isFile = (path) => trackedSet.has(path);
const isFolder = (path) => tracked.some((file) => file.startsWith(`${path}/`));

/** The tracked file (or folder) a specifier names, repository-relative; undefined if none. */
function resolveSpecifier(importer, specifier) {
  const base = posix.normalize(posix.join(posix.dirname(importer), specifier)).replace(/(.)\/$/, "$1");
  if (base.startsWith("..")) return undefined;
  if (base === ".") return { path: ".", kind: "folder", base };
  const candidates = [base];
  const ext = /\.(js|mjs|cjs|jsx)$/.exec(base);
  if (ext) {
    const stem = base.slice(0, -ext[0].length);
    const tsExt = { ".js": [".ts", ".tsx"], ".mjs": [".mts"], ".cjs": [".cts"], ".jsx": [".tsx"] }[ext[0]];
    for (const alt of tsExt) candidates.push(stem + alt);
  } else if (!/\.\w+$/.test(base)) {
    for (const alt of [".ts", ".tsx", ".js", "/index.ts", "/index.js"]) candidates.push(base + alt);
  }
  for (const candidate of candidates) if (isFile(candidate)) return { path: candidate, kind: "file", base };
  if (isFolder(base)) return { path: base, kind: "folder", base };
  return undefined;
}

/** Where a file or folder of the old layout is in the new one. */
function newPlace(target) {
  if (target.kind === "file") return moved.get(target.path) ?? target.path;
  let folder = target.path;
  const tail = [];
  while (folder !== "." && folder !== "") {
    if (movedFolders.has(folder)) return posix.join(movedFolders.get(folder), ...tail.reverse());
    tail.push(posix.basename(folder));
    folder = posix.dirname(folder);
  }
  return target.path;
}

const MODULE_CALLS = new Set([
  "mock",
  "doMock",
  "unmock",
  "importActual",
  "importMock",
  "require",
  "resolve",
]);

/** Relative specifiers of one file: { start, end, text, module } (start/end inside the quotes). */
function specifiersOf(file, text) {
  const kind = file.endsWith(".tsx")
    ? ts.ScriptKind.TSX
    : file.match(/\.(m|c)?js$/)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const moduleNodes = new Set();
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      moduleNodes.add(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && node.arguments[0]) {
      const callee = node.expression;
      const name =
        callee.kind === ts.SyntaxKind.ImportKeyword
          ? "import"
          : ts.isIdentifier(callee)
            ? callee.text
            : ts.isPropertyAccessExpression(callee)
              ? callee.name.text
              : "";
      if (name === "import" || MODULE_CALLS.has(name)) moduleNodes.add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      moduleNodes.add(node.argument.literal);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      moduleNodes.add(node.moduleReference.expression);
    }
    if (
      (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
      /^\.\.?\//.test(node.text)
    ) {
      found.push({
        start: node.getStart(source) + 1,
        end: node.getEnd() - 1,
        text: node.text,
        module: moduleNodes.has(node),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function respecify(newImporter, specifier, target) {
  const destination = newPlace(target);
  let path;
  if (target.kind === "folder" || target.base === target.path) {
    // named exactly (a folder, or a file with its own extension)
    path = posix.relative(posix.dirname(newImporter), destination) || ".";
    if (specifier.endsWith("/") && !path.endsWith("/")) path += "/";
  } else if (target.path.startsWith(`${target.base}/`)) {
    // a folder's index, named by its folder
    path = posix.relative(posix.dirname(newImporter), posix.dirname(destination));
  } else {
    // `./x.js` for x.ts: keep the specifier's extension, change the stem
    const specExt = /\.\w+$/.exec(target.base)?.[0] ?? "";
    const targetExt = /\.\w+$/.exec(target.path)?.[0] ?? "";
    const stem = destination.slice(0, destination.length - targetExt.length);
    path = posix.relative(posix.dirname(newImporter), stem) + specExt;
  }
  if (!path.startsWith(".")) path = `./${path}`;
  return path;
}

const scanned = tracked.filter(
  (file) => SCANNED.some((dir) => file.startsWith(`${dir}/`)) && CODE.test(file),
);
const edits = new Map(); // new path → new text
const unresolved = [];
const loose = [];
const unnamed = [];
let specifierCount = 0;
for (const file of scanned) {
  if (!existsSync(join(ROOT, file))) continue;
  const text = readFileSync(join(ROOT, file), "utf8");
  const newFile = moved.get(file) ?? file;
  const changes = [];
  for (const spec of specifiersOf(file, text)) {
    const target = resolveSpecifier(file, spec.text);
    if (!target) {
      if (spec.module) unresolved.push(`${file}: "${spec.text}"`);
      else if (newFile !== file) unnamed.push(`${newFile}: "${spec.text}"`);
      continue;
    }
    if (newFile === file && newPlace(target) === target.path) continue;
    const next = respecify(newFile, spec.text, target);
    if (next === spec.text) continue;
    changes.push({ ...spec, next });
    if (!spec.module) loose.push(`${newFile}: "${spec.text}" → "${next}"`);
  }
  if (changes.length === 0) continue;
  specifierCount += changes.length;
  let out = text;
  for (const change of changes.sort((a, b) => b.start - a.start))
    out = out.slice(0, change.start) + change.next + out.slice(change.end);
  edits.set(newFile, out);
}

// ── 5. repository paths in code, config and docs ───────────────────────────────────────

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const pathRules = [];
for (const [from, to] of moved) pathRules.push([from, to]);
for (const rule of folders) if (moved.size) pathRules.push([rule.from, rule.to]);
for (const [from, to] of movedFolders) if (from.startsWith("src/")) pathRules.push([`${from}/`, `${to}/`]);
pathRules.sort((a, b) => b[0].length - a[0].length);

function rewritePaths(file, text) {
  let out = text;
  const docs = file.endsWith(".md");
  const forms = [];
  for (const [from, to] of pathRules) {
    forms.push([from, to, "(?<![\\w./-])"]);
    // src-relative: in docs anywhere (`config/x.ts`), in code only opening a string ("cli/x.ts")
    if (from.startsWith("src/"))
      forms.push([from.slice(4), to.slice(4), docs ? "(?<![\\w./-])" : "(?<=[\"'`])"]);
  }
  // one pass per form, longest first, so a rewritten path is never rewritten again
  forms.sort((a, b) => b[0].length - a[0].length);
  const marks = [];
  for (const [from, to, before] of forms) {
    const pattern = new RegExp(`${before}${escapeRegExp(from)}(?![\\w-])`, "g");
    out = out.replace(pattern, () => {
      marks.push(to);
      return `\uE000${marks.length - 1}\uE000`;
    });
  }
  return out.replace(/\uE000(\d+)\uE000/g, (_, index) => marks[Number(index)]);
}

const textTargets = tracked.filter(
  (file) =>
    (SCANNED.some((dir) => file.startsWith(`${dir}/`)) && CODE.test(file)) ||
    TEXT_FILES.some((pattern) => pattern.test(file)),
);
let pathCount = 0;
for (const file of textTargets) {
  const newFile = moved.get(file) ?? file;
  const text =
    edits.get(newFile) ?? (existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), "utf8") : undefined);
  if (text === undefined) continue;
  const out = rewritePaths(file, text);
  if (out !== text) {
    pathCount++;
    edits.set(newFile, out);
    console.log(`paths rewritten: ${newFile}`);
  }
}

// ── 4. apply ────────────────────────────────────────────────────────────────────────────

for (const [from, to] of [...moved].sort()) console.log(`move ${from} → ${to}`);
for (const line of loose) console.log(`path string rewritten (check it): ${line}`);
for (const line of unresolved) console.log(`unresolved specifier (left as is): ${line}`);
for (const line of unnamed)
  console.log(`path string in a moved file naming no tracked file (left as is, check it): ${line}`);
console.log(
  `regroup: ${moved.size} files moved, ${specifierCount} specifiers in ${edits.size} files rewritten, ` +
    `${pathCount} files with repository paths rewritten, ${unresolved.length} unresolved${dryRun ? " (dry run)" : ""}`,
);
if (dryRun) process.exit(0);

for (const [from, to] of moved) {
  mkdirSync(dirname(join(ROOT, to)), { recursive: true });
  git("mv", from, to);
}
for (const [file, text] of edits) writeFileSync(join(ROOT, file), text);
// git mv leaves the emptied folders behind
for (const from of [...moved.keys()].sort().reverse()) {
  for (
    let folder = dirname(join(ROOT, from));
    folder.startsWith(join(ROOT, "")) && folder !== ROOT;
    folder = dirname(folder)
  ) {
    try {
      if (readdirSync(folder).length > 0) break;
      rmdirSync(folder);
    } catch {
      break;
    }
  }
}

if (format) {
  const formattable = [...edits.keys()].filter(
    (file) =>
      /\.(ts|tsx|mts|js|mjs|json)$/.test(file) &&
      !file.startsWith("scripts/") &&
      statSync(join(ROOT, file)).isFile(),
  );
  const biome = join(ROOT, "node_modules", ".bin", "biome");
  for (let index = 0; index < formattable.length; index += 200) {
    try {
      execFileSync(
        biome,
        ["check", "--write", "--no-errors-on-unmatched", ...formattable.slice(index, index + 200)],
        {
          cwd: ROOT,
          stdio: ["ignore", "ignore", "inherit"],
        },
      );
    } catch {
      console.log("regroup: biome left findings in the rewritten files (run `npx biome check` on them)");
    }
  }
}
console.log(`regroup: done; review with git status, then commit`);
