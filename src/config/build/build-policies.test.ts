/**
 * A config policy's `when` is CEL over the call's arguments. Over an argument whose schema
 * does not pin its type, the expression type-checks at load and may answer a non-boolean at
 * run time: that is an evaluation error, and the policy fails closed (the call does not run).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { MemoryStore } from "../../state/memory-store.js";
import { loadConfig } from "../load-config.js";
import type { PolicyEntry } from "../schema/schema.js";
import { buildPolicies } from "./build-policies.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-policy-when-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one fs.remove call with `recursive` as given; answers whether the body ran and what the model was told. */
async function removeWith(surface: (typeof SURFACES)[number], recursive: string) {
  const marker = join(dir, "removed.txt");
  rmSync(marker, { force: true });
  writeFileSync(
    join(dir, "fs-tools.mjs"),
    `import { writeFileSync } from "node:fs";
export const remove = {
  description: "remove a path",
  inputSchema: { type: "object", properties: { path: { type: "string" }, recursive: {} }, required: ["path"] },
  execute: ({ path, recursive }) => { writeFileSync(${JSON.stringify(marker)}, path + (recursive ? " recursively" : "")); return "removed"; },
};
`,
  );
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `models: { default: "scripted:./script.yaml" }
toolsets:
  fs: { kind: module, path: ./fs-tools.mjs }
runtime:
  policies:
    - { decision: deny, tool: fs.remove, when: "args.recursive", reason: "no recursive removes" }
`,
  );
  writeFileSync(
    join(dir, "script.yaml"),
    `- tool_calls:\n    - { name: fs_remove, args: { path: "/", recursive: ${recursive} } }\n- text: done\n`,
  );
  const loaded = await loadConfig(join(dir, "hookwise.yaml"), { store: new MemoryStore() });
  try {
    const { result } = await runOn(surface, await loaded.createAgent(), "clean up");
    return { ran: existsSync(marker), told: String(result.steps[0]!.toolResults[0]!.result) };
  } finally {
    await loaded.close();
  }
}

describe.each(SURFACES)("a deny policy's `when` over an untyped argument (%s)", (surface) => {
  test("true denies, false lets the call run", async () => {
    expect(await removeWith(surface, "true")).toMatchObject({
      ran: false,
      told: expect.stringContaining("no recursive removes"),
    });
    expect(await removeWith(surface, "false")).toMatchObject({ ran: true });
  });

  test.each(['"yes"', "1", "[true]", "null"])(
    "%s is not a boolean: an evaluation error, so the deny applies (fails closed)",
    async (value) => {
      expect(await removeWith(surface, value)).toEqual({
        ran: false,
        told: 'tool "fs.remove" was denied by hook "policy": no recursive removes',
      });
    },
  );
});

/**
 * `matches()` runs the model's text against the config's pattern. CEL patterns are RE2:
 * linear in the text. A backtracking engine would take exponential time on a pattern like
 * `^(\w+\s?)*$` and a few dozen characters the model chose, and a regular expression cannot
 * be interrupted: the hook's timeout never fires and the process hangs.
 */
describe("a policy's `when` on text and lists the model chose", () => {
  async function execWith(when: string, command: string | { paths: string[] }) {
    const args = typeof command === "string" ? { command } : command;
    const marker = join(dir, "ran.txt");
    writeFileSync(
      join(dir, "sh-tools.mjs"),
      `import { writeFileSync } from "node:fs";
export const exec = {
  description: "run a command",
  inputSchema: {
    type: "object",
    properties: { command: { type: "string" }, paths: { type: "array", items: { type: "string" } } },
  },
  execute: (args) => { writeFileSync(${JSON.stringify(marker)}, JSON.stringify(args)); return "ran"; },
};
`,
    );
    writeFileSync(
      join(dir, "hookwise.yaml"),
      `models: { default: "scripted:./script.yaml" }
toolsets:
  sh: { kind: module, path: ./sh-tools.mjs }
runtime:
  policies:
    - { decision: deny, tool: sh.exec, when: ${JSON.stringify(when)}, reason: "only plain words" }
`,
    );
    writeFileSync(
      join(dir, "script.yaml"),
      `- tool_calls:\n    - { name: sh_exec, args: ${JSON.stringify(args)} }\n- text: done\n`,
    );
    const loaded = await loadConfig(join(dir, "hookwise.yaml"), { store: new MemoryStore() });
    try {
      const { result } = await runOn("run", await loaded.createAgent(), "go");
      return { ran: existsSync(marker), told: String(result.steps[0]!.toolResults[0]!.result) };
    } finally {
      await loaded.close();
    }
  }

  test("a pattern that backtracks exponentially runs in linear time: the deny applies at once", async () => {
    const started = performance.now();
    const outcome = await execWith('!args.command.matches("^(\\\\w+\\\\s?)*$")', `${"a".repeat(27)}!`);
    expect(outcome).toEqual({
      ran: false,
      told: 'tool "sh.exec" was denied by hook "policy": only plain words',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    expect((await execWith('!args.command.matches("^(\\\\w+\\\\s?)*$")', "ls -la")).ran).toBe(false);
    expect((await execWith('!args.command.matches("^(\\\\w+\\\\s?)*$")', "ls docs")).ran).toBe(true);
  });

  test.each([
    ["a pattern from the run's data", "!args.command.matches(args.pattern)", "must be a string literal"],
    ["a backreference", '!args.command.matches("^(a+)\\\\1$")', "cannot run in linear time"],
    ["a lookahead", '!args.command.matches("^(?=a)a+$")', "cannot run in linear time"],
  ])("%s is refused when the config loads", async (_what, when, message) => {
    await expect(execWith(when, "ls")).rejects.toThrow(message);
    expect(existsSync(join(dir, "ran.txt"))).toBe(false);
  });

  test("a comprehension inside another over the model's list stops at its step budget: the guard fails closed", async () => {
    // Deny a path given twice: for each path, the whole list again — 3,000 paths are 9 million
    // steps (about a minute of a blocked process); the budget stops it after one million.
    const twice = "args.paths.exists(p, args.paths.filter(q, q == p).size() > 1)";
    const many = { paths: Array.from({ length: 3000 }, (_, index) => `src/file-${index}.ts`) };
    const outcome = await execWith(twice, many);
    // The evaluation failed, so the deny applies (its reason is the policy's own).
    expect(outcome).toEqual({
      ran: false,
      told: 'tool "sh.exec" was denied by hook "policy": only plain words',
    });
    // Within the budget, the same guard decides as written.
    expect((await execWith(twice, { paths: ["a.ts", "b.ts", "a.ts"] })).ran).toBe(false);
    expect((await execWith(twice, { paths: ["a.ts", "b.ts"] })).ran).toBe(true);
  });
});

describe("a policy's `when`", () => {
  test("is compiled at the first call its tool pattern matches: one that does not compile throws there (the policy fails closed), not at load", () => {
    const entry = { decision: "deny", tool: "shell", when: "args.command.(" } as PolicyEntry;
    let built: ReturnType<typeof buildPolicies> = [];
    expect(() => {
      built = buildPolicies([entry]);
    }).not.toThrow();
    expect(() => built[0]!.when!({ command: "ls" })).toThrow();
  });
});
