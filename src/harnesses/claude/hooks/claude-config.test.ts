/**
 * `claude_hooks` in a config: the settings' hooks run app-wide (once per call, sub-agents
 * included), see the toolsets' tools by their Claude Code names, and `Notification`
 * handlers hear the `notify` action — on run() and stream().
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../../test/support/surfaces.js";
import { loadConfig } from "../../../config/load-config.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-claude-config-"));
  mkdirSync(join(dir, ".claude"));
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes", "todo.md"), "- ship\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function lines(name: string): Record<string, unknown>[] {
  try {
    return readFileSync(join(dir, `${name}.jsonl`), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

const save = (name: string) => ({
  type: "command",
  command: `input=$(cat); printf '%s\\n' "$input" >> "$CLAUDE_PROJECT_DIR/${name}.jsonl"`,
});

function setup(): string {
  writeFileSync(
    join(dir, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        PreToolUse: [{ matcher: "Read", hooks: [save("read")] }],
        Notification: [{ matcher: "notify", hooks: [save("notification")] }],
      },
    }),
  );
  writeFileSync(
    join(dir, "script.yaml"),
    ["- tool_calls:", "  - { name: agents_helper, args: { task: read the notes } }", "- text: done"].join(
      "\n",
    ),
  );
  writeFileSync(
    join(dir, "helper.yaml"),
    ["- tool_calls:", "  - { name: fs_read_file, args: { path: notes/todo.md } }", "- text: read it"].join(
      "\n",
    ),
  );
  const config = join(dir, "hookwise.yaml");
  writeFileSync(
    config,
    [
      "models:",
      "  default: scripted:./script.yaml",
      "  helper: scripted:./helper.yaml",
      "toolsets:",
      "  fs: { kind: builtin, module: filesystem, root: . }",
      "claude_hooks: .claude/settings.json",
      "runtime:",
      "  hooks:",
      "    - id: announce",
      "      on: tool_start",
      "      condition: { type: tool_name, match: fs.read_file }",
      '      action: { type: notify, title: "Reading", message: "{{tool.params.path}}" }',
      "agents:",
      "  - { id: main, tools: [agents.helper] }",
      "  - { id: helper, role: specialist, model: helper, tools: [fs.*] }",
    ].join("\n"),
  );
  return config;
}

describe("claude_hooks in a config", () => {
  it.each(SURFACES)(
    "%s: a sub-agent's Read fires the hook once, as Read with an absolute file_path; notify reaches Notification",
    async (surface) => {
      const loaded = await loadConfig(setup(), { logger: quiet });
      try {
        const agent = await loaded.createAgent("main");
        const { result } = await runOn(surface, agent, "go");
        expect(result.outcome).toBe("completed");
      } finally {
        await loaded.close();
      }
      const reads = lines("read");
      expect(reads).toHaveLength(1);
      expect(reads[0]).toMatchObject({
        hook_event_name: "PreToolUse",
        tool_name: "Read",
        tool_input: { file_path: join(dir, "notes", "todo.md") },
        cwd: dir,
        agent_type: "helper",
      });
      // close() waited for the Notification handler.
      expect(lines("notification")).toEqual([
        expect.objectContaining({ notification_type: "notify", title: "Reading", message: "notes/todo.md" }),
      ]);
    },
  );
});
