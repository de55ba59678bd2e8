/**
 * The import directions of docs/architecture.md, checked against the code: every
 * non-test `.ts` file under src/ is mapped to its room, and each of its relative imports
 * (static, `export … from`, `import()` and `import("…")` types) must go to its own room or
 * to one the page's `imports` table lists for it. Import cycles longer than two files fail,
 * in src/ and anywhere else in the repository (test/, bench/, scripts/, examples/), as do
 * shipped code importing from outside src/, a folder of src/ with more than 25 source files,
 * and a page that no longer matches the tree (a room or a named file missing).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");
const PAGE = join(ROOT, "docs", "architecture.md");

/** A room and what it may import: other rooms, or single files of a room (`loop/types.ts`). */
interface Rule {
  room: string;
  rooms: Set<string>;
  files: Set<string>;
  coming: boolean;
}

/** The `imports` block of the page: `room → other rooms and files`, one line each. */
function parseRules(page: string): Map<string, Rule> {
  const block = /```imports\n([\s\S]*?)```/.exec(page);
  if (!block) throw new Error("docs/architecture.md has no ```imports block");
  const rules = new Map<string, Rule>();
  for (const line of block[1]!.split("\n")) {
    if (!line.trim()) continue;
    const match = /^(\S+)\s*→(.*)$/.exec(line);
    if (!match) throw new Error(`docs/architecture.md: cannot read the imports line "${line}"`);
    const coming = /\(coming\)\s*$/.test(match[2]!);
    const targets = match[2]!
      .replace(/\(coming\)\s*$/, "")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    rules.set(match[1]!, {
      room: match[1]!,
      rooms: new Set(targets.filter((target) => !target.endsWith(".ts"))),
      files: new Set(targets.filter((target) => target.endsWith(".ts"))),
      coming,
    });
  }
  return rules;
}

/** The room of a path relative to src/: the longest room that contains it; "" for src/index.ts. */
function roomOf(path: string, rooms: Iterable<string>): string | undefined {
  if (!path.includes("/")) return "";
  let best: string | undefined;
  for (const room of rooms) {
    if (path.startsWith(`${room}/`) && (best === undefined || room.length > best.length)) best = room;
  }
  return best;
}

/** The file a relative specifier names: the file itself, its `.ts` for `.js`, or a folder's index. */
function resolveImport(from: string, specifier: string): string {
  const target = resolve(dirname(from), specifier);
  const candidates = [
    target.replace(/\.js$/, ".ts"),
    target.replace(/\.js$/, ".tsx"),
    target.replace(/\.mjs$/, ".mts"),
    target,
    `${target}.ts`,
    join(target, "index.ts"),
  ];
  const found = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  if (found) return found;
  // not on disk (the checker's own examples): `.js` is the `.ts` file, a bare name a folder's index
  return /\.(js|ts|mjs|mts)$/.test(target) ? target.replace(/\.js$/, ".ts") : join(target, "index.ts");
}

/** Relative paths under `base` (src/ unless told; `../…` outside it) of what `file` imports. */
function importsOf(file: string, text: string, base = SRC): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      specifier = node.moduleSpecifier;
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      specifier = node.arguments[0];
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      specifier = node.argument.literal;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith(".")) {
      found.push(relative(base, resolveImport(file, specifier.text)).split("\\").join("/"));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

interface Violation {
  from: string;
  to: string;
  why: string;
}

/** The imports against the rules. `graph`: file → its imports, paths relative to src/. */
function violations(graph: ReadonlyMap<string, readonly string[]>, rules: Map<string, Rule>): Violation[] {
  const found: Violation[] = [];
  for (const [from, imports] of graph) {
    const room = roomOf(from, rules.keys());
    if (room === undefined) {
      found.push({ from, to: "", why: `its folder is not a room of docs/architecture.md` });
      continue;
    }
    for (const to of imports) {
      if (to.startsWith("..")) {
        found.push({
          from,
          to,
          why: "shipped code imports from outside src/ (a test helper belongs to tests)",
        });
        continue;
      }
      const target = roomOf(to, rules.keys());
      if (room === "") {
        if (!/^[^/]+(\/[^/]+)?\/index\.ts$/.test(to)) {
          found.push({ from, to, why: "src/index.ts re-exports rooms' index.ts files only" });
        }
        continue;
      }
      if (target === room) continue;
      const rule = rules.get(room)!;
      if (target !== undefined && rule.rooms.has(target)) continue;
      if (rule.files.has(to)) continue;
      found.push({
        from,
        to,
        why: `${room}/ may not import ${target === undefined ? "that" : `${target}/`}`,
      });
    }
  }
  return found;
}

/** Strongly connected components of the file graph with more than `longest` files. */
function cycles(graph: ReadonlyMap<string, readonly string[]>, longest: number): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const to of graph.get(file) ?? []) {
      if (!graph.has(to)) continue;
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > longest) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
}

function shippedFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return shippedFiles(path);
    return entry.name.endsWith(".ts") && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every module of the repository's code folders (tests, fixtures and benchmarks included). */
function repositoryFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : repositoryFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const CODE_FOLDERS = ["src", "test", "bench", "scripts", "examples", "web", "bin"];

function repositoryGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of CODE_FOLDERS) {
    if (!existsSync(join(ROOT, folder))) continue;
    for (const file of repositoryFiles(join(ROOT, folder))) {
      // the scanner, not the parser: imports, `export … from` and `import()` of ~900 files
      const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      graph.set(
        relative(ROOT, file).split("\\").join("/"),
        importedFiles
          .filter(({ fileName }) => fileName.startsWith("."))
          .map(({ fileName }) => relative(ROOT, resolveImport(file, fileName)).split("\\").join("/")),
      );
    }
  }
  return graph;
}

/** The rooms' graph: an edge for each room another imports, but not for a file the table lets it read. */
function roomGraph(
  graph: ReadonlyMap<string, readonly string[]>,
  rules: Map<string, Rule>,
): Map<string, string[]> {
  const between = new Map<string, string[]>();
  for (const [from, imports] of graph) {
    const room = roomOf(from, rules.keys());
    if (!room) continue;
    const targets = between.get(room) ?? [];
    for (const to of imports) {
      const target = roomOf(to, rules.keys());
      if (!target || target === room || rules.get(room)!.files.has(to) || targets.includes(target)) continue;
      targets.push(target);
    }
    between.set(room, targets);
  }
  return between;
}

/** Folders of src/ with more than `most` source files (tests beside them not counted). */
function crowded(files: Iterable<string>, most: number): string[] {
  const count = new Map<string, number>();
  for (const file of files) {
    const folder = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
    count.set(folder, (count.get(folder) ?? 0) + 1);
  }
  return [...count]
    .filter(([, files]) => files > most)
    .map(([folder, files]) => `src/${folder}: ${files} files`);
}

function sourceGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of shippedFiles(SRC)) {
    graph.set(relative(SRC, file).split("\\").join("/"), importsOf(file, readFileSync(file, "utf8")));
  }
  return graph;
}

describe("the checker itself", () => {
  const rules = parseRules(
    "```imports\nevents →\nhooks  → events\nloop/batch → hooks loop/types.ts\nloop → hooks loop/batch\nconfig → loop\n```",
  );
  const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

  it("passes imports along the allowed directions, and within a room", () => {
    const allowed = graph({
      "loop/drive.ts": ["loop/batch/run.ts", "hooks/runner.ts", "loop/types.ts"],
      "loop/batch/run.ts": ["loop/types.ts", "hooks/runner.ts"],
      "hooks/runner.ts": ["events/payloads.ts"],
      "config/load.ts": ["loop/drive.ts"],
      "index.ts": ["loop/index.ts", "loop/batch/index.ts"],
    });
    expect(violations(allowed, rules)).toEqual([]);
  });

  it("reports an import against the direction, a file a sub-room may not read, and one outside src/", () => {
    const bad = graph({
      "events/payloads.ts": ["hooks/runner.ts"],
      "loop/batch/run.ts": ["loop/drive.ts"],
      "loop/drive.ts": ["config/load.ts", "../test/support/harness.ts"],
      "index.ts": ["loop/drive.ts"],
      "stray/thing.ts": [],
    });
    expect(violations(bad, rules).map((found) => `${found.from} → ${found.to}`)).toEqual([
      "events/payloads.ts → hooks/runner.ts",
      "loop/batch/run.ts → loop/drive.ts",
      "loop/drive.ts → config/load.ts",
      "loop/drive.ts → ../test/support/harness.ts",
      "index.ts → loop/drive.ts",
      "stray/thing.ts → ",
    ]);
  });

  it("finds cycles longer than two files, and lets a pair through", () => {
    const pair = graph({ "a.ts": ["b.ts"], "b.ts": ["a.ts"] });
    const three = graph({ "a.ts": ["b.ts"], "b.ts": ["c.ts"], "c.ts": ["a.ts"], "d.ts": ["a.ts"] });
    expect(cycles(pair, 2)).toEqual([]);
    expect(cycles(three, 2)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("sees a cycle between rooms, a sub-room included, but not through a file a room may read", () => {
    const rooms = graph({
      "loop/drive.ts": ["loop/batch/run.ts"],
      "loop/batch/run.ts": ["loop/types.ts"],
      "hooks/runner.ts": ["events/payloads.ts"],
      "events/payloads.ts": ["hooks/runner.ts"],
    });
    expect(cycles(roomGraph(rooms, rules), 1)).toEqual([["events", "hooks"]]);
  });

  it("counts a folder's source files, not the folders inside it", () => {
    const files = [
      ...Array.from({ length: 26 }, (_, index) => `config/check-${index}.ts`),
      ...Array.from({ length: 25 }, (_, index) => `loop/step-${index}.ts`),
      "loop/batch/run.ts",
    ];
    expect(crowded(files, 25)).toEqual(["src/config: 26 files"]);
  });

  it("reads every kind of import a file can make", () => {
    const file = join(SRC, "loop", "example.ts");
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../hooks/b.js";',
      'export { c } from "./batch/c.js";',
      'export * from "./batch/index.js";',
      'const d = await import("../state/d.js");',
      'type E = import("../events/e.js").E;',
      'import { z } from "zod";',
    ].join("\n");
    expect(importsOf(file, text)).toEqual([
      "loop/a.ts",
      "hooks/b.ts",
      "loop/batch/c.ts",
      "loop/batch/index.ts",
      "state/d.ts",
      "events/e.ts",
    ]);
  });
});

describe("the tree follows docs/architecture.md", () => {
  const page = readFileSync(PAGE, "utf8");
  const rules = parseRules(page);
  const graph = sourceGraph();

  it("imports only along the allowed directions", () => {
    const found = violations(graph, rules).map((found) => `${found.from} → ${found.to}: ${found.why}`);
    expect(found).toEqual([]);
  });

  it("has no import cycle longer than two files", () => {
    expect(cycles(graph, 2)).toEqual([]);
  });

  it("has no cycle between rooms (a room inside another, as loop/batch, is a room of its own)", () => {
    expect(cycles(roomGraph(graph, rules), 1)).toEqual([]);
  });

  it("has no import cycle longer than two files anywhere in the repository", () => {
    // bench/, test/, scripts/, examples/ and web/ as well as src/, tests included; nothing
    // is left out. NOTE: bench/compare/'s contender registry and its contenders import each
    // other (a cycle of 12 files); the fix comes with the benchmark's own rework, and until
    // it is merged this test fails on bench/compare/ alone.
    expect(cycles(repositoryGraph(), 2)).toEqual([]);
  });

  it("has no folder of src/ with more than 25 source files", () => {
    expect(crowded(graph.keys(), 25)).toEqual([]);
  });

  it("lists every room the tree has, and has every room it lists (except those marked coming)", () => {
    const folders = new Set(
      [...graph.keys()]
        .filter((file) => file.includes("/"))
        .map((file) => roomOf(file, rules.keys()) ?? file),
    );
    for (const folder of folders)
      expect(rules.has(folder), `src/${folder} is not in docs/architecture.md`).toBe(true);
    for (const rule of rules.values()) {
      const present = folders.has(rule.room);
      expect(
        present,
        `${rule.room}/ is ${present ? "in the tree: drop its (coming)" : "listed but not in src/"}`,
      ).toBe(!rule.coming);
    }
  });

  it("names only files the tree has", () => {
    const named = [...page.matchAll(/`([\w./-]+\/[\w.-]+\.ts)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(10);
    const missing = named.filter((path) => {
      const full = /^(src|test|examples|bench|scripts|web)\//.test(path) ? join(ROOT, path) : join(SRC, path);
      return !existsSync(full);
    });
    expect(missing).toEqual([]);
  });
});

describe("the benchmarks", () => {
  it("have no import cycle (a list of contenders imports them; they import only its types)", () => {
    const graph = new Map<string, string[]>();
    for (const file of shippedFiles(join(ROOT, "bench"))) {
      graph.set(relative(SRC, file).split("\\").join("/"), importsOf(file, readFileSync(file, "utf8")));
    }
    expect(graph.size).toBeGreaterThan(20);
    expect(cycles(graph, 1)).toEqual([]);
  });
});
