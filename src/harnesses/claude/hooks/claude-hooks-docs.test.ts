/**
 * docs/claude-hooks.md stays true: its settings file is the fixture the tests run, its
 * config validates in that project, its `explain` lines are the real ones, its event table
 * covers every event hookwise runs, its quoted messages are what the code says.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { explainCommand } from "../../../cli/commands/explain-command.js";
import { validateConfigText } from "../../../config/check/validate-config.js";
import { CLAUDE_EVENTS } from "./events/index.js";

const ROOT = join(import.meta.dirname, "../../../..");
const DOC = readFileSync(join(ROOT, "docs/claude-hooks.md"), "utf8");
const FIXTURE = join(ROOT, "test/fixtures/claude-hooks/project");

function blocks(lang: string): string[] {
  const fence = "```";
  return [...DOC.matchAll(new RegExp(`${fence}${lang}\\n([\\s\\S]*?)${fence}`, "g"))].map(
    (match) => match[1]!,
  );
}

const base = mkdtempSync(join(tmpdir(), "hookwise-claude-docs-"));
const project = join(base, "project");
cpSync(FIXTURE, project, { recursive: true });
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("docs/claude-hooks.md", () => {
  it("shows the fixture's settings file, as is", () => {
    const settings = blocks("json")[0]!;
    expect(JSON.parse(settings)).toEqual(
      JSON.parse(readFileSync(join(FIXTURE, ".claude/settings.json"), "utf8")),
    );
  });

  it("its config validates in that project, with no warning", () => {
    const config = blocks("yaml")[0]!;
    const file = join(project, "hookwise.yaml");
    writeFileSync(file, config);
    expect(validateConfigText(config, file).issues).toEqual([]);
  });

  it("its explain lines are what explain prints", () => {
    const printed: string[] = [];
    const line = (text: string) => printed.push(...text.split("\n"));
    explainCommand(join(project, "hookwise.yaml"), {
      stdout: { line, write: line },
      stderr: { line() {}, write() {} },
      isTTY: false,
    });
    const shown = blocks("text")[0]!
      .split("\n")
      .filter((text) => text.trim() && !text.includes("…"));
    for (const text of shown) expect(printed).toContain(text);
  });

  it("its event table has a row for every event hookwise runs, with the event it maps to", () => {
    for (const event of CLAUDE_EVENTS.values()) {
      const row = DOC.split("\n").find((text) => text.startsWith(`| \`${event.name}\` |`));
      expect(row, event.name).toBeDefined();
      if (event.name !== "Notification") expect(row).toContain(`\`${event.event}\``);
    }
  });

  it("quotes the validate warning as validate prints it", () => {
    const warning = blocks("text").find((text) => text.includes("TeammateIdle"))!;
    const [head] = warning.split("…");
    expect(head).toContain(
      'unsupported Claude Code event "TeammateIdle": its hooks do not run; expected one of PreToolUse, PostToolUse, ',
    );
    const local = join(project, ".claude", "settings.local.json");
    writeFileSync(local, JSON.stringify({ hooks: { TeammateIdle: [{ hooks: [] }] } }, null, 2));
    const config = `claude_hooks: [.claude/settings.json, .claude/settings.local.json]\nmodels: { default: "scripted:./s.yaml" }`;
    const issue = validateConfigText(config, join(project, "x.yaml")).issues.find(
      (item) => item.path[1] === "TeammateIdle",
    )!;
    expect(
      `.claude/settings.local.json:${issue.line}:${issue.column}: warning: hooks.TeammateIdle: ${issue.message}`,
    ).toBe(head!.split("; expected")[0]);
    rmSync(local);
  });
});
