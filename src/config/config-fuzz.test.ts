/**
 * Fuzzing configs: mutated config texts — anchors and aliases (unresolved, nested, merged,
 * bombs), wrong types, missing and unknown keys, truncation — never make loading throw
 * anything but a clean config error (file:line:col, no stack); and a config `validate`
 * accepts is one `run` accepts (its agent is built). A bounded budget here;
 * `npm run fuzz` runs the same properties over 100,000+ inputs (HOOKWISE_FUZZ_RUNS).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { LanguageServers } from "../lsp/language-servers.js";
import { lspToolset } from "../lsp/lsp-toolset.js";
import { MemoryStore } from "../state/memory-store.js";
import { checkReferences, toolCatalogue } from "./check/check-references.js";
import { checkToolsets } from "./check/check-toolsets.js";
import { validateConfigText } from "./check/validate-config.js";
import { loadConfig } from "./load-config.js";
import { ConfigError } from "./source/config-error.js";
import { positionOf } from "./source/source-map.js";

const RUNS = Number(process.env.HOOKWISE_FUZZ_RUNS ?? 300);
const dir = mkdtempSync(join(tmpdir(), "hookwise-fuzz-"));
writeFileSync(join(dir, "script.yaml"), '- text: "ok"\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A config `run` accepts: the property below always checks at least this one end to end. */
const ACCEPTED_EXAMPLE = [
  "models: { default: scripted:./script.yaml }",
  "runtime:",
  "  hooks:",
  "    - { id: audit, on: tool_call, action: { type: log, message: called } }",
  "agents:",
  "  - { id: main, instructions: Be brief. }",
  "",
].join("\n");

const word = fc.constantFrom(
  "fs",
  "fs.read",
  "fs.*",
  "*",
  "mem.recall",
  "main",
  "x",
  "tool_start",
  "turn_end",
  "gate",
  "log",
);
const scalar = fc.oneof(
  word,
  fc.integer({ min: -3, max: 5 }),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 6 }),
);

const hook = fc.record(
  {
    id: fc.constantFrom("a", "b", "c"),
    on: fc.constantFrom("tool_start", "tool_end", "turn_end", "run_start", "tool_strat"),
    condition: fc.oneof(
      fc.constant({ type: "always" }),
      fc.record({ type: fc.constant("tool_name"), match: word }),
      fc.record({ type: fc.constant("expression"), expr: fc.constantFrom("turn > 1", "args.a == 1", "(((") }),
    ),
    action: fc.oneof(
      fc.record({ type: fc.constant("log"), message: word }),
      fc.record({ type: fc.constant("gate"), reason: word }),
      fc.record({ type: fc.constant("notify"), title: word, message: word }),
      fc.record({ type: fc.constant("module_action"), module: word, action: word }),
      fc.record({ type: fc.constant("pipe"), to: word }),
    ),
    max_fires: scalar,
  },
  { requiredKeys: ["id", "action"] },
);

const config = fc.record(
  {
    models: fc.oneof(
      fc.constant({ default: "scripted:./script.yaml" }),
      fc.dictionary(word, scalar, { maxKeys: 2 }),
    ),
    toolsets: fc.oneof(
      fc.constant({
        fs: { kind: "builtin", module: "filesystem" },
        mem: { kind: "builtin", module: "memory" },
      }),
      fc.dictionary(word, fc.oneof(scalar, fc.record({ kind: word, module: word })), { maxKeys: 2 }),
    ),
    runtime: fc.record(
      {
        hooks: fc.array(hook, { maxLength: 3 }),
        policies: fc.array(
          fc.record(
            { decision: fc.constantFrom("deny", "allow", "ask_user", "block"), tool: word },
            { requiredKeys: ["decision"] },
          ),
          { maxLength: 3 },
        ),
        max_steps: scalar,
      },
      { requiredKeys: [] },
    ),
    agents: fc.array(
      fc.record(
        {
          id: word,
          model: fc.constantFrom("default", "nope", "scripted:./script.yaml"),
          tools: fc.array(word, { maxLength: 2 }),
          role: fc.constantFrom("specialist", "main"),
        },
        { requiredKeys: ["id"] },
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
);

/** Text mutations a YAML file may carry: anchors, aliases (some without anchor), merges, bombs, cuts. */
const mutation = fc.oneof(
  fc.constant((text: string) => text),
  fc.nat().map((at) => (text: string) => {
    const lines = text.split("\n");
    const index = at % Math.max(1, lines.length);
    lines[index] = lines[index]!.replace(/: (\S)/, ": &x $1");
    return lines.join("\n");
  }),
  fc
    .tuple(fc.nat(), fc.constantFrom("*x", "*y", "[*x, *x, *x]", "{ <<: *x }", "<<"))
    .map(([at, alias]) => (text: string) => {
      const lines = text.split("\n");
      const index = at % Math.max(1, lines.length);
      lines[index] = lines[index]!.replace(/: .*$/, `: ${alias}`);
      return lines.join("\n");
    }),
  fc.constant(
    (text: string) =>
      `${text}\nb0: &b0 [1, 1, 1, 1, 1, 1, 1, 1, 1]\n${Array.from({ length: 6 }, (_, i) => `b${i + 1}: &b${i + 1} [${Array(9).fill(`*b${i}`).join(", ")}]`).join("\n")}\n`,
  ),
  fc.nat().map((at) => (text: string) => text.slice(0, at % (text.length + 1))),
  fc
    .tuple(
      fc.nat(),
      fc.constantFrom("\t", "- ", ": ", "{", "]", "&", "*", "!!binary x", "? ", "%YAML 1.2\n---\n"),
    )
    .map(([at, junk]) => (text: string) => {
      const index = at % (text.length + 1);
      return text.slice(0, index) + junk + text.slice(index);
    }),
);

const configText = fc
  .tuple(config, fc.array(mutation, { maxLength: 3 }))
  .map(([value, mutations]) => mutations.reduce((text, mutate) => mutate(text), stringify(value)));

function expectCleanIssues(issues: readonly { line: number; column: number; message: string }[]) {
  for (const issue of issues) {
    expect(Number.isInteger(issue.line) && issue.line >= 1).toBe(true);
    expect(Number.isInteger(issue.column) && issue.column >= 1).toBe(true);
    expect(issue.message).not.toMatch(/\n\s+at |internal error/);
  }
}

describe("fuzzed configs", () => {
  it(`loading never throws, every problem is a clean issue (${RUNS} inputs)`, () => {
    fc.assert(
      fc.property(configText, (text) => {
        const result = validateConfigText(text, "fuzz.yaml");
        expectCleanIssues(result.issues);
        if (result.validated) expect(result.issues.every((issue) => issue.severity === "warning")).toBe(true);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it("validate-valid ⇒ run accepts (the agent is built)", async () => {
    const file = join(dir, "hookwise.yaml");
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          config.map((value) => stringify(value)),
          configText,
        ),
        async (text) => {
          const { validated, issues, source } = validateConfigText(text, file);
          expectCleanIssues(issues);
          if (!validated) return;
          const configSource = { file, positionOf: (at: (string | number)[]) => positionOf(source, at) };
          const checked = await checkToolsets(validated.config, dir, configSource);
          const lsp = lspToolset(new LanguageServers({ root: dir })).tools;
          const refs = checkReferences(
            validated.config,
            dir,
            configSource,
            toolCatalogue(validated.config, checked.tools, checked.pending, lsp),
          );
          if ([...checked.issues, ...refs].some((issue) => issue.severity === "error")) return;
          accepted++;
          writeFileSync(file, text);
          const loaded = await loadConfig(file, { store: new MemoryStore() });
          try {
            for (const id of loaded.agentIds) {
              try {
                await loaded.createAgent(id);
              } catch (error) {
                // A config error found only when building would be a validate gap.
                if (ConfigError.isInstance(error))
                  throw new Error(`validate accepted what run refused:\n${text}\n${error.message}`);
                throw error;
              }
            }
          } finally {
            await loaded.close();
          }
        },
      ),
      // Random configs are valid too rarely for every seed to reach `run`; this one always does.
      { numRuns: Math.max(100, Math.round(RUNS / 20)), examples: [[ACCEPTED_EXAMPLE]] },
    );
    expect(accepted).toBeGreaterThan(0);
  }, 600_000);
});
