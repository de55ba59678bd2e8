import { describe, expect, it } from "vitest";
import { picomatch } from "../deps/picomatch.js";
import { toolGlob } from "../hooks/tool-glob.js";
import { globHead, specificity } from "./policy.js";

/** What the order of policies was built on: picomatch's scan for every pattern. */
function scanned(tool: string): number {
  if (tool === "*") return 2;
  return picomatch.scan(tool).isGlob ? 1 : 0;
}

/** Every printable ASCII character, and names made of them (a fixed generator, so a failure repeats). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function names(count: number): string[] {
  const chars = Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index));
  const next = numbers(20261129);
  const out = [...chars, ""];
  for (let index = 0; index < count; index++) {
    // Mostly name characters, so a special one lands anywhere in an otherwise plain name.
    let name = "";
    const length = 1 + Math.floor(next() * 10);
    for (let at = 0; at < length; at++)
      name += next() < 0.8 ? "aZ09_.:-"[Math.floor(next() * 8)] : chars[Math.floor(next() * chars.length)];
    out.push(name);
  }
  return out;
}

describe("a policy's specificity", () => {
  it("is what picomatch's scan says, for plain names and globs alike", () => {
    const written = [
      "Bash",
      "shell",
      "Read",
      "fs.write",
      "mcp__server0__*",
      "mcp__github__create_issue",
      "gh.repos/delete",
      "fs.*",
      "!Bash",
      "@(a|b)",
      "a{b,c}",
      "file-[ab]",
      "*",
      "**",
      "a?",
      "./Bash",
      "a\\*",
    ];
    for (const tool of [...written, ...names(20000)])
      expect(specificity(tool), JSON.stringify(tool)).toBe(scanned(tool));
  });

  it("is known for a name with `*` in it without picomatch, as picomatch's scan says", () => {
    const next = numbers(7);
    for (let index = 0; index < 20000; index++) {
      let tool = "";
      const length = 1 + Math.floor(next() * 8);
      for (let at = 0; at < length; at++) tool += "ab_.:-**/"[Math.floor(next() * 9)];
      expect(specificity(tool), JSON.stringify(tool)).toBe(scanned(tool));
    }
  });
});

describe("a `*` glob's head", () => {
  it("starts every name the glob matches, so a name without it is told apart without the glob", () => {
    const next = numbers(11);
    const pick = (chars: string, length: number) => {
      let text = "";
      for (let at = 0; at < length; at++) text += chars[Math.floor(next() * chars.length)];
      return text;
    };
    let matched = 0;
    let headless = 0;
    for (let index = 0; index < 3000; index++) {
      // Mostly name characters; now and then glob syntax, which leaves nothing known.
      const chars = next() < 0.8 ? "ab_.:-" : "ab_.:-?[]{},!+@()";
      const tool = `${pick(chars, Math.floor(next() * 4))}*${pick(`${chars}*`, Math.floor(next() * 4))}`;
      const head = globHead(tool);
      expect(head).toBe(/^[\w.:*-]*$/.test(tool) ? tool.slice(0, tool.indexOf("*")) : "");
      const matches = toolGlob(tool);
      for (let probe = 0; probe < 10; probe++) {
        // Names near the glob: its head or a part of it, then anything (a "/" too).
        const start = next() < 0.5 ? head : head.slice(0, Math.floor(next() * (head.length + 1)));
        const name = start + pick("ab_.:-/xB", Math.floor(next() * 5));
        if (matches(name)) {
          matched++;
          expect(name.startsWith(head), `${tool} matched ${name}`).toBe(true);
        }
        if (!name.startsWith(head)) headless++;
      }
    }
    expect(matched).toBeGreaterThan(1000);
    expect(headless).toBeGreaterThan(1000);
  });

  it("is empty for other globs (nothing known without compiling them)", () => {
    for (const tool of [
      "*",
      "*_write",
      "a?",
      "a?*",
      "{a,b}*",
      "a{b,c}*",
      "fs/*",
      "[ab]*",
      "a[b]*",
      "!a*",
      "a+(b)*",
    ])
      expect(globHead(tool)).toBe("");
  });
});
