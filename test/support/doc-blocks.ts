/**
 * Code blocks of the README and docs/, for the tests that compile, run and validate them
 * (and for bench/startup's scratch app). A block is a fenced block with its language; its
 * line in the file is kept for error messages, and so is the marker right above it: an
 * HTML comment on the nearest non-blank line before the fence, such as
 * `<!-- compile-only: needs an API key -->`, `<!-- continued -->` or `<!-- fragment -->`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface DocBlock {
  file: string;
  /** The line of the opening fence (1-based). */
  line: number;
  language: string;
  code: string;
  /** The HTML comment right above the fence, without `<!--` and `-->`, if any. */
  marker?: string;
}

export function codeBlocks(file: string, text = readFileSync(file, "utf8")): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(\S*)/.exec(lines[index]!);
    if (!open) continue;
    const start = index;
    let previous = start - 1;
    while (previous >= 0 && lines[previous]!.trim() === "") previous--;
    const marker = /^<!--\s*(.*?)\s*-->$/.exec(lines[previous]?.trim() ?? "")?.[1];
    const body: string[] = [];
    for (index++; index < lines.length && !/^\s*```\s*$/.test(lines[index]!); index++) {
      body.push(lines[index]!.slice(open[1]!.length));
    }
    blocks.push({
      file,
      line: start + 1,
      language: open[2]!.toLowerCase(),
      code: `${body.join("\n")}\n`,
      ...(marker === undefined ? {} : { marker }),
    });
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
      .sort()
      .map((name) => join(docs, name)),
  ];
}

/** The README's main example: its first TypeScript block. */
export function readmeExample(readme: string): string {
  const block = typescriptBlocks(readme)[0];
  if (!block) throw new Error(`${readme} has no TypeScript block`);
  return block.code;
}

/**
 * A page's TypeScript blocks as modules: each block is one, except that a block marked
 * `<!-- continued -->` goes on the module of the block before it (a page may build one
 * example over several blocks, with prose between them). `compileOnly` holds the reason
 * of a `<!-- compile-only: reason -->` marker on the module's first block.
 */
export interface DocModule {
  file: string;
  line: number;
  code: string;
  /** The blocks' own code, as the page shows it. */
  blocks: string[];
  compileOnly?: string;
  /** `<!-- in: dir -->`: run in this folder of the repository (else in an empty one). */
  dir?: string;
}

export const TS_MARKERS = /^(continued|compile-only:\s*(\S.*)|in:\s*(\S+))$/;

export function typescriptModules(file: string): DocModule[] {
  const modules: DocModule[] = [];
  for (const block of typescriptBlocks(file)) {
    const marker = block.marker === undefined ? undefined : TS_MARKERS.exec(block.marker);
    const last = modules.at(-1);
    if (marker?.[1] === "continued" && last) {
      last.code += `// ${file}:${block.line}\n${block.code}`;
      last.blocks.push(block.code);
      continue;
    }
    modules.push({
      file,
      line: block.line,
      code: `// ${file}:${block.line}\n${block.code}`,
      blocks: [block.code],
      ...(marker?.[2] ? { compileOnly: marker[2] } : {}),
      ...(marker?.[3] ? { dir: marker[3] } : {}),
    });
  }
  return modules;
}
