/**
 * The README and docs/ are true for an outside reader: the README's TypeScript blocks
 * compile under `strict` against the package's public entry, its main example runs (on
 * the scripted model), and no page links outside the repository or speaks of design
 * sections or seed numbers.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { docFiles, readmeExample, typescriptBlocks } from "../support/doc-blocks.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const README = join(ROOT, "README.md");
// Inside the repository, so `zod` and the AI SDK resolve from its node_modules.
const work = mkdtempSync(join(ROOT, ".doc-blocks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

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
      return `${diagnostic.file!.fileName}:${where.line + 1}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
}

describe("the README", () => {
  it("every TypeScript block compiles under strict against hookwise's public entry", () => {
    writeFileSync(join(work, "package.json"), JSON.stringify({ type: "module" }));
    const blocks = typescriptBlocks(README);
    expect(blocks.length).toBeGreaterThan(0);
    const files = blocks.map((block, index) => {
      const file = join(work, `readme-${index}.ts`);
      writeFileSync(file, `// README.md:${block.line}\n${block.code}\nexport {};\n`);
      return file;
    });
    expect(compile(files)).toEqual([]);
  }, 180_000);

  it("its main example runs: the decide hook denies reading .env, the model answers", () => {
    const code = readmeExample(README).replace(
      'from "hookwise"',
      `from ${JSON.stringify(join(ROOT, "src", "index.ts"))}`,
    );
    const file = join(work, "main-example.ts");
    writeFileSync(file, code);
    const tsx = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    const child = spawnSync(process.execPath, [tsx, file], { cwd: work, encoding: "utf8", timeout: 60_000 });
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("completed I may not read .env, so I cannot summarise it.\n");
  }, 90_000);
});

describe("README and docs/ speak to an outside reader", () => {
  const pages = docFiles(ROOT).map((file) => ({ file, text: readFileSync(file, "utf8") }));

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

  it("the README links only inside the repository and says nothing of where it was built", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme).not.toMatch(/\]\((https?:|\.\.\/)/);
    expect(readme).not.toMatch(/DESIGN|§|\bVM\b/);
    expect(readme).not.toMatch(/\bseed[- ]?\d|this workplace|sandbox/i);
  });
});
