/** `hookwise history`: what compaction removed stays visible (in-process CLI, SQLite beside a temp config). */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli } from "../../../test/support/cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-history-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `models:
  default: scripted:./script.yaml
runtime:
  hooks:
    - id: keep-two
      on: turn_start
      action: { type: compact_context, strategy: truncate, keep_recent: 2 }
`,
  );
  return join(dir, "hookwise.yaml");
}

describe("hookwise history", () => {
  it("shows the transcript and, oldest first, what compaction archived", async () => {
    const config = project();
    // Each `run` is a fresh load; the scripted model goes on where the session left it.
    const prompts = ["one", "two", "three"];
    writeFileSync(
      join(config, "..", "script.yaml"),
      prompts.map((prompt) => `- text: answer to ${prompt}\n`).join(""),
    );
    for (const prompt of prompts) {
      const out = await cli(["run", config, "--session", "s1", "--prompt", prompt, "--json"]);
      expect(out.code).toBe(0);
    }
    const out = await cli(["history", config, "--session", "s1"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      [
        "session s1 · 5 messages · 2 archived by compaction",
        "archived (removed from the context by compaction, oldest first):",
        "  user: one",
        "  assistant: answer to one",
        "transcript:",
        "  system: [2 earlier messages were removed to save context.]",
        "  user: two",
        "  assistant: answer to two",
        "  user: three",
        "  assistant: answer to three",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await cli(["history", config, "--session", "s1", "--json"])).stdout);
    expect(json.archived).toHaveLength(2);
  });

  it("an unknown session is a usage error (exit 2, as trace and replay)", async () => {
    const out = await cli(["history", project(), "--session", "nope"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('no session "nope"');
  });
});
