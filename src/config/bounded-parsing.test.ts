/**
 * Hostile config texts are refused in bounded time, in one process, again and again: deep
 * nesting is measured before the YAML parser runs (1,000 nested `[` in 2 KB once exhausted
 * the parser's stack and V8 then aborted the process compiling a regular expression — an
 * error no `catch` sees), aliases are counted in one pass (each `Alias.resolve` walked the
 * whole document), duplicate keys are found with a set (the library compares each key with
 * every key before it), and a position is found by key, not by scanning the mapping.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "../../test/support/cli.js";
import { MAX_NESTING_DEPTH, tooDeepAt } from "../deps/yaml-nesting-depth.js";
import { validateConfigText } from "./check/validate-config.js";

const dir = mkdtempSync(join(tmpdir(), "hookwise-bounded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

function messages(text: string): string[] {
  return validateConfigText(text, "hostile.yaml").issues.map(
    (issue) => `${issue.line}:${issue.column} ${issue.message}`,
  );
}

const DEEP: Record<string, string> = {
  "1,000 nested [": `x: ${"[".repeat(1000)}${"]".repeat(1000)}\n`,
  "1,000 nested [ left open": `x: ${"[".repeat(1000)}\n`,
  "1,000 nested flow maps": `x: ${"{a: ".repeat(1000)}1${"}".repeat(1000)}\n`,
  "1,000 compact sequences": `x:\n  ${"- ".repeat(1000)}a\n`,
  "300 indented levels": `${Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}k${i}:`).join("\n")}\n${" ".repeat(300)}v: 1\n`,
  "a deep JSON document": `{"a": ${"[".repeat(5000)}${"]".repeat(5000)}}`,
};

describe("deep nesting is refused before the parser runs", () => {
  it.each(Object.entries(DEEP))("%s, loaded ten times in one process", (_, text) => {
    for (let round = 0; round < 10; round++) {
      const { value, ms } = timed(() => messages(text));
      expect(value).toHaveLength(1);
      expect(value[0]).toMatch(new RegExp(`nested more than ${MAX_NESTING_DEPTH} levels deep`));
      expect(ms).toBeLessThan(1_000);
    }
  });

  it("the CLI, twice in one process, exits 2 with one line at the place it gets too deep", async () => {
    const file = join(dir, "deep.yaml");
    writeFileSync(file, DEEP["1,000 nested ["]!);
    for (let round = 0; round < 2; round++) {
      const out = await cli(["validate", file]);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(
        `${file}:1:${3 + MAX_NESTING_DEPTH}: (root): YAML syntax: nested more than ${MAX_NESTING_DEPTH} levels deep; flatten the structure`,
      );
    }
  });

  it("depth is counted where the YAML nests, not in strings, comments or block scalars", () => {
    const brackets = "[".repeat(200);
    const text = [
      `quoted: "${brackets}"`,
      `single: '${brackets}'`,
      `plain: it's ${"]".repeat(10)}`,
      `# ${brackets}`,
      "script: |",
      `  ${brackets}`,
      `  echo '${brackets}`,
      "folded: >-",
      `  ${"{".repeat(200)}`,
      `list: [a, "b ${brackets}", [c]]`,
      "",
    ].join("\n");
    expect(tooDeepAt(text)).toBeUndefined();
    // The mapping is one level, each bracket one more.
    expect(tooDeepAt(`a: ${"[".repeat(MAX_NESTING_DEPTH - 1)}`)).toBeUndefined();
    expect(tooDeepAt(`a: ${"[".repeat(MAX_NESTING_DEPTH)}`)).toBe(2 + MAX_NESTING_DEPTH);
    // A quote inside a plain scalar does not hide the brackets after it.
    expect(tooDeepAt(`a: [it's, ${"[".repeat(100)}`)).toBeDefined();
  });
});

describe("aliases and keys: linear in their number", () => {
  it("8,000 aliases of one anchor in 24 KB: refused at the alias limit, quickly, every time", () => {
    const text = `x: &a 1\nl: [${Array(8000).fill("*a").join(",")}]\n`;
    for (let round = 0; round < 3; round++) {
      const { value, ms } = timed(() => messages(text));
      expect(value).toEqual([
        "2:5 YAML aliases expand to too much data (more than 100 alias expansions); write the values out or use fewer aliases",
      ]);
      expect(ms).toBeLessThan(4_000);
    }
  });

  it("an alias before its anchor is still named, at its place", () => {
    expect(messages("a: *x\nb: &x 1\n")).toEqual(["1:4 YAML alias *x has no anchor &x before it"]);
  });

  it("16,000 unknown keys: each reported at its line, in time linear in the keys", () => {
    const text = Array.from({ length: 16_000 }, (_, i) => `k${i}: 1`).join("\n");
    const { value, ms } = timed(() => messages(text));
    expect(value).toHaveLength(16_000);
    expect(value[15_999]).toMatch(/^16000:1 unknown field "k15999"/);
    expect(ms).toBeLessThan(6_000);
  });

  it("16,000 keys of one mapping with a duplicate: the duplicate is found, at its key", () => {
    const lines = Array.from({ length: 16_000 }, (_, i) => `  k${i}: 1`);
    lines.push("  k7: 2");
    const { value, ms } = timed(() => messages(`models:\n${lines.join("\n")}\n`));
    expect(value).toEqual(["16002:3 YAML syntax: Map keys must be unique"]);
    expect(ms).toBeLessThan(4_000);
  });
});
