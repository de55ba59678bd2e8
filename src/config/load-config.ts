/**
 * `loadConfig`: reads, validates and builds a config file. Validation reports every
 * problem at once (ConfigError) and nothing half-loads; models and toolsets are built
 * lazily when an agent is first created, and closed by `close()`.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import picomatch from "picomatch";
import type { AgentOptions } from "../agent/agent-options.js";
import { type Agent, createAgent } from "../agent/create-agent.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { nearest } from "../errors/nearest.js";
import type { AnyHook } from "../hooks/define-hook.js";
import type { HookLogger } from "../hooks/hook-context.js";
import { createStore, type StateConfig } from "../state/create-store.js";
import type { StateStore } from "../state/state-store.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import { type BuiltModel, buildModel } from "./build-models.js";
import { buildPolicies } from "./build-policies.js";
import { type BuiltToolset, buildToolset } from "./build-toolsets.js";
import { compileHookEntry } from "./compile-hook.js";
import { ConfigError, ConfigFileError, type ConfigIssue } from "./config-error.js";
import type { ActionServices, Evaluation } from "./evaluation.js";
import { NotificationBus } from "./notification-bus.js";
import type { AgentEntry, ConfigFile } from "./schema.js";
import { type ValidatedConfig, validateConfigText } from "./validate-config.js";

export interface LoadConfigOptions {
  /** Overrides `runtime.state` (the CLI passes SQLite beside the config by default). */
  store?: StateStore;
  /** The store used when the config has no `runtime.state` (default: memory). */
  defaultState?: StateConfig;
  logger?: HookLogger;
}

export interface LoadedConfig {
  readonly file: string;
  readonly dir: string;
  readonly config: ConfigFile;
  readonly validated: ValidatedConfig;
  /** Warnings found while validating (errors throw). */
  readonly warnings: readonly ConfigIssue[];
  readonly notifications: NotificationBus;
  readonly store: StateStore;
  /** Declared agent ids; a config without agents has one implicit agent, "main". */
  readonly agentIds: readonly string[];
  readonly defaultAgentId: string;
  /** Builds an agent (models and toolsets are built once and shared). `overrides` win. */
  createAgent(id?: string, overrides?: Partial<AgentOptions>): Promise<Agent>;
  /** The hooks an agent runs, compiled, for `explain` and introspection. */
  hooksFor(id?: string): AnyHook[];
  close(): Promise<void>;
}

const IMPLICIT_AGENT: AgentEntry = { id: "main", hooks: [], policies: [] };

/** Reads and validates a config file; throws ConfigError listing every error. */
export function readConfig(path: string): {
  file: string;
  validated: ValidatedConfig;
  warnings: ConfigIssue[];
} {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code;
    throw new ConfigFileError(
      path,
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : String(code ?? error),
    );
  }
  const result = validateConfigText(text, path);
  if (!result.validated) throw new ConfigError(result.issues);
  return {
    file,
    validated: result.validated,
    warnings: result.issues.filter((issue) => issue.severity === "warning"),
  };
}

export async function loadConfig(path: string, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const { file, validated, warnings } = readConfig(path);
  const dir = dirname(file);
  const { config } = validated;
  const store =
    options.store ?? createStore(config.runtime.state ?? options.defaultState ?? { kind: "memory" }, dir);
  const notifications = new NotificationBus();
  const logger = options.logger;
  let toolsets: Promise<BuiltToolset[]> | undefined;
  const buildToolsets = () => {
    toolsets ??= Promise.all(
      Object.entries(config.toolsets).map(([name, entry]) => buildToolset(name, entry, dir)),
    );
    return toolsets;
  };
  const services: ActionServices = {
    log: logger ?? {
      debug() {},
      info: (m) => console.error(m),
      warn: (m) => console.error(m),
      error: (m) => console.error(m),
    },
    notifications,
    store,
    workspace: dir,
    callTool: (name, args, evaluation) => callConfigTool(buildToolsets, name, args, evaluation),
  };
  const agents = config.agents.length ? config.agents : [IMPLICIT_AGENT];
  const models = new Map<string, BuiltModel>();
  const modelFor = (name: string): BuiltModel => {
    let built = models.get(name);
    if (!built) {
      const entry = config.models[name] ?? (name.includes(":") ? name : undefined);
      if (entry === undefined) {
        throw new HookwiseError(
          `model "${name}" is not declared under models:` +
            (Object.keys(config.models).length
              ? ` (declared: ${Object.keys(config.models).join(", ")})`
              : ""),
        );
      }
      built = buildModel(name, entry, dir);
      models.set(name, built);
    }
    return built;
  };

  const hooksFor = (id?: string): AnyHook[] => {
    const agent = agents.find((item) => item.id === (id ?? agents[0]!.id));
    if (!agent) throw new HookwiseError(`unknown agent "${id}"`);
    const contextWindow =
      agent.model && config.models[agent.model] && typeof config.models[agent.model] === "object"
        ? (config.models[agent.model] as { context_window?: number }).context_window
        : undefined;
    const stats = { contextWindow, maxTurns: agent.max_steps ?? config.runtime.max_steps ?? 20 };
    const app = validated.appHooks
      .filter((entry) => entry.enabled)
      .map((entry) =>
        compileHookEntry(entry, services, { ...stats, defaultTimeout: config.runtime.hook_timeout }),
      );
    const own = (validated.agentHooks.get(agent.id) ?? [])
      .filter((entry) => entry.enabled)
      .map((entry) =>
        compileHookEntry(entry, services, {
          ...stats,
          agentId: agent.id,
          defaultTimeout: config.runtime.hook_timeout,
        }),
      );
    return [...app, ...own];
  };

  return {
    file,
    dir,
    config,
    validated,
    warnings,
    notifications,
    store,
    agentIds: agents.map((agent) => agent.id),
    defaultAgentId: agents[0]!.id,
    hooksFor,
    async createAgent(id, overrides = {}) {
      const agentId = id ?? agents[0]!.id;
      const agent = agents.find((item) => item.id === agentId);
      if (!agent) {
        const ids = agents.map((item) => item.id);
        const hint = nearest(agentId, ids);
        throw new HookwiseError(
          `unknown agent "${agentId}" (agents: ${ids.join(", ")})${hint ? `; did you mean "${hint}"?` : ""}`,
        );
      }
      toolsets ??= Promise.all(
        Object.entries(config.toolsets).map(([name, entry]) => buildToolset(name, entry, dir)),
      );
      const allTools = (await toolsets).flatMap((toolset) => toolset.tools);
      const tools = selectTools(allTools, agent);
      let model = overrides.model;
      if (!model) {
        const name =
          agent.model ??
          (typeof agent.brain?.model === "string" ? agent.brain.model : undefined) ??
          (config.models.default ? "default" : Object.keys(config.models)[0]);
        if (!name)
          throw new HookwiseError(
            `agent "${agent.id}" has no model: declare one under models: (e.g. default: "scripted:./script.yaml")`,
          );
        model = modelFor(name).model;
      }
      return createAgent({
        name: agent.id,
        model,
        instructions: agent.instructions,
        tools,
        hooks: hooksFor(agent.id),
        policies: buildPolicies([...validated.appPolicies, ...(validated.agentPolicies.get(agent.id) ?? [])]),
        toolConcurrency: agent.tool_concurrency ?? config.runtime.tool_concurrency,
        maxSteps: agent.max_steps ?? config.runtime.max_steps,
        maxRetries: agent.max_retries ?? config.runtime.max_retries,
        store,
        models: (name: string) => (config.models[name] ? modelFor(name).model : undefined),
        ...(logger ? { logger } : {}),
        ...overrides,
      });
    },
    async close() {
      if (toolsets) await Promise.all((await toolsets.catch(() => [])).map((toolset) => toolset.close()));
      await store.close();
    },
  };
}

function selectTools(all: readonly ResolvedTool[], agent: AgentEntry): ResolvedTool[] {
  if (!agent.tools) return [...all];
  const patterns = agent.tools.filter((pattern) => !pattern.startsWith("agents."));
  // Checked here, when the run starts: MCP tools are known only once their servers answer.
  for (const pattern of patterns) {
    const test = picomatch(pattern, { dot: true });
    if (!all.some((tool) => test(tool.qualifiedName) || test(tool.functionName))) {
      const names = all.map((tool) => tool.qualifiedName);
      const hint = nearest(pattern, names);
      throw new HookwiseError(
        `agent "${agent.id}": tools pattern "${pattern}" matches no tool` +
          `${hint ? `; did you mean "${hint}"?` : ""} (tools: ${names.join(", ") || "none"})`,
      );
    }
  }
  const test = picomatch(patterns, { dot: true });
  return all.filter((tool) => test(tool.qualifiedName) || test(tool.functionName));
}

/** The `callTool` service of actions: any tool of the config's toolsets, validated first. */
async function callConfigTool(
  toolsets: () => Promise<BuiltToolset[]>,
  name: string,
  args: unknown,
  evaluation: Evaluation,
): Promise<unknown> {
  const all = (await toolsets()).flatMap((toolset) => toolset.tools);
  const tool = all.find((item) => item.qualifiedName === name || item.functionName === name);
  if (!tool) {
    const names = all.map((item) => item.qualifiedName);
    const hint = nearest(name, names);
    throw new HookwiseError(
      `unknown tool "${name}"${hint ? `; did you mean "${hint}"?` : ""} (tools: ${names.join(", ") || "none"})`,
    );
  }
  const checked = tool.input.validate(args);
  if (!checked.ok)
    throw new HookwiseError(`invalid arguments for "${tool.qualifiedName}": ${checked.message}`);
  const { context } = evaluation;
  return tool.execute(checked.value, {
    toolCallId: `hook_${evaluation.hookId}_${Date.now().toString(36)}`,
    signal: context.signal,
    context: {
      sessionId: context.sessionId,
      runId: context.runId,
      step: context.step,
      agentName: context.agentName,
    },
  });
}
