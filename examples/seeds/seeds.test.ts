/**
 * The seed examples (issue 4, "Done when"): every config in this folder validates, and each
 * one runs through the scripted model and does what its seed document says — on both
 * surfaces, `run()` and `stream()`.
 *
 * Tools are given per test (`resolveTool`, with a side-effect record), so a "did not run"
 * claim is checked on the tool's own side effect; `companion-*` files hold what a seed
 * leaves out (toolsets, a second agent) or show one field on its own (priority, never,
 * cooldown). A seed file keeps the seed's text verbatim; what it needs to run as shipped (a
 * scripted model, the tools its policies name) is added around it, marked as added.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { validateConfigText } from "../../src/config/check/validate-config.js";
import { type LoadedConfig, loadConfig } from "../../src/config/load-config.js";
import { formatIssue } from "../../src/config/source/config-error.js";
import type { AgentOptions, HookLogger, RunResult } from "../../src/index.js";
import { type ScriptStep, scriptedModel } from "../../src/models/scripted-model.js";
import { MemoryStore } from "../../src/state/memory-store.js";
import { resolveTool } from "../../src/tools/index.js";
import { runOn, SURFACES, type SurfaceName } from "../../test/support/surfaces.js";

const DIR = fileURLToPath(new URL(".", import.meta.url));
/** The configs of this folder: YAML and JSON files whose top level is a mapping (a list is a model script). */
const CONFIG_FILES = readdirSync(DIR)
  .filter((file) => /\.(ya?ml|json)$/.test(file))
  .filter((file) => !Array.isArray(parse(readFileSync(join(DIR, file), "utf8"))))
  .sort();

// ---------------------------------------------------------------------------------------
// Fixtures

interface LogRecord {
  level: string;
  message: string;
  hook?: string;
}

const opened: LoadedConfig[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((loaded) => loaded.close()));
});

/** Loads a config of this folder with a memory store (clock injectable) and a recording logger. */
async function load(file: string, options: { now?: () => number } = {}) {
  const logs: LogRecord[] = [];
  const at =
    (level: string) =>
    (message: string, detail?: unknown): void => {
      logs.push({ level, message, hook: (detail as { hook?: string } | undefined)?.hook });
    };
  const logger: HookLogger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const loaded = await loadConfig(join(DIR, file), { store: new MemoryStore(options), logger });
  opened.push(loaded);
  const messagesOf = (hook: string) => logs.filter((record) => record.hook === hook).map((r) => r.message);
  return { loaded, logs, messagesOf };
}

/** A tool that records the arguments of every execution: its side effect. */
function recordingTool(
  name: string,
  options: { toolset?: string; result?: (args: any) => unknown; fails?: string } = {},
) {
  const received: unknown[] = [];
  const tool = resolveTool(
    name,
    {
      description: `${name} (test tool)`,
      inputSchema: { type: "object", properties: {} },
      execute: (args: unknown) => {
        received.push(args);
        if (options.fails) throw new Error(options.fails);
        return options.result ? options.result(args) : `${name} done`;
      },
    },
    options.toolset ? { toolset: options.toolset } : {},
  );
  return { tool, received };
}

/** Builds an agent of `loaded` with a scripted model and runs `inputs` in one session on `surface`. */
async function runSession(
  surface: SurfaceName,
  loaded: LoadedConfig,
  script: readonly ScriptStep[],
  inputs: readonly string[],
  options: { agent?: string; overrides?: Partial<AgentOptions>; before?: (index: number) => void } = {},
) {
  const model = scriptedModel(script);
  const agent = await loaded.createAgent(options.agent, { model, ...options.overrides });
  const results: RunResult[] = [];
  // One session for all the inputs, named here: the in-memory store keeps no unnamed one.
  const sessionId = randomUUID();
  for (const [index, input] of inputs.entries()) {
    options.before?.(index);
    const { result } = await runOn(surface, agent, input, { sessionId });
    results.push(result);
  }
  return { model, results, result: results[0]! };
}

/** The texts of the tool results the model received in its `index`-th call. */
function toolResultsSeen(model: ReturnType<typeof scriptedModel>, index: number): string[] {
  const prompt = model.calls[index]!.prompt;
  return prompt
    .filter((message) => message.role === "tool")
    .flatMap((message) => message.content)
    .flatMap((part) =>
      part.type === "tool-result" && "value" in part.output ? [String(part.output.value)] : [],
    );
}

/** The plain texts of the user messages the model received in its `index`-th call. */
function userTextsSeen(model: ReturnType<typeof scriptedModel>, index: number): string[] {
  return model.calls[index]!.prompt.filter((message) => message.role === "user").flatMap((message) =>
    message.content.flatMap((part) => (part.type === "text" ? [part.text] : [])),
  );
}

function hooksFired(result: RunResult, event?: string): string[] {
  return result.events.filter((entry) => !event || entry.event === event).map((entry) => entry.hook);
}

/** One text answer per run. */
const answers = (count: number): ScriptStep[] => Array.from({ length: count }, () => ({ text: "ok" }));

/**
 * An input worth ~`pressure` of the default 128 000-token context window. The loop's token
 * meter takes a request's size from the provider's report, and the scripted model reports
 * a prompt's JSON characters / 4.
 */
const filler = (pressure: number) => "x".repeat(Math.ceil(pressure * 128_000 * 4));

// ---------------------------------------------------------------------------------------

describe("every config in examples/seeds validates", () => {
  for (const file of CONFIG_FILES) {
    it(file, () => {
      const result = validateConfigText(readFileSync(join(DIR, file), "utf8"), file);
      expect(result.issues.filter((issue) => issue.severity === "error").map(formatIssue)).toEqual([]);
      expect(result.validated).toBeDefined();
    });
  }

  it("the seed-000 manifests parse with their defaults", () => {
    const manifests = Object.fromEntries(
      CONFIG_FILES.filter((file) => file.startsWith("000-")).map((file) => [
        file,
        validateConfigText(readFileSync(join(DIR, file), "utf8"), file).validated!.manifests,
      ]),
    );
    expect(manifests["000-memory-always.json"]).toEqual([
      {
        kind: "tool_call",
        event: "on_request_start",
        toolset_name: "memory_server",
        tool_name: "get_memories",
        arguments: { user_id: "current" },
        frequency: "always",
      },
    ]);
    expect(manifests["000-preferences-append-if-changed.json"]![0]).toMatchObject({
      arguments: {},
      frequency: "append_if_changed",
    });
    expect(manifests["000-preferences-ttl.json"]![0]!.refresh_condition).toEqual({
      kind: "ttl",
      ttl_minutes: 60,
    });
    expect(manifests["000-unprefixed-tool.json"]![0]).not.toHaveProperty("toolset_name");
  });

  it("the scopes companion carries the seed's reviewer hooks verbatim", () => {
    const read = (file: string) => parse(readFileSync(join(DIR, file), "utf8"));
    const seed = read("003-scopes.yaml").agents.find((agent: { id: string }) => agent.id === "reviewer");
    const companion = read("companion-003-scopes-agents.yaml").agents.find(
      (agent: { id: string }) => agent.id === "reviewer",
    );
    expect(companion).toEqual(seed);
  });
});

describe.each(SURFACES)("on %s()", (surface) => {
  describe("003-actions.yaml (seed 003, the general actions)", () => {
    it("inject_message (turn_start, strategy auto) reaches the model", async () => {
      const { loaded } = await load("003-actions.yaml");
      const { model, result } = await runSession(surface, loaded, [{ text: "ok" }], ["hello"]);
      expect(result.outcome).toBe("completed");
      expect(userTextsSeen(model, 0)).toEqual(["hello", "Remember to follow the coding standards."]);
      expect(result.events).toContainEqual({
        event: "run_start",
        hook: "inject",
        kind: "transform",
        effect: "inject",
      });
    });

    it("gate: the tool does not run and the model receives the reason", async () => {
      const { loaded } = await load("003-actions.yaml");
      const deleteFile = recordingTool("delete_file", { toolset: "filesystem" });
      const { model, result } = await runSession(
        surface,
        loaded,
        [{ tool_calls: [{ name: "filesystem_delete_file", args: { path: "notes.md" } }] }, { text: "ok" }],
        ["delete notes.md"],
        { overrides: { tools: [deleteFile.tool] } },
      );
      expect(deleteFile.received).toEqual([]);
      expect(result.steps[0]!.toolResults[0]).toMatchObject({ executed: false, isError: true });
      expect(toolResultsSeen(model, 1)).toEqual([
        'tool "filesystem.delete_file" was denied by hook "gate": Direct file deletion is not allowed in this project',
      ]);
      expect(result.events).toContainEqual({
        event: "tool_call",
        hook: "gate",
        kind: "decide",
        effect: "deny",
        toolCallId: expect.any(String),
        toolName: "filesystem_delete_file",
        detail: "Direct file deletion is not allowed in this project",
      });
    });

    it("transform_params sets and removes the keys the tool receives; transform_result appends what the model sees", async () => {
      const { loaded } = await load("003-actions.yaml");
      const editFile = recordingTool("edit_file", {
        toolset: "filesystem",
        result: (args) => `edited ${args.path}`,
      });
      const { model } = await runSession(
        surface,
        loaded,
        [
          {
            tool_calls: [
              { name: "filesystem_edit_file", args: { path: "a.py", dangerous_flag: true, timeout: 5 } },
            ],
          },
          { text: "ok" },
        ],
        ["edit a.py"],
        { overrides: { tools: [editFile.tool] } },
      );
      expect(editFile.received).toEqual([{ path: "a.py", timeout: 60, encoding: "utf-8" }]);
      expect(toolResultsSeen(model, 1)).toEqual([
        "edited a.py\nRemember to run tests after editing.\n[note] File was modified - consider running the test suite.",
      ]);
    });

    it("log writes the templated line through the logger at its level, once per turn", async () => {
      const { loaded, logs } = await load("003-actions.yaml");
      const read = recordingTool("read", { toolset: "filesystem" });
      await runSession(
        surface,
        loaded,
        [{ tool_calls: [{ name: "filesystem_read" }] }, { text: "ok" }, { text: "again" }],
        ["first", "second"],
        { overrides: { tools: [read.tool] } },
      );
      const lines = logs.filter((record) => record.hook === "log");
      expect(lines.map((record) => record.level)).toEqual(["info", "info"]);
      expect(lines[0]!.message).toMatch(/^Turn 0: [1-9]\d* tokens, 1 tool calls$/);
      expect(lines[1]!.message).toMatch(/^Turn \d+: [1-9]\d* tokens, 1 tool calls$/);
    });

    // `turn` counts runs (an atomic per-session counter), not user messages: the message
    // this config's `inject` hook persists on every turn_start does not shift it.
    it("{turn} counts runs, not the user messages an inject_message hook persisted", async () => {
      const { loaded, messagesOf } = await load("003-actions.yaml");
      await runSession(surface, loaded, answers(3), ["first", "second", "third"]);
      expect(messagesOf("log").map((line) => line.split(":")[0])).toEqual(["Turn 0", "Turn 1", "Turn 2"]);
    });

    it("notify publishes when context pressure is above 0.8, and not below", async () => {
      const { loaded } = await load("003-actions.yaml");
      await runSession(surface, loaded, answers(1), ["a small turn"]);
      expect(loaded.notifications.history).toEqual([]);
      await runSession(surface, loaded, answers(1), [filler(0.85)]);
      expect(loaded.notifications.history).toEqual([
        {
          title: "Context pressure high",
          message: expect.stringMatching(/^Token usage at \d+ - compaction may be needed\.$/),
          level: "warning",
          tag: "pressure_alert",
          hook: "notify",
          sessionId: expect.any(String),
          runId: expect.any(String),
          at: expect.any(Number),
        },
      ]);
    });
  });

  describe("003-conditions.yaml (seed 003, the condition examples)", () => {
    it("tool_name: alternation, list and glob match as the seed says; not(memory.*) skips memory tools", async () => {
      const { loaded, messagesOf } = await load("003-conditions.yaml");
      const tools = [
        recordingTool("Write"),
        recordingTool("Insert"),
        recordingTool("recall", { toolset: "memory" }),
        recordingTool("read", { toolset: "filesystem" }),
      ];
      await runSession(
        surface,
        loaded,
        [
          {
            tool_calls: [
              { name: "Write" },
              { name: "Insert" },
              { name: "memory_recall" },
              { name: "filesystem_read" },
            ],
          },
          { text: "ok" },
        ],
        ["go"],
        { overrides: { tools: tools.map((item) => item.tool) } },
      );
      expect(messagesOf("name-alternation")).toEqual(["edit-like tool"]); // Write, not Insert
      expect(messagesOf("name-list")).toEqual(["listed tool", "listed tool"]); // Write, Insert
      expect(messagesOf("name-glob")).toEqual(["filesystem tool"]);
      expect(messagesOf("composite-not")).toEqual([
        "non-memory tool Write",
        "non-memory tool Insert",
        "non-memory tool filesystem_read",
      ]);
    });

    it("error_type: a scripted 429 is a rate_limit error event (wildcard and any_of fire); billing fires any_of only", async () => {
      const { loaded, messagesOf } = await load("003-conditions.yaml");
      const retried = await runSession(
        surface,
        loaded,
        [{ error: { status: 429, message: "slow down" } }, { text: "ok" }],
        ["hi"],
        { overrides: { retry: { initialDelayMs: 0 } } },
      );
      expect(retried.result.outcome).toBe("completed");
      expect(retried.result.steps[0]!.attempts).toBe(2);
      expect(messagesOf("error-wildcard")).toEqual(["rate limited"]);
      expect(messagesOf("composite-any-of")).toEqual(["provider trouble"]);

      const billing = await runSession(
        surface,
        loaded,
        [{ error: { status: 402, message: "insufficient_quota" } }],
        ["hi"],
      );
      expect(billing.result.outcome).toBe("error");
      expect(messagesOf("error-wildcard")).toEqual(["rate limited"]);
      expect(messagesOf("composite-any-of")).toEqual(["provider trouble", "provider trouble"]);
    });

    it('expression "turn > 5 and pressure > 0.6" fires on the seventh turn of a full session only; turn_count every 5 on the sixth', async () => {
      const { loaded, messagesOf } = await load("003-conditions.yaml");
      const { results } = await runSession(surface, loaded, answers(7), [
        filler(0.65),
        ...Array(6).fill("more"),
      ]);
      expect(results.map((result) => hooksFired(result))).toEqual([
        [],
        [],
        [],
        [],
        [],
        ["turn-every"],
        ["expression"],
      ]);
      expect(messagesOf("expression")).toEqual(["long and full"]);
      expect(messagesOf("turn-every")).toEqual(["every fifth turn"]);
      expect(messagesOf("pressure")).toEqual([]); // 0.65 is under its 0.75

      const light = await load("003-conditions.yaml");
      await runSession(surface, light.loaded, answers(7), Array(7).fill("short"));
      expect(light.messagesOf("expression")).toEqual([]);
    });

    it("all_of: a failed filesystem tool on turn 3 fires; the same failure on turns 0-2 does not", async () => {
      const { loaded, messagesOf } = await load("003-conditions.yaml");
      const write = recordingTool("write", { toolset: "filesystem", fails: "read-only file system" });
      const script = Array.from({ length: 4 }, (): ScriptStep[] => [
        { tool_calls: [{ name: "filesystem_write" }] },
        { text: "failed" },
      ]).flat();
      await runSession(surface, loaded, script, ["w0", "w1", "w2", "w3"], {
        overrides: { tools: [write.tool] },
      });
      expect(write.received).toHaveLength(4);
      expect(messagesOf("composite-all-of")).toEqual(["filesystem tool failed on turn 3"]);
    });
  });

  describe("002-policies.yaml (seed 002, the policy list)", () => {
    const fixture = () => {
      const runCommand = recordingTool("run_command");
      const viewFile = recordingTool("view_file", { result: () => "# notes" });
      const editFile = recordingTool("edit_file");
      return { runCommand, viewFile, editFile, tools: [runCommand.tool, viewFile.tool, editFile.tool] };
    };
    const script: ScriptStep[] = [
      {
        tool_calls: [
          { name: "run_command", args: { CommandLine: "rm -rf build" } },
          { name: "view_file", args: { path: "notes.md" } },
          { name: "edit_file", args: { path: "notes.md" } },
        ],
      },
      { text: "ok" },
    ];

    it('denies run_command with "rm", allows view_file, denies unknown tools via "*"; the model learns why', async () => {
      const { loaded } = await load("002-policies.yaml");
      const { runCommand, viewFile, editFile, tools } = fixture();
      const { model, result } = await runSession(surface, loaded, script, ["tidy up"], {
        overrides: { tools },
      });
      expect(result.outcome).toBe("completed");
      expect(runCommand.received).toEqual([]);
      expect(viewFile.received).toEqual([{ path: "notes.md" }]);
      expect(editFile.received).toEqual([]);
      expect(result.steps[0]!.toolResults.map((record) => record.executed)).toEqual([false, true, false]);
      expect(toolResultsSeen(model, 1)).toEqual([
        'tool "run_command" was denied by hook "policy": tool "run_command" is denied by policy (deny "run_command")',
        "# notes",
        'tool "edit_file" was denied by hook "policy": tool "edit_file" is denied by policy (deny "*")',
      ]);
    });

    it("ask_user run_command without an approval channel is not executed: the run suspends, the approval pending", async () => {
      const { loaded } = await load("002-policies.yaml");
      const { runCommand, tools } = fixture();
      const { model, result } = await runSession(
        surface,
        loaded,
        [{ tool_calls: [{ name: "run_command", args: { CommandLine: "ls" } }] }, { text: "ok" }],
        ["list the files"],
        { overrides: { tools } },
      );
      expect(runCommand.received).toEqual([]);
      expect(result.outcome).toBe("suspended");
      expect(result.approvals).toEqual([
        expect.objectContaining({
          toolName: "run_command",
          args: { CommandLine: "ls" },
          reason: 'policy ask_user "run_command"',
        }),
      ]);
      expect(model.calls).toHaveLength(1); // nothing went back to the model
    });

    it("with an approval channel, ask_user runs the approved command; the rm deny still wins", async () => {
      const { loaded } = await load("002-policies.yaml");
      const { runCommand, tools } = fixture();
      const asked: string[] = [];
      const { result } = await runSession(
        surface,
        loaded,
        [
          {
            tool_calls: [
              { name: "run_command", args: { CommandLine: "rm -rf build" } },
              { name: "run_command", args: { CommandLine: "ls" } },
            ],
          },
          { text: "ok" },
        ],
        ["tidy up"],
        {
          overrides: {
            tools,
            approvals: {
              handler: (request) => {
                asked.push((request.args as { CommandLine: string }).CommandLine);
                return true;
              },
            },
          },
        },
      );
      expect(result.outcome).toBe("completed");
      expect(asked).toEqual(["ls"]);
      expect(runCommand.received).toEqual([{ CommandLine: "ls" }]);
    });
  });

  describe("hook fields (seed 003's hook schema)", () => {
    it("max_fires: 10 fires ten times and no more (twelve failed writes in one session)", async () => {
      const { loaded, messagesOf } = await load("companion-003-scopes-agents.yaml");
      const script = Array.from({ length: 12 }, (_, index): ScriptStep[] => [
        { tool_calls: [{ name: "fs_write", args: { path: `notes-${index}.md` } }] },
        { text: "the write failed" },
      ]).flat();
      const { results } = await runSession(
        surface,
        loaded,
        script,
        Array.from({ length: 12 }, (_, index) => `write ${index}`),
        { agent: "reviewer" },
      );
      expect(results.every((result) => result.steps[0]!.toolResults[0]!.isError)).toBe(true);
      const notes = loaded.notifications.history;
      expect(notes).toHaveLength(10);
      expect(notes[0]).toMatchObject({
        title: "Reviewer caught a failed write",
        message: "fs.write: disk full while writing notes-0.md",
        hook: "reviewer_lint",
      });
      expect(notes.at(-1)!.message).toBe("fs.write: disk full while writing notes-9.md");
      expect(results.map((result) => hooksFired(result, "tool_result").includes("reviewer_lint"))).toEqual([
        ...Array(10).fill(true),
        false,
        false,
      ]);
      expect(messagesOf("app_wide_audit")).toHaveLength(12); // the app-wide hook has no cap
    });

    it("a per-agent hook fires only for its agent; an app-wide hook fires for every agent", async () => {
      const { loaded, messagesOf } = await load("companion-003-scopes-agents.yaml");
      const failedWrite: ScriptStep[] = [
        { tool_calls: [{ name: "fs_write", args: { path: "a.md" } }] },
        { text: "failed" },
      ];
      const author = await runSession(surface, loaded, failedWrite, ["write"], { agent: "author" });
      expect(author.result.steps[0]!.toolResults[0]!.isError).toBe(true);
      expect(loaded.notifications.history).toEqual([]);
      expect(hooksFired(author.result)).toEqual(["app_wide_audit"]);

      const reviewer = await runSession(surface, loaded, failedWrite, ["write"], { agent: "reviewer" });
      expect(hooksFired(reviewer.result)).toEqual(["app_wide_audit", "reviewer_lint"]);
      expect(loaded.notifications.history.map((note) => note.hook)).toEqual(["reviewer_lint"]);
      expect(messagesOf("app_wide_audit")).toEqual([
        "app-wide: fs.write on agent author",
        "app-wide: fs.write on agent reviewer",
      ]);
    });

    it("priority: 50 runs before default-priority hooks; ties keep file order", async () => {
      const { loaded } = await load("companion-003-priority.yaml");
      const { model, result } = await runSession(surface, loaded, [{ text: "ok" }], ["hello"]);
      expect(hooksFired(result, "run_start")).toEqual(["app_wide_early", "default_first", "default_second"]);
      expect(userTextsSeen(model, 0)).toEqual([
        "hello",
        "from app_wide_early",
        "from default_first",
        "from default_second",
      ]);
    });

    it("a never condition never fires (nor does enabled: false)", async () => {
      const { loaded } = await load("companion-003-never.yaml");
      const write = recordingTool("write", { toolset: "fs" });
      const { result } = await runSession(
        surface,
        loaded,
        [{ tool_calls: [{ name: "fs_write", args: { path: "a" } }] }, { text: "ok" }, { text: "ok" }],
        ["one", "two"],
        { overrides: { tools: [write.tool] } },
      );
      expect(write.received).toEqual([{ path: "a" }]);
      expect(result.events).toEqual([]);
      expect(loaded.notifications.history).toEqual([]);
    });

    it("cooldown: 60 spaces fires by 60 seconds, per session (store clock driven by the test)", async () => {
      let now = 1_000_000;
      const { loaded } = await load("companion-003-cooldown.yaml", { now: () => now });
      const at = [0, 30_000, 59_000, 61_000, 62_000, 125_000];
      const { results } = await runSession(surface, loaded, answers(at.length), at.map(String), {
        before: (index) => {
          now = 1_000_000 + at[index]!;
        },
      });
      expect(results.map((result) => hooksFired(result).length)).toEqual([1, 0, 0, 1, 0, 1]);
      expect(loaded.notifications.history.map((note) => note.message)).toEqual([
        "turn 0",
        "turn 3",
        "turn 5",
      ]);

      // limit_scope defaults to session: another session has its own cooldown.
      const other = await runSession(surface, loaded, answers(1), ["elsewhere"]);
      expect(hooksFired(other.result)).toEqual(["auto-notify"]);
    });
  });

  describe("003-quick-example.yaml and 003-scopes.yaml (seed 003, compact_context)", () => {
    /** Answers every call: summary requests (compact_context's) with a summary, the rest with "answer". */
    const answerOrSummarize: ScriptStep = (call) => {
      const system = call.prompt.find((message) => message.role === "system");
      return system && String(system.content).startsWith("Summarize")
        ? { text: "The user asked q1; the assistant answered." }
        : { text: "answer" };
    };
    const script = (count: number) => Array.from({ length: count }, () => answerOrSummarize);

    it("auto-compact: above 0.80 pressure at turn_end, summarizes all but the 12 latest messages; cooldown 60 s", async () => {
      let now = 1_000_000;
      const { loaded } = await load("003-quick-example.yaml", { now: () => now });
      const inputs = ["q1", "q2", "q3", "q4", "q5", "q6", filler(0.85), "q8", "q9"];
      const { model, results } = await runSession(surface, loaded, script(20), inputs, {
        before: (index) => {
          if (index === 8) now += 61_000;
        },
      });
      const compacted = (result: RunResult) => hooksFired(result, "run_end").includes("auto-compact");
      expect(results.map(compacted)).toEqual([false, false, false, false, false, false, true, false, true]);

      const afterFirst = results[6]!.messages;
      expect(afterFirst).toHaveLength(13); // the summary + keep_recent: 12
      expect(afterFirst[0]).toEqual({
        role: "system",
        content:
          "Summary of the earlier conversation (2 messages compacted):\nThe user asked q1; the assistant answered.",
      });
      expect(JSON.stringify(afterFirst.slice(1))).not.toContain('"q1"');
      const summaryCall = model.calls.find((call) =>
        call.prompt.some((message) => message.role === "system" && message.content.startsWith("Summarize")),
      )!;
      expect(JSON.stringify(summaryCall.prompt)).toContain("user: q1");
      // The next turn's model call sees the compacted history (the summary, not q1).
      const next = model.calls.at(-3)!.prompt; // q8's call: before q9's answer and its summary
      expect(JSON.stringify(next)).toContain("Summary of the earlier conversation");
      expect(JSON.stringify(next)).not.toContain('"q1"');
    });

    it("reviewer_lint (003-scopes.yaml itself) notifies on the reviewer's failed write; app_wide_compact stays quiet at low pressure", async () => {
      const { loaded } = await load("003-scopes.yaml");
      const write = recordingTool("write", { toolset: "fs", fails: "disk full" });
      const { result } = await runSession(
        surface,
        loaded,
        [{ tool_calls: [{ name: "fs_write", args: { path: "a.md" } }] }, { text: "failed" }],
        ["write"],
        { agent: "reviewer", overrides: { tools: [write.tool] } },
      );
      expect(hooksFired(result)).toEqual(["reviewer_lint"]);
      expect(loaded.notifications.history.map((note) => note.message)).toEqual(["fs.write: disk full"]);
    });
  });
});
