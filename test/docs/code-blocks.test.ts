/**
 * The README and docs/ are true for an outside reader:
 *
 * - every TypeScript block compiles under `strict` against the package's public entries
 *   (`hookwise`, `hookwise/ai-sdk`) and runs (on the scripted model), except the few
 *   marked `<!-- compile-only: reason -->`; a block marked `<!-- continued -->` continues
 *   the example of the block before it on the same page. A block taken word for word from
 *   an example of examples/ is that example: compiled here, run by the example's own test;
 * - the README's main example prints what it says;
 * - every YAML block is a config `hookwise validate` accepts without an error or a warning
 *   (a top-level list is a list of hook entries, checked under `runtime.hooks`), unless it
 *   is marked `<!-- fragment -->`; a block that starts with `# examples/<file>` is that
 *   file, word for word; `<!-- in: dir -->` validates it as a config in that folder (and
 *   runs a TypeScript block there). docs/config.md's blocks are checked by
 *   examples/config/docs.test.ts;
 * - no page links outside the repository or speaks of design sections, seed numbers or
 *   where the project was built; nor do the examples, the doc comments and strings of
 *   src/ (what the .d.ts and the CLI show) or the shipped JSON Schema.
 *
 * The markers are described in docs/architecture.md ("Code in the docs").
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { validateConfigText } from "../../src/config/check/validate-config.js";
import { formatIssue } from "../../src/config/source/config-error.js";
import {
  codeBlocks,
  type DocModule,
  docFiles,
  readmeExample,
  TS_MARKERS,
  typescriptModules,
} from "../support/doc-blocks.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const README = join(ROOT, "README.md");
const RESULT_MARKER = "@@doc-modules@@";
const TSX = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
/** At most this many blocks may be compiled without being run. */
const MAX_COMPILE_ONLY = 6;
// Inside the repository, so `zod` and the AI SDK resolve from its node_modules.
const work = mkdtempSync(join(ROOT, ".doc-blocks-"));
writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const PAGES = docFiles(ROOT);
const at = (file: string, line: number) => `${relative(ROOT, file)}:${line}`;

function compile(files: string[]): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    skipLibCheck: true,
    noEmit: true,
    baseUrl: ROOT,
    paths: { hookwise: ["src/index.ts"], "hookwise/*": ["src/*/index.ts"] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file && files.includes(resolve(diagnostic.file.fileName)))
    .map((diagnostic) => {
      const where = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const text = diagnostic.file!.text.split("\n");
      // The module's own `// page:line` comments map the error back to the page.
      let origin = "";
      for (let line = where.line; line >= 0 && !origin; line--) {
        const match = /^\/\/ (\S+):(\d+)$/.exec(text[line]!);
        if (match) origin = at(match[1]!, Number(match[2]) + (where.line - line));
      }
      return `${origin}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
}

/** The module as run: the public entries resolved to the sources. */
function runnable(code: string): string {
  return code
    .replaceAll('from "hookwise"', `from ${JSON.stringify(join(ROOT, "src", "index.ts"))}`)
    .replaceAll('from "hookwise/ai-sdk"', `from ${JSON.stringify(join(ROOT, "src", "ai-sdk", "index.ts"))}`);
}

describe("every TypeScript block of the README and docs/", () => {
  const modules: DocModule[] = PAGES.flatMap((page) => typescriptModules(page));
  /** A page may show a region of an example of examples/ that a test there runs. */
  const examples = sourceFiles(join(ROOT, "examples"), /\.m?ts$/).filter((file) => !file.endsWith(".d.mts"));
  const flat = (code: string) =>
    code
      .split("\n")
      .map((line) => line.trim())
      .join("\n")
      .trim();
  const exampleOf = new Map<DocModule, string>();
  for (const module of modules) {
    if (module.blocks.length !== 1) continue;
    const shown = flat(module.blocks[0]!);
    const example = examples.find((file) => flat(readFileSync(file, "utf8")).includes(shown));
    if (example) exampleOf.set(module, example);
  }
  const standalone = modules.filter((module) => !exampleOf.has(module));

  it("has only markers the test understands", () => {
    const unknown = PAGES.flatMap((page) =>
      codeBlocks(page)
        .filter((block) => block.language === "ts" || block.language === "typescript")
        .filter((block) => block.marker !== undefined && !TS_MARKERS.test(block.marker))
        .map((block) => `${at(page, block.line)}: <!-- ${block.marker} -->`),
    );
    expect(unknown).toEqual([]);
    expect(modules.length).toBeGreaterThan(PAGES.length);
  });

  it("imports hookwise only through its public entries", () => {
    const bad = standalone.flatMap((module) =>
      [...module.code.matchAll(/\bfrom "([^"]+)"/g)]
        .map((match) => match[1]!)
        .filter((specifier) => specifier.startsWith(".") || specifier.includes("/src/"))
        .map((specifier) => `${at(module.file, module.line)}: imports ${specifier}`),
    );
    expect(bad).toEqual([]);
  });

  it(`is run, but for at most ${MAX_COMPILE_ONLY} marked compile-only, each with its reason`, () => {
    const compileOnly = modules.filter((module) => module.compileOnly !== undefined);
    expect(compileOnly.length).toBeLessThanOrEqual(MAX_COMPILE_ONLY);
    for (const module of compileOnly) expect(module.compileOnly!.length).toBeGreaterThan(10);
  });

  it("shown from an example: the example uses only the public entries, and a test there runs it", () => {
    const bad: string[] = [];
    for (const [module, example] of exampleOf) {
      const where = `${at(module.file, module.line)} (${relative(ROOT, example)})`;
      const text = readFileSync(example, "utf8");
      for (const [, specifier] of text.matchAll(/\bfrom "([^"]+)"/g)) {
        if (!specifier!.includes("/src/")) continue;
        if (!/\/src\/(ai-sdk\/)?index\.js$/.test(specifier!)) bad.push(`${where}: imports ${specifier}`);
      }
      const dir = dirname(example);
      const name = basename(example).replace(/\.m?ts$/, "");
      const tests = readdirSync(dir).filter((file) => file.endsWith(".test.ts"));
      const ran = tests.some((test) => readFileSync(join(dir, test), "utf8").includes(`./${name}.`));
      if (!ran) bad.push(`${where}: no test of ${relative(ROOT, dir)} imports it`);
    }
    expect(bad).toEqual([]);
  });

  it("compiles under strict against hookwise's public entries", () => {
    const files = standalone.map((module, index) => {
      const file = join(work, `${basename(module.file, ".md")}-${index}.ts`);
      writeFileSync(file, `${module.code}export {};\n`);
      return file;
    });
    expect(compile([...files, ...new Set(exampleOf.values())])).toEqual([]);
  }, 240_000);

  it("runs on the scripted model without throwing", () => {
    const files = standalone
      .filter((module) => module.compileOnly === undefined)
      .map((module, index) => {
        const file = join(work, `run-${basename(module.file, ".md")}-${index}.ts`);
        writeFileSync(file, `${runnable(module.code)}export {};\n`);
        return { file, module };
      });
    const child = spawnSync(
      process.execPath,
      [
        TSX,
        join(ROOT, "test", "support", "run-doc-modules.ts"),
        ...files.map(({ file, module }) => (module.dir ? `${file}\t${join(ROOT, module.dir)}` : file)),
      ],
      { cwd: work, encoding: "utf8", timeout: 180_000, env: { ...process.env, NO_COLOR: "1" } },
    );
    const result = child.stdout.split(RESULT_MARKER)[1];
    expect(result, `the runner did not finish:\n${child.stderr}`).toBeDefined();
    const failures = (JSON.parse(result!) as { file: string; error: string }[]).map(({ file, error }) => {
      const module = files.find((entry) => entry.file === file)?.module;
      return `${module ? at(module.file, module.line) : file}: ${error.split("\n").slice(0, 6).join("\n")}`;
    });
    expect(failures).toEqual([]);
  }, 240_000);

  it("the README's main example prints what it says: the decide hook denies reading .env", () => {
    const file = join(work, "main-example.ts");
    writeFileSync(file, runnable(readmeExample(README)));
    const child = spawnSync(process.execPath, [TSX, file], { cwd: work, encoding: "utf8", timeout: 60_000 });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("completed I may not read .env, so I cannot summarise it.\n");
  }, 90_000);
});

describe("every YAML block of the README and docs/", () => {
  // docs/config.md has its own conventions and test (examples/config/docs.test.ts).
  const blocks = PAGES.filter((page) => basename(page) !== "config.md").flatMap((page) =>
    codeBlocks(page).filter((block) => block.language === "yaml" || block.language === "yml"),
  );

  it("has only the markers the test understands", () => {
    const unknown = blocks
      .filter((block) => block.marker !== undefined && !/^(fragment|in:\s*\S+)$/.test(block.marker))
      .map((block) => `${at(block.file, block.line)}: <!-- ${block.marker} -->`);
    expect(unknown).toEqual([]);
  });

  it("is a config hookwise validate accepts without an error or a warning, or a marked fragment", () => {
    const problems: string[] = [];
    for (const block of blocks.filter((entry) => entry.marker !== "fragment")) {
      const where = at(block.file, block.line);
      const copied = /^# (examples\/\S+\.ya?ml)\n/.exec(block.code)?.[1];
      const dir = /^in:\s*(\S+)$/.exec(block.marker ?? "")?.[1];
      let file = join(ROOT, dir ?? "docs", `${basename(block.file, ".md")}-${block.line}.yaml`);
      if (copied) {
        file = join(ROOT, copied);
        if (!existsSync(file)) problems.push(`${where}: names ${copied}, which does not exist`);
        else if (readFileSync(file, "utf8").trimEnd() !== block.code.trimEnd())
          problems.push(`${where}: differs from ${copied}`);
      }
      let text = block.code;
      if (Array.isArray(parse(text))) {
        const indented = text.split("\n").map((line) => (line ? `    ${line}` : line));
        text = `runtime:\n  hooks:\n${indented.join("\n")}\n`;
      }
      const { issues } = validateConfigText(text, file);
      for (const issue of issues) problems.push(`${where}: ${formatIssue(issue)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe("README and docs/ speak to an outside reader", () => {
  const examplesReadmes = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return examplesReadmes(path);
      return entry.name.toLowerCase() === "readme.md" ? [path] : [];
    });
  const pages = [...PAGES, ...examplesReadmes(join(ROOT, "examples"))].map((file) => ({
    file,
    text: readFileSync(file, "utf8"),
  }));

  it("relative links point at files of the repository, never above it", () => {
    const bad: string[] = [];
    for (const { file, text } of pages) {
      for (const match of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/.test(target)) continue; // a URL: checked below
        const path = resolve(dirname(file), target);
        if (!path.startsWith(`${ROOT}/`) || !existsSync(path)) bad.push(`${file}: ${target}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("nothing links outside the repository", () => {
    const bad: string[] = [];
    for (const { file, text } of pages) {
      for (const match of text.matchAll(/\]\(\s*([a-z]+:[^)\s]*)|<([a-z]+:\/\/[^>\s]+)>/gi)) {
        bad.push(`${relative(ROOT, file)}: ${match[1] ?? match[2]}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("no page speaks of design sections, seed numbers or where the project was built", () => {
    const bad: string[] = [];
    for (const { file, text } of pages) {
      text.split("\n").forEach((line, index) => {
        if (DESIGN_WORDS.test(line)) bad.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(bad).toEqual([]);
  });

  it("nor do the examples a page points to (the seed fixture set of examples/seeds/ aside)", () => {
    const bad: string[] = [];
    const files = sourceFiles(join(ROOT, "examples"), /\.(m?ts|mjs|ya?ml|json|md)$/).filter(
      (file) => !file.startsWith(`${join(ROOT, "examples", "seeds")}/`),
    );
    for (const file of files) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (DESIGN_WORDS.test(line)) bad.push(`${relative(ROOT, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(files.length).toBeGreaterThan(10);
    expect(bad).toEqual([]);
  });

  it("the doc comments and messages of src/ do not either, nor the shipped JSON Schema", () => {
    const bad: string[] = [];
    const schema = join(ROOT, "schema", "hookwise.schema.json");
    readFileSync(schema, "utf8")
      .split("\n")
      .forEach((line, index) => {
        if (DESIGN_WORDS.test(line)) bad.push(`${relative(ROOT, schema)}:${index + 1}: ${line.trim()}`);
      });
    for (const file of sourceFiles(join(ROOT, "src"))) {
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
      for (const { text, line } of commentsAndStrings(source)) {
        if (DESIGN_WORDS.test(text))
          bad.push(`${relative(ROOT, file)}:${line}: ${text.trim().slice(0, 120)}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

/**
 * Words that speak of the design documents behind the project rather than of its behaviour:
 * section signs, the design file, seed numbers ("seed 003", "seed-000", "seeds/", "the
 * seed's"), the project's own issue numbers, and where it was built. `seed` as a sampling
 * setting stays allowed, and so do program and option names (`sandbox-exec`, `--sandbox`).
 */
const DESIGN_WORDS = {
  test: (line: string) =>
    /§|\bDESIGN\b|\bVM\b/.test(line) ||
    /\bseeds?[- ]?\d|\bseeds\/|\bseed(?:'s|s'|s)\b|\bthe seed\b|this workplace|(?<!-)\bsandbox\b(?!-)|\bissue #?\d+/i.test(
      line,
    ),
};

/** The source files under `dir` (tests left out). */
function sourceFiles(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, pattern);
    return pattern.test(entry.name) && !/\.test(-d)?\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Every doc comment (`/** … *\/`, what the .d.ts keeps) and string literal (what the CLI
 * and errors print) of a source file, with its line. Line comments are for maintainers.
 */
function commentsAndStrings(source: ts.SourceFile): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const seen = new Set<number>();
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const addComments = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos) || !source.text.startsWith("/**", range.pos)) continue;
      seen.add(range.pos);
      const lines = source.text.slice(range.pos, range.end).split("\n");
      for (const [offset, text] of lines.entries()) out.push({ text, line: lineOf(range.pos) + offset });
    }
  };
  const visit = (node: ts.Node) => {
    addComments(ts.getLeadingCommentRanges(source.text, node.getFullStart()));
    addComments(ts.getTrailingCommentRanges(source.text, node.getEnd()));
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node))
      out.push({ text: node.text, line: lineOf(node.getStart()) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  addComments(ts.getLeadingCommentRanges(source.text, source.endOfFileToken.getFullStart()));
  return out;
}
