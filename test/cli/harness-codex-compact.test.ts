/**
 * Codex CLI's PreCompact takes one answer only: exit 0 with `continue: false`. Any other exit
 * code (2 included) and any other field (`decision: "block"` included) is the hook's failure to
 * it, and it compacts. So every way `hookwise hook` fails closed on a PreCompact answers
 * `continue: false`, with the reason: a config that does not load, a store it cannot reach, a
 * hook that fails, an event it cannot read. Only stdin that is not even JSON cannot be told
 * from another event, and is refused as every event is (exit 2).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callHook, type HookCall } from "../support/hook-call.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-codex-compact-"));
  dirs.push(dir);
  writeFileSync(join(dir, "hookwise.yaml"), config);
  return join(dir, "hookwise.yaml");
}

function hook(config: string, input: string, timeout = 20): Promise<HookCall> {
  return callHook(config, { harness: "codex", timeout }, input);
}

const compact = {
  session_id: "s1",
  turn_id: "t1",
  transcript_path: null,
  cwd: "/tmp",
  hook_event_name: "PreCompact",
  model: "gpt-5",
  trigger: "auto",
};

/** What Codex takes from a PreCompact answer: exit 0, and no field but the universal ones. */
function expectStop(answer: { code: number; stdout: string }, reason: string): void {
  expect(answer.code).toBe(0);
  const json = JSON.parse(answer.stdout);
  const universal = new Set(["continue", "stopReason", "suppressOutput", "systemMessage"]);
  expect(Object.keys(json).filter((key) => !universal.has(key))).toEqual([]);
  expect(json.continue).toBe(false);
  expect(json.stopReason).toContain(reason);
}

describe("Codex CLI's PreCompact: every fail-closed answer is continue: false", () => {
  it("a pre_compact hook that fails", async () => {
    const config = project("harness: codex\nclaude_hooks: guards.json\nclaude_hooks_failure: closed\n");
    const guards = { hooks: { PreCompact: [{ hooks: [{ type: "command", command: "exit 3" }] }] } };
    writeFileSync(join(config, "..", "guards.json"), JSON.stringify(guards));
    expectStop(await hook(config, JSON.stringify(compact)), "(failed closed)");
  });

  it("a config that does not load", async () => {
    const config = project(
      "harness: codex\nruntime:\n  hooks:\n    - { id: x, on: pre_compactt, action: { type: log } }\n",
    );
    expectStop(await hook(config, JSON.stringify(compact)), "the config does not load");
  });

  it("a store it cannot reach", async () => {
    const config = project(`harness: codex
runtime:
  state: { kind: redis, url: "redis://127.0.0.1:1/0" }
  hooks:
    - { id: noted, on: pre_compact, action: { type: log, message: "compacting" } }
`);
    expectStop(await hook(config, JSON.stringify(compact)), "Redis");
  });

  it("no decision within --timeout", async () => {
    const config = project("harness: codex\nclaude_hooks: guards.json\n");
    const guards = { hooks: { PreCompact: [{ hooks: [{ type: "command", command: "sleep 5" }] }] } };
    writeFileSync(join(config, "..", "guards.json"), JSON.stringify(guards));
    expectStop(await hook(config, JSON.stringify(compact), 1), "no decision within 1 s");
  });

  it("a PreCompact event it cannot read (a field missing)", async () => {
    const config = project("harness: codex\n");
    const { session_id: _missing, ...unread } = compact;
    expectStop(await hook(config, JSON.stringify(unread)), "session_id");
  });

  it("stdin that is not JSON is refused with exit 2, as for every event: which event it was cannot be told", async () => {
    const answer = await hook(project("harness: codex\n"), "{not json");
    expect(answer.code).toBe(2);
    expect(answer.stdout).toBe("");
    expect(answer.stderr).toContain("not JSON");
  });
});
