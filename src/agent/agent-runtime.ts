/** An agent's options resolved once at `createAgent`: tools named, hooks indexed, defaults set. */

import type { HookLogger } from "../hooks/hook-context.js";
import { HookRegistry } from "../hooks/hook-registry.js";
import { toolSpecs } from "../loop/build-request.js";
import { resolveOutput } from "../loop/structured-output.js";
import { isSupportedModel } from "../models/language-model.js";
import { modelLabel } from "../models/model-settings.js";
import { compilePolicies, deniedOutright } from "../policy/policy.js";
import { resolveSessionOptions } from "../sessions/session-lease.js";
import { MemoryStore } from "../state/memory-store.js";
import { resolveTelemetry } from "../telemetry/resolve-telemetry.js";
import { type ResolvedTool, resolveTool } from "../tools/resolved-tool.js";
import { subAgentTool } from "./sub-agent-tool.js";
import type { AgentOptions, AgentRuntime } from "./types.js";

export const consoleLogger: HookLogger = {
  debug() {},
  info() {},
  warn: (message) => console.warn(`[hookwise] ${message}`),
  error: (message) => console.error(`[hookwise] ${message}`),
};

function positiveInteger(value: number | undefined, fallback: number, name: string, minimum = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) {
    throw new TypeError(`createAgent: ${name} must be an integer ≥ ${minimum} (got ${String(value)})`);
  }
  return value;
}

export function resolveRuntime(options: AgentOptions): AgentRuntime {
  if (!isSupportedModel(options.model)) {
    throw new TypeError(
      "createAgent: model must be an AI SDK language model (specificationVersion v3 or v4), e.g. openai('gpt-4.1-mini') or scriptedModel([...])",
    );
  }
  const tools = [
    ...(Array.isArray(options.tools)
      ? (options.tools as ResolvedTool[])
      : Object.entries(options.tools ?? {}).map(([name, definition]) => resolveTool(name, definition))),
    ...Object.entries(options.agents ?? {}).map(([id, agent]) => subAgentTool(agent, { name: id })),
  ];
  const toolsByName = new Map<string, ResolvedTool>();
  const canonical = new Map<string, string>();
  for (const tool of tools) {
    if (toolsByName.has(tool.functionName)) {
      throw new TypeError(`createAgent: two tools share the function name "${tool.functionName}"`);
    }
    toolsByName.set(tool.functionName, tool);
    canonical.set(tool.functionName, tool.functionName);
    canonical.set(tool.qualifiedName, tool.functionName);
  }
  const telemetry = resolveTelemetry(options.telemetry);
  const registry = new HookRegistry(options.hooks ?? [], { defaultTimeoutMs: options.hookTimeoutMs });
  const policies = options.policies ?? [];
  if (policies.length) registry.register(compilePolicies(policies));
  // A tool a policy denies whatever its arguments is not offered to the model (no tokens, no
  // tempting it); a call to it anyway still meets the policy and is denied with its reason.
  const offered = policies.length
    ? tools.filter((tool) => !deniedOutright(policies, [tool.qualifiedName, tool.functionName]))
    : tools;
  return {
    name: options.name ?? "agent",
    model: options.model,
    modelLabel: modelLabel(options.model),
    options,
    tools,
    toolSpecs: toolSpecs(offered),
    toolsByName,
    canonicalTool: (name) => canonical.get(name) ?? name,
    registry,
    toolConcurrency: positiveInteger(options.toolConcurrency, 1, "toolConcurrency"),
    maxSteps: positiveInteger(options.maxSteps, 20, "maxSteps"),
    output: resolveOutput(options.output, options.outputRetries),
    maxRetries: positiveInteger(options.maxRetries, 2, "maxRetries", 0),
    retry: options.retry ?? {},
    store: options.store ?? new MemoryStore(),
    sessions: resolveSessionOptions(options.sessions),
    log: options.logger ?? consoleLogger,
    sessionScratch: new Map(),
    traceCapacity: 0,
    ...(telemetry ? { telemetry } : {}),
  };
}
