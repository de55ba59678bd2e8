/**
 * Code blocks of the README and docs/, for the tests that compile and run them (and for
 * bench/startup's scratch app). A block is a fenced ```ts / ```typescript block; its
 * line in the file is kept for error messages.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface DocBlock {
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  language: string;
  code: string;
}

export function codeBlocks(file: string, text = readFileSync(file, "utf8")): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(\S*)/.exec(lines[index]!);
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && !/^\s*```\s*$/.test(lines[index]!); index++) {
      body.push(lines[index]!.slice(open[1]!.length));
    }
    blocks.push({ file, line: start + 1, language: open[2]!.toLowerCase(), code: `${body.join("\n")}\n` });
  }
  return blocks;
}

export function typescriptBlocks(file: string): DocBlock[] {
  return codeBlocks(file).filter((block) => block.language === "ts" || block.language === "typescript");
}

/** The README and every page of docs/ (absolute paths). */
export function docFiles(root: string): string[] {
  const docs = join(root, "docs");
  return [
    join(root, "README.md"),
    ...readdirSync(docs)
      .filter((name) => name.endsWith(".md"))
      .map((name) => join(docs, name)),
  ];
}

/** The README's main example: its first TypeScript block. */
export function readmeExample(readme: string): string {
  const block = typescriptBlocks(readme)[0];
  if (!block) throw new Error(`${readme} has no TypeScript block`);
  return block.code;
}
