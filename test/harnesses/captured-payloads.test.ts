/**
 * The hook payloads the real harnesses sent (test/fixtures/harnesses/: captured from Claude
 * Code, Codex CLI and Gemini CLI, Cursor's from its documentation) read by hookwise's harness
 * protocols as the events they are, and a shell call in each harness's real shape decided by a
 * config's policy: a forbidden command is denied in the harness's own format, the captured
 * one is not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HARNESSES } from "../../src/harnesses/protocols.js";
import type { HarnessEventKind, HarnessName } from "../../src/harnesses/types.js";
import { callHook } from "../support/hook-call.js";

const fixtures = new URL("../fixtures/harnesses/", import.meta.url);
const read = (harness: HarnessName, file: string) =>
  JSON.parse(readFileSync(new URL(`${harness}/${file}`, fixtures), "utf8")) as Record<string, unknown>;

/** Each captured payload of an event hookwise answers, and the kind it reads it as. */
const KINDS: Record<HarnessName, Record<string, HarnessEventKind>> = {
  claude: {
    "PreToolUse.json": "tool_call",
    "PreToolUse.Agent.json": "tool_call",
    "PostToolUse.json": "tool_result",
    "PostToolUseFailure.json": "tool_error",
    "PermissionRequest.json": "approval_request",
    "UserPromptSubmit.json": "run_start",
    "Stop.json": "run_end",
    "SubagentStop.json": "run_end",
    "SessionStart.json": "session_start",
    "SessionEnd.json": "session_end",
    "PreCompact.json": "pre_compact",
  },
  codex: {
    "PreToolUse.json": "tool_call",
    "PreToolUse.spawn_agent.json": "tool_call",
    "PostToolUse.json": "tool_result",
    "PostToolUse.spawn_agent.json": "tool_result",
    "PermissionRequest.json": "approval_request",
    "UserPromptSubmit.json": "run_start",
    "UserPromptSubmit.subagent.json": "run_start",
    "Stop.json": "run_end",
    "SessionStart.json": "session_start",
    "SessionEnd.json": "session_end",
  },
  gemini: {
    "BeforeTool.json": "tool_call",
    "AfterTool.json": "tool_result",
    "BeforeAgent.json": "run_start",
    "AfterAgent.json": "run_end",
    "BeforeModel.json": "model_request",
    "AfterModel.json": "model_response",
    "AfterModel.text.json": "model_response",
    "PreCompress.json": "pre_compact",
    "SessionStart.json": "session_start",
    "SessionEnd.json": "session_end",
  },
  cursor: {
    "preToolUse.json": "tool_call",
    "beforeShellExecution.json": "tool_call",
    "beforeReadFile.json": "tool_call",
    "beforeMCPExecution.json": "tool_call",
    "postToolUse.json": "tool_result",
    "afterShellExecution.json": "tool_result",
    "beforeSubmitPrompt.json": "run_start",
    "stop.json": "run_end",
    "sessionStart.json": "session_start",
    "sessionEnd.json": "session_end",
  },
};

/** The payload of a shell call in each harness's shape, and where its command is. */
const SHELL_CALLS: ReadonlyArray<
  readonly [HarnessName, string, (payload: Record<string, unknown>, command: string) => void]
> = [
  [
    "claude",
    "PreToolUse.json",
    (payload, command) => Object.assign(payload.tool_input as object, { command }),
  ],
  [
    "codex",
    "PreToolUse.json",
    (payload, command) => Object.assign(payload.tool_input as object, { command }),
  ],
  [
    "gemini",
    "BeforeTool.json",
    (payload, command) => Object.assign(payload.tool_input as object, { command }),
  ],
  [
    "cursor",
    "preToolUse.json",
    (payload, command) => Object.assign(payload.tool_input as object, { command }),
  ],
  ["cursor", "beforeShellExecution.json", (payload, command) => Object.assign(payload, { command })],
];

const reason = "hookwise-policy: commands containing forbidden are not allowed";
const folder = mkdtempSync(join(tmpdir(), "hookwise-captured-"));
const config = join(folder, "hookwise.yaml");
writeFileSync(
  config,
  `harness: [claude, codex, gemini, cursor]
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("forbidden")', reason: "${reason}" }
`,
);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function answer(harness: HarnessName, payload: unknown) {
  const { code, stdout, stderr } = await callHook(config, { harness }, payload);
  return { code, stdout, text: `${stdout}${stderr}` };
}

/** Whether an answer denies, in the harness's own terms (as verified against the real binaries). */
function denies(harness: HarnessName, result: { code: number; stdout: string }): boolean {
  if (result.code === 2) return true;
  const json = result.stdout.trim() ? JSON.parse(result.stdout) : {};
  if (harness === "gemini") return json.decision === "deny" || json.decision === "block";
  if (harness === "cursor") return json.permission === "deny";
  return json.hookSpecificOutput?.permissionDecision === "deny" || json.decision === "block";
}

describe("captured harness payloads", () => {
  for (const [harness, files] of Object.entries(KINDS) as [HarnessName, Record<string, HarnessEventKind>][]) {
    for (const [file, kind] of Object.entries(files)) {
      it(`${harness} ${file} reads as ${kind}`, () => {
        const payload = read(harness, file);
        const event = HARNESSES[harness].parse(payload);
        expect(event.kind).toBe(kind);
        expect(event.name).toBe(payload.hook_event_name);
        if (kind.startsWith("tool_") || kind === "approval_request") {
          expect(event.tool?.name).toBe(payload.tool_name ?? event.tool?.name);
        }
      });
    }
  }

  for (const [harness, file, setCommand] of SHELL_CALLS) {
    it(`${harness} ${file}: a forbidden command is denied in ${harness}'s format, the captured one is not`, async () => {
      const allowed = await answer(harness, read(harness, file));
      expect(denies(harness, allowed), allowed.text).toBe(false);
      const payload = read(harness, file);
      setCommand(payload, "echo forbidden > denied.txt");
      const denied = await answer(harness, payload);
      expect(denies(harness, denied), denied.text).toBe(true);
      expect(denied.text).toContain(reason);
    }, 30_000);
  }
});
