/**
 * Test helpers: Evaluation objects built by hand (no engine), and ActionServices that
 * record what actions log and publish. Used by the conditions, actions and templates tests.
 */
import type { AnyEventPayload, ModelMessage, ModelRequest } from "../../events/payloads.js";
import type { HookContext, HookLogger } from "../../hooks/hook-context.js";
import { Scratchpad } from "../../hooks/scratchpad.js";
import { MemoryStore } from "../../state/memory-store.js";
import { NotificationBus } from "../notification-bus.js";
import type { ActionServices, Evaluation, RunStats, ToolView } from "./evaluation.js";

export interface LogRecord {
  level: keyof HookLogger;
  message: string;
  detail?: unknown;
}

export function recordingLogger(records: LogRecord[] = []): HookLogger & { records: LogRecord[] } {
  const write = (level: keyof HookLogger) => (message: string, detail?: unknown) => {
    records.push(detail === undefined ? { level, message } : { level, message, detail });
  };
  return { records, debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

export function testContext(overrides: Partial<HookContext> = {}): HookContext {
  const session = new Scratchpad();
  const run = new Scratchpad(session);
  const step = new Scratchpad(run);
  return {
    sessionId: "s1",
    runId: "r1",
    step: 0,
    attempt: 1,
    agentName: "main",
    agentPath: ["main"],
    isStreaming: false,
    signal: new AbortController().signal,
    scratch: { session, run, step, operation: new Scratchpad(step) },
    log: recordingLogger(),
    input: "hello",
    messages: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    turn: 0,
    ...overrides,
  };
}

export const DEFAULT_STATS: RunStats = {
  turn: 0,
  tools: 0,
  messages: 0,
  tokens: 0,
  pressure: 0,
  max_turns: 20,
};

export interface TestEvaluationOptions {
  event?: AnyEventPayload;
  stats?: Partial<RunStats>;
  tool?: ToolView;
  error?: { type: string; message: string };
  messages?: readonly ModelMessage[];
  context?: Partial<HookContext>;
  hookId?: string;
}

export function testEvaluation(options: TestEvaluationOptions = {}): Evaluation {
  return {
    event: options.event ?? {
      type: "run_end",
      agentPath: ["main"],
      output: "done",
      outcome: "completed",
      continuations: 0,
    },
    context: testContext(options.context),
    stats: { ...DEFAULT_STATS, ...options.stats },
    tool: options.tool,
    error: options.error,
    messages: options.messages ?? [],
    hookId: options.hookId ?? "test-hook",
  };
}

interface ToolOptions {
  name: string;
  fqn?: string;
  params?: unknown;
}

export function toolCallEvaluation(tool: ToolOptions, options: TestEvaluationOptions = {}): Evaluation {
  const fqn = tool.fqn ?? tool.name;
  const params = tool.params ?? {};
  return testEvaluation({
    ...options,
    event: {
      type: "tool_call",
      agentPath: ["main"],
      toolName: tool.name,
      qualifiedName: fqn,
      toolCallId: "call-1",
      args: params,
    },
    tool: { name: tool.name, fqn, params },
  });
}

export function toolResultEvaluation(
  tool: ToolOptions & { result?: unknown; error?: string },
  options: TestEvaluationOptions = {},
): Evaluation {
  const fqn = tool.fqn ?? tool.name;
  const params = tool.params ?? {};
  const isError = tool.error !== undefined;
  return testEvaluation({
    ...options,
    event: {
      type: "tool_result",
      agentPath: ["main"],
      toolName: tool.name,
      qualifiedName: fqn,
      toolCallId: "call-1",
      args: params,
      result: tool.result,
      isError,
      ...(isError ? { error: tool.error } : {}),
    },
    tool: { name: tool.name, fqn, params, result: tool.result, ...(isError ? { error: tool.error } : {}) },
  });
}

export function testRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    step: 0,
    attempt: 1,
    system: "You are helpful.",
    messages: [{ role: "user", content: "hello" }],
    tools: [],
    toolChoice: "auto",
    ...overrides,
  };
}

export function modelRequestEvaluation(
  request: ModelRequest = testRequest(),
  options: TestEvaluationOptions = {},
) {
  return testEvaluation({
    ...options,
    event: {
      type: "model_request",
      agentPath: ["main"],
      request,
      userMessage: "hello",
      history: request.messages,
      isFirstStep: true,
    },
  });
}

export function modelErrorEvaluation(type: string, options: TestEvaluationOptions = {}): Evaluation {
  const error = { type, message: `${type} happened` };
  return testEvaluation({
    ...options,
    event: {
      type: "model_error",
      agentPath: ["main"],
      error: { ...error, retryable: true },
      attempt: 1,
      request: testRequest(),
      cause: undefined,
    },
    error,
  });
}

/** `tools`: what `callTool` can reach, by qualified or function name. */
export function testServices(
  workspace = "/work/project",
  tools: Record<string, (args: any) => unknown> = {},
): ActionServices & {
  logs: LogRecord[];
  notifications: NotificationBus;
  calls: { name: string; args: unknown }[];
} {
  const logs: LogRecord[] = [];
  const calls: { name: string; args: unknown }[] = [];
  return {
    log: recordingLogger(logs),
    logs,
    calls,
    notifications: new NotificationBus(),
    store: new MemoryStore(),
    workspace,
    async callTool(name, args) {
      calls.push({ name, args });
      const tool = tools[name];
      if (!tool) throw new Error(`unknown tool "${name}"`);
      return tool(args);
    },
  };
}
