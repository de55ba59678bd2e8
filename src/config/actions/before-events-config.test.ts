/**
 * Config hooks on events that happen before their operation, end to end on both surfaces:
 * an observer on `tool_start` runs before the tool (a backup sees the old content),
 * `content_contains` on `tool_start` sees the call's own arguments, and `inject_message`
 * on `turn_end` is seen on the session's next turn.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import type { ScriptedModel } from "../../models/scripted-model.js";
import { MemoryStore } from "../../state/memory-store.js";
import { recordingLogger } from "../build/test-evaluation.js";
import { loadConfig } from "../load-config.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-before-"));
  mkdirSync(join(dir, "workspace"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, "hookwise.yaml");
}

const WRITE_NOTES = `
- tool_calls: [{ name: fs_write_file, args: { path: notes.txt, content: "new deploy plan" } }]
- text: done
`;

function config(hooks: string, script = WRITE_NOTES): string {
  return write({
    "hookwise.yaml": `
models: { default: "scripted:./script.yaml" }
toolsets:
  fs: { kind: builtin, module: filesystem, root: ./workspace }
runtime:
  hooks:
${hooks}`,
    "script.yaml": script,
  });
}

describe("an observer on tool_start runs before the tool executes", () => {
  it.each(SURFACES)("%s: shell cp backs up the old content before fs.write_file", async (surface) => {
    writeFileSync(join(dir, "workspace", "notes.txt"), "old notes");
    const path = config(`
    - id: backup
      on: tool_start
      condition: { type: tool_name, match: "fs.write_file" }
      action: { type: shell, command: "cp notes.txt notes.bak", cwd: ./workspace }
`);
    const loaded = await loadConfig(path, { store: new MemoryStore(), logger: recordingLogger() });
    try {
      const { result } = await runOn(surface, await loaded.createAgent(), "write");
      expect(result.outcome).toBe("completed");
      expect(readFileSync(join(dir, "workspace", "notes.bak"), "utf8")).toBe("old notes");
      expect(readFileSync(join(dir, "workspace", "notes.txt"), "utf8")).toBe("new deploy plan");
    } finally {
      await loaded.close();
    }
  });

  it.each(SURFACES)("%s: a log on tool_start is written before the tool's result exists", async (surface) => {
    const logger = recordingLogger();
    let seenWhenLogged: boolean | undefined;
    const info = logger.info.bind(logger);
    logger.info = (message: string, data?: unknown) => {
      if (message.startsWith("writing")) seenWhenLogged = existsNotes();
      info(message, data as never);
    };
    const path = config(`
    - id: announce
      on: pre_tool_use
      action: { type: log, message: "writing {{tool.params.path}}" }
`);
    const loaded = await loadConfig(path, { store: new MemoryStore(), logger });
    try {
      await runOn(surface, await loaded.createAgent(), "write");
      expect(seenWhenLogged).toBe(false);
      expect(existsNotes()).toBe(true);
    } finally {
      await loaded.close();
    }
  });
});

function existsNotes(): boolean {
  try {
    readFileSync(join(dir, "workspace", "notes.txt"));
    return true;
  } catch {
    return false;
  }
}

describe("content_contains on tool_start sees the current call's arguments", () => {
  it.each(SURFACES)("%s: a gate on a keyword in the arguments blocks the write", async (surface) => {
    const path = config(`
    - id: no-deploy-notes
      on: tool_start
      condition: { type: content_contains, keyword: DEPLOY }
      action: { type: gate, reason: "no deploy plans in notes" }
`);
    const loaded = await loadConfig(path, { store: new MemoryStore(), logger: recordingLogger() });
    try {
      const { result } = await runOn(surface, await loaded.createAgent(), "write something");
      expect(existsNotes()).toBe(false);
      expect(String(result.steps[0]!.toolResults[0]!.result)).toContain("no deploy plans in notes");
    } finally {
      await loaded.close();
    }
  });
});

describe("inject_message on turn_end", () => {
  it.each(SURFACES)("%s: is valid, and the session's next turn sees it", async (surface) => {
    const path = config(
      `
    - id: reminder
      on: turn_end
      action: { type: inject_message, content: "Reminder: answer in French." }
`,
      "- text: one\n- text: two\n",
    );
    const store = new MemoryStore();
    const loaded = await loadConfig(path, { store, logger: recordingLogger() });
    try {
      const agent = await loaded.createAgent();
      await runOn(surface, agent, "first", { sessionId: "s" });
      const { result } = await runOn(surface, agent, "second", { sessionId: "s" });
      expect(result.text).toBe("two");
      const model = agent.runtime.model as ScriptedModel;
      expect(JSON.stringify(model.calls[0]!.prompt)).not.toContain("French");
      expect(JSON.stringify(model.calls[1]!.prompt)).toContain("Reminder: answer in French.");
      const stored = await store.loadSession("s");
      expect(JSON.stringify(stored!.messages)).toContain("Reminder: answer in French.");
    } finally {
      await loaded.close();
    }
  });
});
