/**
 * hookwise's hooks and policies outside hookwise's loop: what `hookwiseMiddleware` and
 * `hookwiseTools` dispatch to when an AI SDK loop (`generateText`, `streamText`,
 * `ToolLoopAgent`) drives the model and runs the tools.
 */

import type { LanguageModelV3 } from "@ai-sdk/provider";
import { consoleLogger } from "../agent/agent-runtime.js";
import type { Agent } from "../agent/types.js";
// Through the package's own lazy link: `import "hookwise/ai-sdk"` loads the config compiler
// only when `loadHookwiseConfig` is first called.
import { loadConfig } from "../config/config-functions.js";
import type { LoadConfigOptions } from "../config/load-config.js";
import { ConfigError } from "../config/source/config-error.js";
import { nodeCrypto } from "../deps/node-crypto.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { EventName } from "../events/catalogue.js";
import type { AnyEventPayload, ModelMessage } from "../events/payloads.js";
import type { AnyHook } from "../hooks/define-hook.js";
import type { HookContext, HookLogger } from "../hooks/hook-context.js";
import { HookRegistry } from "../hooks/hook-registry.js";
import { HookRunner } from "../hooks/hook-runner.js";
import { type ContextSource, OperationContext } from "../hooks/operation-context.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import { partText } from "../loop/run-input.js";
import { compilePolicies, type Policy } from "../policy/policy.js";

export interface HookwiseHooksOptions {
  hooks?: readonly AnyHook[];
  policies?: readonly Policy[];
  /** The name hooks see as `ctx.agentName` and the first element of `agentPath`. Default "ai-sdk". */
  name?: string;
  /** The session hooks see (`ctx.sessionId`, session scratchpad). Default: one per `HookwiseHooks`. */
  sessionId?: string;
  logger?: HookLogger;
  /** Timeout of every hook that sets none of its own (default 30 000 ms). */
  hookTimeoutMs?: number;
  /**
   * Answers an `ask` decision (a policy's `ask_user`, a tool's approval): the AI SDK's loop
   * cannot suspend and resume a run, so without it an ask is a denial.
   */
  approve?: (call: {
    toolName: string;
    qualifiedName: string;
    toolCallId: string;
    args: unknown;
  }) => boolean | Promise<boolean>;
}

/** Hooks and policies ready to run inside AI SDK code; make one with `hookwiseHooks` or `loadHookwiseConfig`. */
export class HookwiseHooks {
  readonly name: string;
  readonly sessionId: string;
  readonly registry: HookRegistry;
  readonly log: HookLogger;
  readonly approve: HookwiseHooksOptions["approve"];
  /** The tool names the config was checked against (`loadHookwiseConfig`'s `knownTools`). */
  readonly knownTools: readonly string[] | undefined;
  readonly #sessionScratch = new Scratchpad();
  readonly #close: (() => Promise<void>) | undefined;

  constructor(
    registry: HookRegistry,
    options: Omit<HookwiseHooksOptions, "hooks" | "policies" | "hookTimeoutMs"> & {
      knownTools?: readonly string[];
    },
    close?: () => Promise<void>,
  ) {
    this.registry = registry;
    this.name = options.name ?? "ai-sdk";
    this.sessionId = options.sessionId ?? nodeCrypto().randomUUID();
    this.log = options.logger ?? consoleLogger;
    this.approve = options.approve;
    this.knownTools = options.knownTools;
    this.#close = close;
  }

  /**
   * Calls the model made to tools its request did not offer, by call id and tool: why, and
   * how many such calls there were (a provider that repeats ids gets each call refused).
   */
  readonly #unoffered = new Map<string, { hooks: readonly string[]; count: number }>();

  /**
   * Records a tool call to a tool the model's request did not offer (`hookwiseMiddleware`
   * sees the response); `hookwiseTools` then refuses to run it.
   */
  markUnoffered(toolCallId: string, toolName: string, hooks: readonly string[]): void {
    const key = `${toolCallId}\n${toolName}`;
    const known = this.#unoffered.get(key);
    if (known) {
      known.count++;
      return;
    }
    this.#unoffered.set(key, { hooks, count: 1 });
    // Calls never executed (the loop stopped) must not pile up.
    if (this.#unoffered.size > 1000) this.#unoffered.delete(this.#unoffered.keys().next().value!);
  }

  /** Whether the call was to a tool not offered (and which hooks narrowed the tools); counts it off. */
  takeUnoffered(toolCallId: string, toolName: string): { hooks: readonly string[] } | undefined {
    const key = `${toolCallId}\n${toolName}`;
    const entry = this.#unoffered.get(key);
    if (entry === undefined) return undefined;
    if (--entry.count === 0) this.#unoffered.delete(key);
    return entry;
  }

  /** Terminates of calls the AI SDK ran before its loop's first step: call id → the error sent and the hook. */
  readonly #endedBeforeStep = new Map<string, { message: string; hook: string; reason: string }>();

  /**
   * Records a hook's terminate on a call the AI SDK ran before its loop's first step (the
   * answer to a tool approval), which no step, and so no stop condition, ever sees;
   * `hookwiseMiddleware` then answers the model call that would read its failure as ended.
   */
  markEndedBeforeStep(toolCallId: string, ended: { message: string; hook: string; reason: string }): void {
    this.#endedBeforeStep.set(toolCallId, ended);
    if (this.#endedBeforeStep.size > 1000)
      this.#endedBeforeStep.delete(this.#endedBeforeStep.keys().next().value!);
  }

  /**
   * The terminate recorded for a call whose failure `message` a model call is about to read;
   * forgets it. The message must be the error's own, so another run's call of the same id
   * (with another failure) is not ended by it.
   */
  takeEndedBeforeStep(toolCallId: string, message: string): { hook: string; reason: string } | undefined {
    const entry = this.#endedBeforeStep.get(toolCallId);
    if (entry?.message !== message) return undefined;
    this.#endedBeforeStep.delete(toolCallId);
    return { hook: entry.hook, reason: entry.reason };
  }

  /** Whether any hook listens to `event`. */
  wants(event: EventName): boolean {
    return this.registry.has(event);
  }

  /** One operation's runner and context (a model attempt, a tool call). */
  operation(input: { messages: readonly ModelMessage[]; signal?: AbortSignal; streaming: boolean }): {
    runner: HookRunner;
    context: HookContext;
    agentPath: readonly string[];
  } {
    const source: ContextSource = {
      runId: nodeCrypto().randomUUID(),
      sessionId: this.sessionId,
      agentName: this.name,
      agentPath: [this.name],
      isStreaming: input.streaming,
      signal: input.signal ?? new AbortController().signal,
      log: this.log,
      sessionScratch: this.#sessionScratch,
      runScratch: new Scratchpad(),
      stepScratch: new Scratchpad(),
      step: 0,
      input: lastUserText(input.messages),
      turn: 0,
      messages: input.messages,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    const runner = new HookRunner({ registries: [{ registry: this.registry, depth: 0 }], log: this.log });
    return { runner, context: new OperationContext(source, 1), agentPath: source.agentPath };
  }

  /** Releases what a loaded config opened (its store, MCP servers…). */
  async close(): Promise<void> {
    await this.#close?.();
  }
}

function lastUserText(messages: readonly ModelMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return message.content;
    // Text files given inline count as text (a content guard must read them).
    return message.content
      .map((part) => partText(part))
      .filter(Boolean)
      .join("\n");
  }
  return "";
}

/** The events hookwise dispatches inside AI SDK code (the middleware's and the tool wrappers'). */
const ADAPTER_EVENTS: ReadonlySet<EventName> = new Set<EventName>([
  "model_request",
  "model_response",
  "tool_call",
  "tool_result",
]);

/**
 * A decide or transform hook on any other event would never run: a guard the app believes in
 * (an input check on `run_start`) would be silently absent. Inspections may stay (a config
 * shared with a hookwise agent); they only never fire here.
 */
function refuseUnreachableGuards(registry: HookRegistry): void {
  const unreachable = registry
    .list()
    .filter(
      (hook) => !ADAPTER_EVENTS.has(hook.event) && (hook.kind === "decide" || hook.kind === "transform"),
    );
  if (!unreachable.length) return;
  const named = unreachable.map((hook) => `hook "${hook.name}" (${hook.kind} on ${hook.event})`).join(", ");
  throw new TypeError(
    `${named} would never run inside AI SDK code, which fires only ${[...ADAPTER_EVENTS].join(", ")}; ` +
      "guard the input on model_request (its userMessage), or run the agent with createAgent",
  );
}

/** Hooks and policies given in code. */
export function hookwiseHooks(options: HookwiseHooksOptions): HookwiseHooks {
  const registry = new HookRegistry(options.hooks ?? [], { defaultTimeoutMs: options.hookTimeoutMs });
  if (options.policies?.length) registry.register(compilePolicies(options.policies));
  refuseUnreachableGuards(registry);
  return new HookwiseHooks(registry, options);
}

/** The hooks and policies of an agent (`createAgent`, or one a config built). */
export function agentHooks(agent: Agent, options: Omit<HookwiseHooksOptions, "hooks" | "policies"> = {}) {
  return new HookwiseHooks(agent.runtime.registry, {
    logger: agent.runtime.log,
    ...options,
    name: options.name ?? agent.name,
  });
}

export interface LoadHookwiseConfigOptions
  extends LoadConfigOptions,
    Omit<HookwiseHooksOptions, "hooks" | "policies" | "logger"> {
  /** Whose hooks: an agent id of the config. Default: its default agent. */
  agent?: string;
}

/**
 * The hooks and policies a YAML (or JSON) config gives an agent — the app-wide ones and the
 * agent's own — ready for `hookwiseMiddleware` and `hookwiseTools`. `close()` releases
 * what the config opened.
 */
export async function loadHookwiseConfig(
  path: string,
  options: LoadHookwiseConfigOptions = {},
): Promise<HookwiseHooks> {
  const config = await loadConfig(path, options);
  try {
    // The model is the AI SDK code's: the config needs none (nor its API key).
    const agent = await config.createAgent(options.agent, { model: aiSdkModel });
    refuseUnreachableGuards(agent.runtime.registry);
    return new HookwiseHooks(
      agent.runtime.registry,
      { ...options, logger: agent.runtime.log, name: options.name ?? agent.name },
      () => config.close(),
    );
  } catch (error) {
    await config.close();
    throw options.knownTools === undefined ? withKnownToolsHint(error) : error;
  }
}

/**
 * The model of an agent whose hooks run inside AI SDK code: the AI SDK calls its own model,
 * so this one is never called; it only stands where a config's agent needs one.
 */
const aiSdkModel: LanguageModelV3 = {
  specificationVersion: "v3",
  provider: "ai-sdk",
  modelId: "your-model",
  supportedUrls: {},
  doGenerate: () => Promise.reject(new HookwiseError("loadHookwiseConfig's agent has no model of its own")),
  doStream: () => Promise.reject(new HookwiseError("loadHookwiseConfig's agent has no model of its own")),
};

/** A tool reference the config could not place: the tools may be the AI SDK code's own. */
function withKnownToolsHint(error: unknown): unknown {
  if (!ConfigError.isInstance(error)) return error;
  const hint =
    'or, for tools your AI SDK code wraps with hookwiseTools, their names in loadHookwiseConfig(path, { knownTools: ["shop.delete_all", …] })';
  return new ConfigError(
    error.issues.map((issue) =>
      issue.severity === "error" && /tool/.test(issue.message)
        ? { ...issue, expected: issue.expected ? `${issue.expected}; ${hint}` : hint }
        : issue,
    ),
  );
}

/** A payload with the adapter's lineage. */
export function adapterPayload<P extends AnyEventPayload>(
  agentPath: readonly string[],
  fields: Omit<P, "agentPath">,
): P {
  return { ...fields, agentPath } as P;
}
