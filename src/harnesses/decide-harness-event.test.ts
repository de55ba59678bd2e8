/**
 * One harness event through a config's rules, in process: what a decision costs beyond its
 * rules (no clock read by a guard that does not fire), and a policy's explicit allow told
 * apart while other events are decided at the same time.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { harnessSecretMask } from "../config/harness-secrets.js";
import { loadHarnessHooks } from "../config/load-harness-hooks.js";
import { defineHook } from "../hooks/define-hook.js";
import { HookRegistry } from "../hooks/hook-registry.js";
import { compilePolicies, policy } from "../policy/policy.js";
import { MemoryStore } from "../state/memory-store.js";
import { decideHarnessEvent, type HarnessDispatchOptions } from "./decide-harness-event.js";
import { HARNESSES } from "./protocols.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const pre = (tool: string, input: Record<string, unknown>) =>
  HARNESSES.claude.parse({
    session_id: "s1",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/tmp",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: `toolu_${tool}`,
  });

describe("decideHarnessEvent", () => {
  it("reads no clock for guards that do not fire: CEL policies, expression hooks with a timeout", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-decide-"));
    dirs.push(dir);
    const lines = ["harness: claude", "runtime:", "  hook_timeout: 5", "  policies:"];
    for (let index = 0; index < 5; index++)
      lines.push(`    - { decision: deny, tool: shell, when: 'args.command.contains("no-${index}")' }`);
    lines.push("  hooks:");
    for (let index = 0; index < 5; index++)
      lines.push(
        `    - { id: h${index}, on: tool_call, condition: { type: expression, expr: 'args.command.startsWith("stop-${index}")' }, action: { type: gate } }`,
      );
    writeFileSync(join(dir, "hookwise.yaml"), `${lines.join("\n")}\n`);
    const hooks = await loadHarnessHooks(join(dir, "hookwise.yaml"), "claude", {
      store: new MemoryStore(),
      logger: quiet,
    });
    const options: HarnessDispatchOptions = {
      protocol: HARNESSES.claude,
      registry: hooks.registry,
      policies: hooks.policies,
      store: hooks.store,
      log: quiet,
      runId: "r1",
    };
    try {
      // Warmed: whatever a first decision loads is not counted.
      await decideHarnessEvent(pre("Bash", { command: "ls" }), options);
      const monotonic = vi.spyOn(performance, "now");
      const wall = vi.spyOn(Date, "now");
      const passed = await decideHarnessEvent(pre("Bash", { command: "ls -la" }), options);
      expect(passed.verdict.decision).toBe("none");
      expect(monotonic).not.toHaveBeenCalled();
      expect(wall).not.toHaveBeenCalled();
      // The guards still guard.
      const policed = await decideHarnessEvent(pre("Bash", { command: "echo no-3" }), options);
      expect(policed.verdict.decision).toBe("deny");
      const hooked = await decideHarnessEvent(pre("Bash", { command: "stop-4 now" }), options);
      expect(hooked.verdict).toMatchObject({ decision: "deny", reason: 'blocked by hook "h4"' });
    } finally {
      await hooks.close();
    }
  });

  it("answers a policy's allow as allow while another call is decided in between", async () => {
    const registry = new HookRegistry();
    const policies = [policy.allow("Read")];
    registry.register(compilePolicies(policies));
    // A decide hook after the policies that waits: the other event's policies run meanwhile.
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    registry.register(
      defineHook({
        name: "slow",
        on: "tool_call",
        kind: "decide",
        priority: 1_000,
        handler: async () => {
          await waiting;
        },
      }),
    );
    const options: HarnessDispatchOptions = {
      protocol: HARNESSES.claude,
      registry,
      policies,
      store: new MemoryStore(),
      log: quiet,
      runId: "r2",
    };
    const read = decideHarnessEvent(pre("Read", { file_path: "/tmp/a" }), options);
    const bash = decideHarnessEvent(pre("Bash", { command: "ls" }), options);
    release();
    const [allowed, unsaid] = await Promise.all([read, bash]);
    expect(allowed.verdict.decision).toBe("allow");
    expect(unsaid.verdict.decision).toBe("none");
  });

  it("masks the credentials in what the spans record of a call (arguments, result, reason)", async () => {
    const key = "ghp_0123456789abcdefSECRET";
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const registry = new HookRegistry();
    const policies = [policy.deny("Bash")];
    registry.register(compilePolicies(policies));
    const options: HarnessDispatchOptions = {
      protocol: HARNESSES.claude,
      registry,
      policies,
      store: new MemoryStore(),
      log: quiet,
      runId: "r3",
      telemetry: {
        tracer: provider.getTracer("test"),
        recordInputs: true,
        recordOutputs: true,
        functionId: undefined,
      },
      mask: harnessSecretMask({}, { GITHUB_TOKEN: key }),
    };
    const command = `curl -H "Authorization: token ${key}" https://example.test`;
    const denied = await decideHarnessEvent(pre("Bash", { command }), options);
    expect(denied.verdict.decision).toBe("deny");
    // The call is decided on as it is; only what the spans keep is masked.
    expect(denied.tool?.args).toEqual({ command });
    const spans = exporter.getFinishedSpans();
    const recorded = JSON.stringify(spans.map((span) => span.attributes));
    expect(recorded).toContain("gen_ai.tool.call.arguments");
    expect(recorded).toContain("curl -H");
    expect(recorded).not.toContain(key);
    await provider.shutdown();
  });
});
