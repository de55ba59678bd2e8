/**
 * Keeps docs/config.md true. Every fenced `yaml` and `json` block of the page is validated
 * with `validateConfigText` (what `hookwise validate` runs), following the convention the
 * page states at its top:
 *
 * - a top-level mapping (JSON object) is a complete config: no error, no warning;
 * - a top-level list is a list of hook entries, wrapped as `runtime: { hooks: … }` first;
 * - after `<!-- docs-test: validate-output -->` the block must make `hookwise validate`
 *   print exactly the `text` block that follows; after `<!-- docs-test: explain-output -->`,
 *   `hookwise explain`.
 *
 * The valid blocks must also pass the published JSON Schema (what an editor checks). And
 * the page must cover the code: every event and alias, every registered condition and
 * action with its fields and events, every hook field, the runtime / agent / model /
 * toolset / manifest fields, the providers of this build; `schema/hookwise.schema.json`
 * must be what `hookwise schema` prints today.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { explainCommand } from "../../src/cli/commands/explain-command.js";
import { validateCommand } from "../../src/cli/commands/validate-command.js";
import type { CliIO } from "../../src/cli/types.js";
import { ACTIONS, actionTypes } from "../../src/config/actions/index.js";
import { providerNames } from "../../src/config/build/build-models.js";
import { validateConfigText } from "../../src/config/check/validate-config.js";
import { CONDITIONS, conditionTypes } from "../../src/config/conditions/index.js";
import { configJsonSchema } from "../../src/config/schema/json-schema.js";
import {
  agentSchema,
  hookEntrySchema,
  manifestHookSchema,
  modelSchema,
  runtimeSchema,
  toolsetSchema,
} from "../../src/config/schema/schema.js";
import { serverSchema } from "../../src/config/schema/server-schema.js";
import { formatIssue } from "../../src/config/source/config-error.js";
import { EVENT_ALIASES, EVENT_NAMES } from "../../src/events/catalogue.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOC = readFileSync(join(ROOT, "docs/config.md"), "utf8");
const SCHEMA_FILE = join(ROOT, "schema/hookwise.schema.json");

// ---------------------------------------------------------------------------------------
// The page, cut into blocks and sections

interface Block {
  lang: string;
  /** 1-based line of the opening fence in docs/config.md. */
  line: number;
  text: string;
  /** The `docs-test:` marker right before the block, if any. */
  marker?: string;
  /** The section (## heading) it sits in. */
  section: string;
}

function readBlocks(markdown: string): Block[] {
  const lines = markdown.split("\n");
  const blocks: Block[] = [];
  let section = "";
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("## ")) section = line.slice(3).trim();
    const fence = /^```(\w+)\s*$/.exec(line);
    if (!fence) continue;
    const start = index;
    const body: string[] = [];
    for (index++; index < lines.length && lines[index] !== "```"; index++) body.push(lines[index]!);
    let previous = start - 1;
    while (previous >= 0 && lines[previous]!.trim() === "") previous--;
    const marker = /^<!--\s*docs-test:\s*([\w-]+)\s*-->$/.exec(lines[previous]?.trim() ?? "")?.[1];
    blocks.push({ lang: fence[1]!, line: start + 1, text: body.join("\n"), marker, section, ...{} });
  }
  return blocks;
}

/** The text of the `##` section named `title`, or of the `###`/`####` heading inside it. */
function sectionText(markdown: string, heading: string): string {
  const level = /^#+/.exec(heading)![0].length;
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return "";
  let end = start + 1;
  while (end < lines.length) {
    const match = /^(#+) /.exec(lines[end]!);
    if (match && match[1]!.length <= level) break;
    end++;
  }
  return lines.slice(start, end).join("\n");
}

const BLOCKS = readBlocks(DOC);
const CONFIG_BLOCKS = BLOCKS.filter((block) => block.lang === "yaml" || block.lang === "json");

/** A block as a complete config text: a top-level list of hook entries is wrapped. */
function asConfig(block: Block): { text: string; file: string } {
  if (block.lang === "json") return { text: block.text, file: "config.json" };
  if (!Array.isArray(parse(block.text))) return { text: block.text, file: "config.yaml" };
  const indented = block.text
    .split("\n")
    .map((line) => (line ? `    ${line}` : line))
    .join("\n");
  return { text: `runtime:\n  hooks:\n${indented}\n`, file: "config.yaml" };
}

/** The `text` block right after `block`: the output it must produce. */
function outputAfter(block: Block): string {
  const next = BLOCKS[BLOCKS.indexOf(block) + 1];
  if (next?.lang !== "text")
    throw new Error(`docs/config.md:${block.line}: a marked block needs a text block after it`);
  return next.text;
}

const folder = mkdtempSync(join(tmpdir(), "hookwise-docs-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs a CLI command on `text` written to a temp `config.yaml`; returns its lines, paths made relative. */
async function cli(
  text: string,
  command: (path: string, io: CliIO) => number | Promise<number>,
): Promise<string> {
  const path = join(folder, "config.yaml");
  writeFileSync(path, text);
  const lines: string[] = [];
  const printer = {
    line: (text: string) => void lines.push(text),
    write: (text: string) => void lines.push(text),
  };
  await command(path, { stdout: printer, stderr: printer, isTTY: false });
  return lines.join("\n").replaceAll(`${folder}/`, "");
}

// ---------------------------------------------------------------------------------------

describe("docs/config.md examples", () => {
  it("has examples to test (the extraction works)", () => {
    expect(CONFIG_BLOCKS.length).toBeGreaterThan(40);
    expect(CONFIG_BLOCKS.filter((block) => block.marker === "validate-output")).toHaveLength(3);
  });

  for (const block of CONFIG_BLOCKS) {
    const name = `docs/config.md:${block.line} (${block.section})`;
    if (block.marker === "validate-output") {
      it(`${name}: hookwise validate prints what the page shows`, async () => {
        expect(await cli(block.text, validateCommand)).toBe(outputAfter(block));
      });
      continue;
    }
    it(`${name} validates with no error and no warning`, () => {
      const { text, file } = asConfig(block);
      const { issues, validated } = validateConfigText(text, file);
      expect(issues.map(formatIssue)).toEqual([]);
      expect(validated).toBeDefined();
    });
    if (block.marker === "explain-output") {
      it(`${name}: hookwise explain prints what the page shows`, async () => {
        expect(await cli(block.text, (path, io) => explainCommand(path, io))).toBe(outputAfter(block));
      });
    }
  }

  it("every valid example passes the published JSON Schema (what an editor checks)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
    const failures = CONFIG_BLOCKS.filter((block) => block.marker !== "validate-output").flatMap((block) => {
      const { text } = asConfig(block);
      return validate(parse(text) ?? {}) ? [] : [`line ${block.line}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(failures).toEqual([]);
  });
});

describe("docs/config.md covers the code", () => {
  it("schema/hookwise.schema.json is what `hookwise schema` prints (regenerate: npx tsx src/cli/main.ts schema > schema/hookwise.schema.json)", () => {
    expect(JSON.parse(readFileSync(SCHEMA_FILE, "utf8"))).toEqual(configJsonSchema());
  });

  it("every event has a row with all its aliases", () => {
    const events = sectionText(DOC, "## Events");
    for (const event of EVENT_NAMES) {
      const row = events.split("\n").find((line) => line.startsWith(`| \`${event}\` |`));
      expect(row, event).toBeDefined();
      const aliases = Object.keys(EVENT_ALIASES).filter((alias) => EVENT_ALIASES[alias] === event);
      for (const alias of aliases) expect(row, `${event} alias ${alias}`).toContain(`\`${alias}\``);
    }
  });

  const fieldsOf = (schema: z.ZodType) =>
    Object.keys((z.toJSONSchema(schema, { io: "input" }) as { properties?: object }).properties ?? {}).filter(
      (key) => key !== "type",
    );

  for (const type of conditionTypes()) {
    it(`condition ${type}: a section with its fields, its events and an example`, () => {
      const module = CONDITIONS.get(type)!;
      const text = sectionText(DOC, `### \`${type}\``);
      expect(text, `a "### \`${type}\`" heading under Conditions`).not.toBe("");
      for (const field of fieldsOf(module.schema)) expect(text, `${type}.${field}`).toContain(`\`${field}\``);
      for (const event of module.events ?? []) expect(text, `${type} on ${event}`).toContain(`\`${event}\``);
      if (!module.events) expect(text).toMatch(/any\s+event/i);
      expect(text).toMatch(new RegExp(`\`\`\`yaml[\\s\\S]*type: ${type}\\b`));
    });
  }

  for (const type of actionTypes()) {
    it(`action ${type}: a section with its fields, its events and an example`, () => {
      const module = ACTIONS.get(type)!;
      const text = sectionText(DOC, `### \`${type}\``);
      expect(
        text,
        `a "### \`${type}\`" heading under Actions (move it out of "Actions not provided")`,
      ).not.toBe("");
      for (const field of fieldsOf(module.schema)) expect(text, `${type}.${field}`).toContain(`\`${field}\``);
      for (const alias of module.aliases ?? [])
        expect(text, `${type} alias ${alias}`).toContain(`\`${alias}\``);
      if (module.events === "any") expect(text, type).toMatch(/any\s+event/i);
      else for (const event of module.events) expect(text, `${type} on ${event}`).toContain(`\`${event}\``);
      expect(text).toMatch(new RegExp(`\`\`\`yaml[\\s\\S]*type: ${type}\\b`));
      const row = sectionText(DOC, "## Actions")
        .split("\n")
        .find((line) => line.startsWith(`| \`${type}\``));
      expect(row, `${type} in the actions table`).toBeDefined();
    });
  }

  it('"Actions not provided" lists only actions this build does not have', () => {
    const coming = sectionText(DOC, "### Actions not provided");
    const listed = [...coming.matchAll(/^- `(\w+)`/gm)].map((match) => match[1]!);
    const registered = listed.filter((type) => ACTIONS.has(type));
    expect(registered, "registered now: document them as sections under Actions").toEqual([]);
  });

  for (const field of Object.keys(hookEntrySchema().shape)) {
    it(`hook field ${field}: a row, a heading and an example`, () => {
      const fields = sectionText(DOC, "### Hook fields");
      expect(fields).toContain(`| \`${field}\` |`);
      const text = sectionText(DOC, `#### \`${field}\``);
      expect(text, `a "#### \`${field}\`" heading`).not.toBe("");
      expect(text).toMatch(new RegExp(`\`\`\`yaml[\\s\\S]*\\b${field}:`));
    });
  }

  it("documents every runtime, agent, model, toolset and manifest field", () => {
    const sections: [string, string[]][] = [
      ["## Runtime", fieldsOf(runtimeSchema())],
      ["## Server", fieldsOf(serverSchema())],
      ["## Agents", fieldsOf(agentSchema())],
      ["## Models", fieldsOf(modelSchema().options[1])],
      [
        "## Toolsets",
        toolsetSchema().options.flatMap((option) => [option.shape.kind.value, ...fieldsOf(option)]),
      ],
      ["## `hooks` manifests", [...fieldsOf(manifestHookSchema()), "kind"]],
    ];
    const missing = sections.flatMap(([heading, fields]) => {
      const text = sectionText(DOC, heading);
      return fields.filter((field) => !text.includes(`\`${field}\``)).map((field) => `${heading}: ${field}`);
    });
    expect(missing).toEqual([]);
  });

  it("lists the model providers of this build", () => {
    const line = /^Providers in this build: (.*)$/m.exec(DOC)?.[1] ?? "";
    const listed = [...line.matchAll(/`([\w-]+)`/g)].map((match) => match[1]!);
    expect(listed.sort()).toEqual(providerNames().sort());
  });
});

describe("bugs found while documenting, now fixed (each test failed before its fix)", () => {
  // Was a bug (fixed; src/config/check/validate-hooks.ts, checkAction, ~line 96): the chain's rule "a chain
  // cannot mix decide actions with transform actions" lives in chain.ts `kind()`, which
  // only `compileAction` calls. So `hookwise validate` says "valid" and the config fails
  // later, when an agent is built, with a plain Error (no file, line or column; the CLI
  // prints it as an internal error).
  it("hookwise validate reports a chain that mixes a gate with transform_params", () => {
    const { issues } = validateConfigText(
      [
        "runtime:",
        "  hooks:",
        "    - id: mixed",
        "      on: tool_start",
        "      action:",
        "        type: chain",
        "        actions:",
        "          - { type: transform_params, transformation: { remove: [force] } }",
        "          - { type: gate, reason: no }",
        "",
      ].join("\n"),
      "config.yaml",
    );
    expect(issues.filter((issue) => issue.severity === "error").map((issue) => issue.path.join("."))).toEqual(
      ["runtime.hooks.0.action"],
    );
  });

  // Was a bug (fixed; src/config/check/validate-hooks.ts, checkAction): the validator checks an action's
  // `events` but never the hook kind it compiles to against the event's kinds
  // (catalogue.ts EVENT_KINDS). `shell` with `on_error: inject` is a transform on "any"
  // event, so on an inspect-only event (model_response, session_end, model_turn_finished,
  // agent_complete, *_delta) `hookwise validate` says "valid" and building an agent throws
  // a TypeError ("model_response does not take transform hooks") with no file or line.
  it("hookwise validate reports a transform action on an inspect-only event", () => {
    const { issues } = validateConfigText(
      [
        "runtime:",
        "  hooks:",
        "    - id: check-response",
        "      on: model_response",
        '      action: { type: shell, command: "true", on_error: inject }',
        "",
      ].join("\n"),
      "config.yaml",
    );
    expect(issues.filter((issue) => issue.severity === "error")).toHaveLength(1);
  });

  // Was a bug (fixed; src/config/check/validate-config.ts, validateConfigText: `validateHooks` is called once
  // for runtime.hooks and once for execution.hooks, each with its own id set): the same id
  // in both app-wide lists is not reported, and the two hooks share their limit keys
  // (compile-hook.ts `hook:app:<id>:…`), so one's max_fires is spent by the other.
  it("the same id in runtime.hooks and execution.hooks is a duplicate", () => {
    const { issues } = validateConfigText(
      [
        "runtime:",
        "  hooks:",
        "    - { id: audit, action: { type: log, message: a } }",
        "execution:",
        "  hooks:",
        "    - { id: audit, action: { type: log, message: b } }",
        "",
      ].join("\n"),
      "config.yaml",
    );
    expect(issues.map((issue) => issue.message)).toEqual([
      expect.stringContaining('duplicate hook id "audit"'),
    ]);
  });

  // Was a bug (fixed; src/config/check/validate-hooks.ts, the duplicate-id message, ~line 147): the first
  // occurrence is written "runtime.hooks.1", not in the path notation every other message
  // uses ("runtime.hooks[1]", formatPath).
  it("a duplicate hook id names the first one in the usual path notation", () => {
    const { issues } = validateConfigText(
      [
        "runtime:",
        "  hooks:",
        "    - { id: twice, action: { type: log, message: a } }",
        "    - { id: twice, action: { type: log, message: b } }",
        "",
      ].join("\n"),
      "config.yaml",
    );
    expect(issues.map((issue) => issue.message)).toEqual([
      'duplicate hook id "twice" in this scope (first at runtime.hooks[0])',
    ]);
  });
});
