/**
 * `hookwise hook` with `runtime.telemetry`: each harness event is a span tree like a run's
 * (the event's `invoke_agent` span, its tool's `execute_tool`, one span per hook firing),
 * sent through the provider the program registered before the hook process exits.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const SETUP = join(ROOT, "test/fixtures/telemetry/file-exporter.mjs");

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface SpanLine {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
}

function hookProcess(
  dir: string,
  input: unknown,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        join(ROOT, "node_modules/tsx/dist/loader.mjs"),
        join(ROOT, "src/cli/main.ts"),
        "hook",
        join(dir, "hookwise.yaml"),
        "--harness",
        "claude",
      ],
      { cwd: dir, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? 1, stdout, stderr });
    });
    child.stdin.end(JSON.stringify(input));
  });
}

const pre = (command: string) => ({
  session_id: "otel-session",
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "toolu_otel_1",
});

function project(telemetry: string): string {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-harness-otel-"));
  dirs.push(dir);
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `harness: claude
runtime:
${telemetry}  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")', reason: "no recursive deletes" }
  hooks:
    - { id: audit, on: tool_call, action: { type: log, message: "saw {{args.command}}" } }
`,
  );
  return dir;
}

describe("hookwise hook: OpenTelemetry spans per harness decision", () => {
  it("sends the event's span tree through the registered provider before the process ends", async () => {
    const dir = project("  telemetry: { record_inputs: true }\n");
    const spansFile = join(dir, "spans.jsonl");
    const result = await hookProcess(dir, pre("rm -rf /tmp/x"), {
      NODE_OPTIONS: `--import ${SETUP}`,
      HOOKWISE_TEST_SPANS: spansFile,
    });
    expect(result.stdout).toContain('"permissionDecision":"deny"');
    // The batch processor holds spans for a minute: they are in the file only because
    // hookwise flushed the provider before exiting.
    const spans = readFileSync(spansFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as SpanLine);
    const run = spans.find((span) => span.name === "invoke_agent claude")!;
    expect(run.attributes).toMatchObject({
      "gen_ai.conversation.id": "otel-session",
      "hookwise.harness": "claude",
      "hookwise.harness.event": "PreToolUse",
      "hookwise.harness.decision": "deny",
      "hookwise.run.outcome": "denied",
    });
    const tool = spans.find((span) => span.name === "execute_tool Bash")!;
    expect(tool.parentSpanId).toBe(run.spanId);
    expect(tool.attributes).toMatchObject({
      "gen_ai.tool.call.id": "toolu_otel_1",
      "hookwise.tool.qualified_name": "shell",
      "hookwise.tool.executed": false,
      "gen_ai.tool.call.arguments": JSON.stringify({ command: "rm -rf /tmp/x" }),
    });
    expect(tool.status.message).toBe("no recursive deletes");
    const policy = spans.find((span) => span.name === "hookwise.hook policy")!;
    expect(policy.parentSpanId).toBe(tool.spanId);
    expect(policy.attributes).toMatchObject({ "hookwise.hook.effect": "denied" });
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
  }, 40_000);

  it("emits nothing without runtime.telemetry, even with a provider registered", async () => {
    const dir = project("");
    const spansFile = join(dir, "spans.jsonl");
    const result = await hookProcess(dir, pre("ls"), {
      NODE_OPTIONS: `--import ${SETUP}`,
      HOOKWISE_TEST_SPANS: spansFile,
    });
    expect(result.code).toBe(0);
    expect(existsSync(spansFile)).toBe(false);
  }, 40_000);
});
