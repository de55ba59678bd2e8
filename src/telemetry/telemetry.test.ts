/**
 * Spans as an exporter receives them (the in-memory exporter of the OpenTelemetry SDK):
 * the tree of a run, one span per hook firing with its decision, content only when asked
 * for and only after redaction, and nothing at all without a tracer provider.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  type Context,
  type ContextManager,
  context as otelContext,
  ROOT_CONTEXT,
  trace,
} from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import {
  type AgentOptions,
  type AnyHook,
  createAgent,
  defineHook,
  flow,
  scriptedModel,
  type TelemetryOptions,
  tool,
} from "../index.js";

const SECRET = "sk-live-7f3a9c2e1b";

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;

function register(): void {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
}

afterEach(async () => {
  trace.disable();
  await provider?.shutdown();
});

const lookup = tool({
  description: "looks a key up",
  inputSchema: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}: ${SECRET}`,
});
const remove = tool({
  description: "deletes a key",
  inputSchema: z.object({ key: z.string() }),
  execute: () => "deleted",
});

function agentWith(
  hooks: AnyHook[],
  telemetry: TelemetryOptions | undefined,
  extra: Partial<AgentOptions> = {},
) {
  const deleted: string[] = [];
  const agent = createAgent({
    name: "keeper",
    model: scriptedModel([
      {
        toolCalls: [
          { name: "lookup", args: { key: "api" }, id: "c1" },
          { name: "remove", args: { key: "api" }, id: "c2" },
        ],
      },
      { text: "done" },
    ]),
    tools: {
      lookup,
      remove: tool({
        ...remove,
        execute: ({ key }: { key: string }) => {
          deleted.push(key);
          return "deleted";
        },
      }),
    },
    hooks,
    ...(telemetry ? { telemetry } : {}),
    ...extra,
  });
  return { agent, deleted };
}

const noDelete = defineHook({
  name: "no-delete",
  on: "tool_call",
  kind: "decide",
  handler: (event) => (event.toolName === "remove" ? flow.deny("deleting is not allowed") : undefined),
});
const redact = defineHook({
  name: "redact-keys",
  on: "tool_result",
  kind: "transform",
  handler: (event) =>
    typeof event.result === "string" && event.result.includes("sk-live-")
      ? flow.rewriteResult(event.result.replace(/sk-live-\w+/g, "[redacted]"))
      : undefined,
});
const watcher = defineHook({ name: "watch-steps", on: "step_start", kind: "inspect", handler: () => {} });
const requestWatcher = defineHook({
  name: "watch-requests",
  on: "model_request",
  kind: "inspect",
  handler: () => {},
});
const starter = defineHook({ name: "log-start", on: "run_start", kind: "inspect", handler: () => {} });

function byName(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((span) => span.name === name);
}

function parentOf(span: ReadableSpan, spans: readonly ReadableSpan[]): ReadableSpan | undefined {
  const id = span.parentSpanContext?.spanId;
  return spans.find((candidate) => candidate.spanContext().spanId === id);
}

/** Every string an exporter would send: names, attribute values, event names and attributes, status. */
function exportedText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      status: span.status,
    })),
  );
}

describe.each(SURFACES)("telemetry on %s()", (surface) => {
  beforeEach(register);

  test("a run is one tree: run → step → chat / execute_tool → hook", async () => {
    const { agent } = agentWith([noDelete, redact, watcher, requestWatcher, starter], {
      functionId: "keeper-prod",
    });
    const { result } = await runOn(surface, agent, "clean up");
    expect(result.outcome).toBe("completed");
    const spans = exporter.getFinishedSpans();

    const [run] = byName(spans, "invoke_agent keeper");
    expect(run).toBeDefined();
    expect(run!.parentSpanContext).toBeUndefined();
    expect(run!.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "keeper",
      "gen_ai.conversation.id": result.sessionId,
      "hookwise.run.id": result.runId,
      "hookwise.run.outcome": "completed",
      "hookwise.function_id": "keeper-prod",
    });
    // Every span of the run is in the run's trace.
    const traceId = run!.spanContext().traceId;
    expect(spans.every((span) => span.spanContext().traceId === traceId)).toBe(true);

    const steps = byName(spans, "hookwise.step");
    expect(steps.map((step) => step.attributes["hookwise.step"])).toEqual([0, 1]);
    for (const step of steps) expect(parentOf(step, spans)).toBe(run);

    const chats = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(chats).toHaveLength(2);
    expect(chats.map((chat) => parentOf(chat, spans))).toEqual(steps);
    expect(chats[0]!.name).toBe("chat scripted");
    expect(chats[0]!.attributes).toMatchObject({
      "gen_ai.request.model": "scripted",
      "gen_ai.response.finish_reasons": ["tool-calls"],
      "hookwise.attempt": 1,
    });
    expect(chats[0]!.attributes["gen_ai.provider.name"]).toBeTypeOf("string");
    expect(chats[0]!.attributes["gen_ai.usage.input_tokens"]).toBeTypeOf("number");
    expect(chats[0]!.attributes["gen_ai.usage.output_tokens"]).toBeTypeOf("number");

    const tools = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "execute_tool");
    expect(tools.map((span) => span.name)).toEqual(["execute_tool lookup", "execute_tool remove"]);
    expect(tools.map((span) => span.attributes["gen_ai.tool.call.id"])).toEqual(["c1", "c2"]);
    for (const span of tools) expect(parentOf(span, spans)).toBe(steps[0]);

    const hookParent = (name: string) =>
      byName(spans, `hookwise.hook ${name}`).map((span) => parentOf(span, spans)?.name);
    expect(hookParent("log-start")).toEqual(["invoke_agent keeper"]);
    expect(hookParent("watch-steps")).toEqual(["hookwise.step", "hookwise.step"]);
    expect(hookParent("watch-requests")).toEqual(["chat scripted", "chat scripted"]);
    // A decide fires for each call, under that call's span; the redaction only for lookup's result.
    expect(hookParent("no-delete")).toEqual(["execute_tool lookup", "execute_tool remove"]);
    expect(hookParent("redact-keys")).toEqual(["execute_tool lookup"]);
  });

  test("each hook span carries the decision: a deny says denied and why, and the tool did not run", async () => {
    const { agent, deleted } = agentWith([noDelete, redact], {});
    await runOn(surface, agent, "clean up");
    expect(deleted).toEqual([]);
    const spans = exporter.getFinishedSpans();
    const decisions = byName(spans, "hookwise.hook no-delete").map((span) => span.attributes);
    expect(decisions).toEqual([
      expect.objectContaining({
        "hookwise.hook.id": "no-delete",
        "hookwise.hook.event": "tool_call",
        "hookwise.hook.kind": "decide",
        "hookwise.hook.effect": "allowed",
        "gen_ai.tool.call.id": "c1",
        "gen_ai.tool.name": "lookup",
      }),
      expect.objectContaining({
        "hookwise.hook.effect": "denied",
        "hookwise.hook.result": "deny",
        "hookwise.hook.reason": "deleting is not allowed",
        "gen_ai.tool.call.id": "c2",
        "gen_ai.tool.name": "remove",
      }),
    ]);
    for (const attributes of decisions)
      expect(attributes["hookwise.hook.duration_ms"]).toBeGreaterThanOrEqual(0);
    const removeSpan = byName(spans, "execute_tool remove")[0]!;
    expect(removeSpan.attributes["hookwise.tool.executed"]).toBe(false);
    expect(removeSpan.status.code).toBe(2); // ERROR: the model got a denial

    const [rewrite] = byName(spans, "hookwise.hook redact-keys");
    expect(rewrite!.attributes).toMatchObject({
      "hookwise.hook.effect": "rewrote",
      "hookwise.hook.result": "rewriteResult",
    });
    const before = rewrite!.attributes["hookwise.hook.before_digest"];
    const after = rewrite!.attributes["hookwise.hook.after_digest"];
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    expect(after).toMatch(/^[0-9a-f]{32}$/);
    expect(before).not.toBe(after);
  });

  test("a hook that throws shows as failed, with the error as its reason", async () => {
    const broken = defineHook({
      name: "broken",
      on: "tool_call",
      kind: "decide",
      handler: () => {
        throw new Error("policy store unreachable");
      },
    });
    const { agent, deleted } = agentWith([broken], {});
    await runOn(surface, agent, "clean up");
    expect(deleted).toEqual([]); // failed closed
    const [span] = byName(exporter.getFinishedSpans(), "hookwise.hook broken");
    expect(span!.attributes["hookwise.hook.effect"]).toBe("failed");
    expect(span!.attributes["hookwise.hook.reason"]).toContain("policy store unreachable");
    expect(span!.status.code).toBe(2);
  });

  test("with everything recorded, a redacted tool result never leaves through a span", async () => {
    const { agent } = agentWith([redact], { recordInputs: true, recordOutputs: true });
    const { result } = await runOn(surface, agent, "clean up");
    expect(JSON.stringify(result.messages)).not.toContain(SECRET);
    const spans = exporter.getFinishedSpans();
    const lookupSpan = byName(spans, "execute_tool lookup")[0]!;
    // Recorded, and as the redaction left it.
    expect(lookupSpan.attributes["gen_ai.tool.call.result"]).toBe("value of api: [redacted]");
    expect(lookupSpan.attributes["gen_ai.tool.call.arguments"]).toBe('{"key":"api"}');
    const chats = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(String(chats[1]!.attributes["gen_ai.input.messages"])).toContain("[redacted]");
    expect(exportedText(spans)).not.toContain(SECRET);
    expect(exportedText(spans)).not.toContain("sk-live-");
  });

  test("content is not recorded unless asked for", async () => {
    const { agent } = agentWith([redact], {});
    await runOn(surface, agent, "clean up the api key");
    const text = exportedText(exporter.getFinishedSpans());
    for (const content of ["clean up the api key", "[redacted]", '"key":"api"', "deleted", "done"])
      expect(text).not.toContain(content);
  });

  test("outputs recorded, inputs not: no tool arguments, input messages or run input in any span", async () => {
    const { agent } = agentWith([redact], { recordInputs: false, recordOutputs: true });
    await runOn(surface, agent, "clean up the secret input");
    const spans = exporter.getFinishedSpans();
    const text = exportedText(spans);
    // Outputs are there (the test can see content when it is recorded)...
    expect(byName(spans, "execute_tool lookup")[0]!.attributes["gen_ai.tool.call.result"]).toBe(
      "value of api: [redacted]",
    );
    // ...inputs are not: the run's input, the tools' arguments, the messages sent to the model.
    expect(text).not.toContain("clean up the secret input");
    expect(text).not.toContain('"key":"api"');
    for (const span of spans) {
      expect(span.attributes["gen_ai.tool.call.arguments"], span.name).toBeUndefined();
      expect(span.attributes["gen_ai.input.messages"], span.name).toBeUndefined();
      expect(span.attributes["hookwise.run.input"], span.name).toBeUndefined();
    }
  });

  test("a failed attempt is its own chat span, marked failed, with its model_error hooks under it", async () => {
    const onError = defineHook({ name: "note-error", on: "model_error", kind: "inspect", handler: () => {} });
    const agent = createAgent({
      name: "keeper",
      model: scriptedModel([{ error: { status: 429, message: "slow down" } }, { text: "done" }]),
      hooks: [onError],
      retry: { initialDelayMs: 0 },
      telemetry: {},
    });
    const { result } = await runOn(surface, agent, "hi");
    expect(result.outcome).toBe("completed");
    const spans = exporter.getFinishedSpans();
    const chats = spans.filter((span) => span.attributes["gen_ai.operation.name"] === "chat");
    expect(chats.map((chat) => chat.attributes["hookwise.attempt"])).toEqual([1, 2]);
    expect(chats[0]!.status).toMatchObject({ code: 2, message: expect.stringContaining("slow down") });
    expect(chats[0]!.attributes["error.type"]).toBe("rate_limit");
    expect(chats[1]!.status.code).not.toBe(2);
    const [hook] = byName(spans, "hookwise.hook note-error");
    expect(parentOf(hook!, spans)).toBe(chats[0]);
  });

  test("inputs and outputs of the run, after its rewrites", async () => {
    const rewriteInput = defineHook({
      name: "mask-email",
      on: "run_start",
      kind: "transform",
      handler: (event) => flow.rewriteInput(event.input.replace(/\S+@\S+/, "[email]")),
    });
    const { agent } = agentWith([rewriteInput], { recordInputs: true, recordOutputs: true });
    await runOn(surface, agent, "mail ada@example.com");
    const spans = exporter.getFinishedSpans();
    const [run] = byName(spans, "invoke_agent keeper");
    expect(run!.attributes["hookwise.run.input"]).toBe("mail [email]");
    expect(run!.attributes["hookwise.run.output"]).toBe("done");
    expect(exportedText(spans)).not.toContain("ada@example.com");
  });
});

describe("no spans", () => {
  test("without a tracer provider, a run with telemetry on records nothing and runs as ever", async () => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // The provider exists but is not registered.
    for (const surface of SURFACES) {
      const { agent, deleted } = agentWith([noDelete], {});
      const { result } = await runOn(surface, agent, "clean up");
      expect(result.outcome).toBe("completed");
      expect(deleted).toEqual([]);
    }
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  test("with telemetry off (or not given), a registered provider gets nothing", async () => {
    register();
    for (const telemetry of [undefined, { enabled: false }]) {
      const { agent } = agentWith([noDelete], telemetry);
      for (const surface of SURFACES) await runOn(surface, agent, "clean up");
    }
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  test("a tracer passed in is used without any global provider", async () => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const { agent } = agentWith([noDelete], { tracer: provider.getTracer("mine") });
    await agent.run("clean up");
    const spans = exporter.getFinishedSpans();
    expect(byName(spans, "invoke_agent keeper")).toHaveLength(1);
    expect(byName(spans, "hookwise.hook no-delete")).toHaveLength(2);
  });
});

describe("createAgent({ telemetry }) checks its values", () => {
  const model = scriptedModel([{ text: "hi" }]);
  test.each([
    [{ enabled: "yes" }, 'telemetry.enabled must be true or false (got "yes")'],
    [{ recordInputs: 1 }, "telemetry.recordInputs must be true or false (got 1)"],
    [{ functionId: "" }, "telemetry.functionId must be a non-empty string"],
    [{ tracer: {} }, "telemetry.tracer must be an OpenTelemetry Tracer"],
    [true, "telemetry must be an object"],
  ])("%j", (telemetry, message) => {
    expect(() => createAgent({ model, telemetry: telemetry as never })).toThrow(message);
  });
});

/** The smallest context manager: what the Node SDK registers (AsyncLocalStorage-based). */
class StorageContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(context, () => fn.call(thisArg, ...args));
  }
  bind<T>(_context: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

describe("nesting under a context manager", () => {
  afterEach(() => otelContext.disable());

  test.each(SURFACES)("%s: a sub-agent's run nests under the parent's execute_tool span", async (surface) => {
    register();
    otelContext.setGlobalContextManager(new StorageContextManager());
    const child = createAgent({
      name: "helper",
      model: scriptedModel([
        { toolCalls: [{ name: "remove", args: { key: "x" }, id: "h1" }] },
        { text: "no" },
      ]),
      tools: { remove },
      hooks: [noDelete],
      telemetry: {},
    });
    const parent = createAgent({
      name: "lead",
      model: scriptedModel([
        { toolCalls: [{ name: "agents_helper", args: { task: "remove x" }, id: "p1" }] },
        { text: "done" },
      ]),
      agents: { helper: child },
      telemetry: {},
    });
    await runOn(surface, parent, "go");
    const spans = exporter.getFinishedSpans();
    const [childRun] = byName(spans, "invoke_agent helper");
    expect(parentOf(childRun!, spans)?.name).toBe("execute_tool agents_helper");
    const [denial] = byName(spans, "hookwise.hook no-delete");
    expect(denial!.attributes["hookwise.hook.effect"]).toBe("denied");
    expect(parentOf(denial!, spans)?.name).toBe("execute_tool remove");
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });
});
