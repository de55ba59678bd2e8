/**
 * Files a user gets wrong never crash the CLI: YAML aliases without an anchor and alias
 * bombs are config errors with line:col (exit 2), and a too-short approval key is one line
 * saying what to do (exit 1). No "internal error", no stack.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli } from "../support/cli.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-bad-files-"));
  writeFileSync(join(dir, "script.yaml"), '- text: "hi"\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

function expectClean(out: { stderr: string }) {
  expect(out.stderr).not.toContain("internal error");
  expect(out.stderr).not.toMatch(/\n\s+at /);
}

/** Ten levels of ten aliases each: 10^7 nodes once expanded. */
const BOMB = [
  "models:",
  "  default: scripted:./script.yaml",
  "x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
  ...Array.from({ length: 7 }, (_, level) => {
    const ref = `*a${level}`;
    return `x${level + 1}: &a${level + 1} [${Array(10).fill(ref).join(", ")}]`;
  }),
  "",
].join("\n");

describe("YAML aliases", () => {
  it("an alias without its anchor is a config error at the alias (validate and run, exit 2)", async () => {
    const file = write(
      "hookwise.yaml",
      "models:\n  default: scripted:./script.yaml\nruntime:\n  max_steps: *steps\n",
    );
    for (const args of [
      ["validate", file],
      ["run", file, "--prompt", "hi"],
    ]) {
      const out = await cli(args);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toContain(`${file}:4:14: (root): YAML alias *steps has no anchor &steps before it`);
      expectClean(out);
    }
  });

  it("an alias bomb is a config error with line:col (validate and run, exit 2)", async () => {
    const file = write("bomb.yaml", BOMB);
    for (const args of [
      ["validate", file],
      ["run", file, "--prompt", "hi"],
    ]) {
      const out = await cli(args);
      expect(out.code, out.stderr).toBe(2);
      expect(out.stderr).toMatch(
        new RegExp(`${file}:4:\\d+: \\(root\\): YAML aliases expand to too much data`),
      );
      expectClean(out);
    }
  });

  it("anchors and aliases used sensibly still load", async () => {
    const file = write(
      "ok.yaml",
      [
        "models:",
        "  default: scripted:./script.yaml",
        "x-notify: &notify { type: notify, title: t, message: m }",
        "runtime:",
        "  hooks:",
        "    - { id: a, on: turn_end, action: *notify }",
        "    - { id: b, on: run_end, action: *notify }",
        "",
      ].join("\n"),
    );
    const out = await cli(["validate", file]);
    // `x-notify` is not a config key: the error is about it, not about the aliases.
    expect(out.stderr).toContain('unknown field "x-notify"');
    expectClean(out);
  });
});

describe("the approval signing key", () => {
  it("a too-short key is one line saying what to do, exit 1", async () => {
    const file = write("hookwise.yaml", "models:\n  default: scripted:./script.yaml\n");
    const previous = process.env.HOOKWISE_APPROVAL_KEY;
    process.env.HOOKWISE_APPROVAL_KEY = "k3y!x";
    try {
      const out = await cli(["run", file, "--prompt", "hi"]);
      expect(out.code, out.stderr).toBe(1);
      const lines = out.stderr.split("\n").filter((line) => line.startsWith("hookwise:"));
      expect(lines).toEqual([
        "hookwise: HOOKWISE_APPROVAL_KEY is too short (5 bytes): use at least 16 random bytes, e.g. `openssl rand -hex 32`",
      ]);
      expect(out.stderr).not.toContain("k3y!x");
      expectClean(out);
    } finally {
      if (previous === undefined) delete process.env.HOOKWISE_APPROVAL_KEY;
      else process.env.HOOKWISE_APPROVAL_KEY = previous;
    }
  });
});
