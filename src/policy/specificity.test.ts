import { describe, expect, it } from "vitest";
import { picomatch } from "../deps/picomatch.js";
import { specificity } from "./policy.js";

/** What the order of policies was built on: picomatch's scan for every pattern. */
function scanned(tool: string): number {
  if (tool === "*") return 2;
  return picomatch.scan(tool).isGlob ? 1 : 0;
}

/** Every printable ASCII character, and names made of them (a fixed generator, so a failure repeats). */
function names(count: number): string[] {
  const chars = Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index));
  let state = 20261129;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
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
});
