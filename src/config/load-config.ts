/**
 * `loadConfig`: reads, validates and builds a config file. Validation reports every
 * problem at once (ConfigError) and nothing half-loads; models and toolsets are built
 * lazily when an agent is first created, and closed by `close()`.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Agent, AgentOptions } from "../agent/types.js";
import { picomatch } from "../deps/picomatch.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { nearest } from "../errors/nearest.js";
import type { ClaudeHookSet } from "../harnesses/claude/hooks/claude-hooks.js";
import type { AnyHook } from "../hooks/define-hook.js";
import type { HookLogger } from "../hooks/hook-context.js";
import { toolGlob } from "../hooks/tool-glob.js";
import { LanguageServers } from "../lsp/language-servers.js";
import { createStore, resolveStateConfig, type StateConfig } from "../state/create-store.js";
import type { StateStore } from "../state/state-store.js";
import { trackResource } from "../tools/open-resources.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import type { buildModel as BuildModel, BuiltModel } from "./build/build-models.js";
import { buildPolicies } from "./build/build-policies.js";
import type { BuiltToolset, ConfigSource } from "./build/build-toolsets.js";
import { compileHookEntry } from "./build/compile-hook.js";
import type { ActionServices, Evaluation } from "./build/evaluation.js";
import { referenceChecks } from "./check/check-references.part.js";
import { kindOutputsOf } from "./check/kind-outputs-of.js";
import type { ValidatedConfig } from "./check/validate-config.js";
import { validation } from "./check/validate-config.part.js";
import { compileManifestHook } from "./manifests/compile-manifest.js";
import { NotificationBus } from "./notification-bus.js";
import type { AgentEntry, ConfigFile } from "./schema/schema.js";
import { keepScriptPosition } from "./script-position.js";
import { ConfigError, type ConfigIssue, ConfigReferenceError } from "./source/config-error.js";
import { readConfigFile } from "./source/read-config-file.js";
import type { SourceDocument } from "./source/source-map.js";
import { sourceMapModule } from "./source/source-map.part.js";
import { cachedValidation } from "./validation-cache.js";

export interface LoadConfigOptions {
  /** Overrides `runtime.state` and `HOOKWISE_STATE_URL`. */
  store?: StateStore;
  /** The store used when neither `runtime.state` nor `HOOKWISE_STATE_URL` names one (default: memory; the CLI passes SQLite beside the config). */
  defaultState?: StateConfig;
  logger?: HookLogger;
  /** The clock (ms since the epoch) of injection TTLs (`hooks:` manifest entries); default `Date.now`. */
  now?: () => number;
  /**
   * More Claude Code settings files whose hooks run, after the config's `claude_hooks`
   * (relative to the current folder: the CLI's `--claude-settings`).
   */
  claudeSettings?: readonly string[];
  /**
   * Tools the config's policies and hooks may name besides its toolsets' own, by qualified
   * name (`shop.delete_all`): the tools AI SDK code wraps with `hookwiseTools`. A pattern
   * that matches no tool at all is still an error.
   */
  knownTools?: readonly string[];
  /**
   * A folder to keep the validated config in between processes (`hookwise hook` passes
   * `~/.cache/hookwise/validated`): a config that did not change is not validated again by
   * the same build of hookwise. Only the built package keeps one.
   */
  validationCache?: string;
}

export interface LoadedConfig {
  readonly file: string;
  readonly dir: string;
  readonly config: ConfigFile;
  readonly validated: ValidatedConfig;
  /** Positions in the file, for problems found after loading (references to tools). */
  readonly source: ConfigSource;
  /** Warnings found while validating (errors throw), the Claude Code settings files' included. */
  readonly warnings: readonly ConfigIssue[];
  /** The compiled `claude_hooks` (and `claudeSettings`), when there are any. */
  readonly claudeHooks: ClaudeHookSet | undefined;
  readonly notifications: NotificationBus;
  readonly store: StateStore;
  /** Declared agent ids; a config without agents has one implicit agent, "main". */
  readonly agentIds: readonly string[];
  readonly defaultAgentId: string;
  /** Builds an agent (models and toolsets are built once and shared). `overrides` win. */
  createAgent(id?: string, overrides?: Partial<AgentOptions>): Promise<Agent>;
  /** The hooks an agent runs, compiled, for `explain` and introspection. */
  hooksFor(id?: string): AnyHook[];
  /**
   * Every scripted model the config builds, now or later (an agent's, a sub-agent's, a
   * fallback), reads its script from the session's place in `store`: `session` is the
   * session's id, or a function answering the session of the call being made (undefined: the
   * call is no session's, and the model keeps its own place for such calls).
   */
  keepScriptPositions(session: string | (() => string | undefined)): void;
  /**
   * Calls `listener` whenever a toolset's tools changed (an MCP server's list changed);
   * agents built after that see the new tools. Returns the function that stops it.
   */
  onToolsChanged(listener: () => void): Promise<() => void>;
  close(): Promise<void>;
}

const IMPLICIT_AGENT: AgentEntry = { id: "main", hooks: [], policies: [] };

/** Reads and validates a config file; throws ConfigError listing every error. */
export function readConfig(
  path: string,
  options: { validationCache?: string } = {},
): {
  file: string;
  validated: ValidatedConfig;
  warnings: ConfigIssue[];
  /** Positions in the file, for problems found later (a toolset's settings). */
  source: ConfigSource;
} {
  const file = resolve(path);
  const text = readConfigFile(path, file);
  let document: SourceDocument | undefined;
  const build = options.validationCache === undefined ? undefined : buildFingerprint();
  const validate = () => {
    const result = validation().validateConfigText(text, path);
    document = result.source;
    if (!result.validated) throw new ConfigError(result.issues);
    const source = result.source;
    return {
      // Kept with the entry: a config served from it compiles its hooks without their schemas
      // (and, guarding a harness, checks its references no more when they were clean).
      validated:
        build === undefined
          ? result.validated
          : {
              ...result.validated,
              kindOutputs: kindOutputsOf(result.validated),
              ...(referenceChecks().harnessReferencesClean(result.validated.config, dirname(file), {
                file: path,
                positionOf: (at) => sourceMapModule().positionOf(source, at),
              })
                ? { harnessReferencesClean: true as const }
                : {}),
            },
      warnings: result.issues.filter((issue) => issue.severity === "warning"),
    };
  };
  const { validated, warnings } =
    build === undefined
      ? validate()
      : cachedValidation(options.validationCache!, file, text, build, validate)!;
  return {
    file,
    validated,
    warnings,
    // A config read from the cache is parsed again only when a position is asked for.
    source: {
      file: path,
      positionOf: (at) => {
        document ??= sourceMapModule().parseSource(text);
        return sourceMapModule().positionOf(document, at);
      },
    },
  };
}

/**
 * What the validation cache's entries are keyed by besides the text: this build of hookwise.
 * Built, this module is a file whose name holds a hash of its code and of the files it
 * imports (validation among them), or (`hookwise hook`'s own build, whose files keep their
 * names) whose first line does (a hash of every file of that build, the parts it loads at
 * first use among them); the packages validation runs on are files of their own beside it,
 * each starting with a hash of its content. Not their sizes and times: npm gives every file
 * it installs the same time, so a package rebuilt to the same size would look unchanged.
 * Run from the sources (many files, any of which may change), nothing is kept: undefined.
 */
function buildFingerprint(): string | undefined {
  const self = import.meta.url;
  if (!self.startsWith("file:") || !/\.[mc]js$/.test(self)) return undefined;
  const deps = ["zod", "yaml", "cel-js", "picomatch"].map((name) =>
    fileURLToPath(new URL(`./deps/${name}.cjs`, self)),
  );
  try {
    const hashes = deps.map(firstLine);
    if (!hashes.every((line) => line.startsWith("// content-hash: "))) return undefined;
    return [self, ...(self.endsWith(".cjs") ? [firstLine(fileURLToPath(self))] : []), ...hashes].join("\n");
  } catch {
    return undefined;
  }
}

/** The first line of `file` (the build's `// content-hash: …`), read alone. */
function firstLine(file: string): string {
  const head = Buffer.alloc(64);
  const fd = openSync(file, "r");
  try {
    return head.toString("latin1", 0, readSync(fd, head, 0, head.length, 0)).split("\n")[0]!;
  } finally {
    closeSync(fd);
  }
}

export async function loadConfig(path: string, options: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const { file, validated, warnings, source } = readConfig(
    path,
    options.validationCache === undefined ? {} : { validationCache: options.validationCache },
  );
  const dir = dirname(file);
  const { config } = validated;
  const store =
    options.store ??
    createStore(resolveStateConfig(config.runtime.state, options.defaultState ?? { kind: "memory" }), dir);
  const notifications = new NotificationBus();
  const logger = options.logger;
  const log: HookLogger = logger ?? {
    debug() {},
    info: (m) => console.error(m),
    warn: (m) => console.error(m),
    error: (m) => console.error(m),
  };
  // Claude Code hooks are app-wide; they see the toolsets' tools by their Claude Code names
  // once the toolsets are built (the first agent built sets them).
  let claudeTools: readonly ResolvedTool[] = [];
  const extraSettings = (options.claudeSettings ?? []).map((path) => resolve(path));
  const claudeWarnings: ConfigIssue[] = [];
  const claudeSources = [...validated.claudeSettings, ...extraSettings];
  // Imported when the config has Claude Code settings (most have none).
  const claude = claudeSources.length
    ? (await import("../harnesses/claude/hooks/claude-hooks.js")).claudeHooks(claudeSources, {
        baseDir: dir,
        failure: config.claude_hooks_failure ?? "open",
        tools: () => claudeTools,
        transcriptDir: join(dir, ".hookwise", "claude-transcripts"),
        notifications,
        log,
        // `type: "prompt"` handlers ask a model of the config: the one they name, else the default.
        answerPrompt: async ({ prompt, model, signal }) => {
          const [{ buildModel }, { askModel }] = await Promise.all([
            import("./build/build-models.js"),
            import("./build/ask-model.js"),
          ]);
          return askModel(modelFor(model ?? defaultModelName(), buildModel).model, prompt, signal);
        },
        // The config's own files were validated (their warnings are in `warnings` already).
        onWarning: (issue) => {
          if (extraSettings.includes(issue.file)) claudeWarnings.push(issue);
        },
      })
    : undefined;
  let toolsets: Promise<BuiltToolset[]> | undefined;
  // Toolsets (and their code) are built when an agent or an action first needs a tool: a
  // harness's hook never does.
  const buildToolsets = () => {
    toolsets ??= import("./build/build-toolsets.js").then(({ buildToolsets: buildAll }) =>
      buildAll(config.toolsets, dir, { store, source, ...(logger ? { log: logger } : {}) }),
    );
    return toolsets;
  };
  // Language servers start on first use (lsp_diagnose, lsp.* tools) and close with the config.
  const languageServers = new LanguageServers({ root: dir });
  // Actions also reach an implicit `lsp` toolset unless the config declares its own.
  // Made when an action first calls a tool: most loads (a harness's hook) never do.
  let implicitLsp: readonly ResolvedTool[] | undefined;
  const actionTools = async () => {
    implicitLsp ??= config.toolsets.lsp
      ? []
      : (await import("../lsp/lsp-toolset.js")).lspToolset(languageServers).tools;
    return [...(await buildToolsets()).flatMap((toolset) => toolset.tools), ...implicitLsp];
  };
  const services: ActionServices = {
    log,
    notifications,
    store,
    workspace: dir,
    callTool: (name, args, evaluation) => callConfigTool(actionTools, name, args, evaluation),
    languageServers,
    ...(options.now ? { now: options.now } : {}),
  };
  const agents = config.agents.length ? config.agents : [IMPLICIT_AGENT];
  const kindOutputs = validated.kindOutputs ? { kindOutputs: validated.kindOutputs } : {};
  const models = new Map<string, BuiltModel>();
  let scriptSession: string | (() => string | undefined) | undefined;
  const defaultModelName = () =>
    config.models.default ? "default" : (Object.keys(config.models)[0] ?? "default");
  /** `buildModel`: the model builder, imported by the caller (a harness's hook builds no model). */
  const modelFor = (name: string, buildModel: typeof BuildModel): BuiltModel => {
    let built = models.get(name);
    if (!built) {
      const entry = config.models[name] ?? (name.includes(":") ? name : undefined);
      if (entry === undefined) {
        throw new ConfigReferenceError(
          `model "${name}" is not declared under models:` +
            (Object.keys(config.models).length
              ? ` (declared: ${Object.keys(config.models).join(", ")})`
              : ""),
        );
      }
      built = buildModel(name, entry, dir);
      if (scriptSession !== undefined) keepScriptPosition(built.model, store, scriptSession);
      models.set(name, built);
    }
    return built;
  };

  /** `onlyOwn`: the agent's own hooks, without app-wide ones (a sub-agent inherits those). */
  const hooksFor = (id?: string, onlyOwn = false): AnyHook[] => {
    const agent = agents.find((item) => item.id === (id ?? agents[0]!.id));
    if (!agent) throw new ConfigReferenceError(`unknown agent "${id}"`);
    const stats = {
      contextWindow: configuredContextWindow(config, agent),
      maxTurns: agent.max_steps ?? config.runtime.max_steps ?? 20,
    };
    // Manifests (top-level `hooks`): synthetic tool-call injection at run start.
    const manifests = validated.manifests.map((manifest, index) =>
      compileManifestHook(manifest, index, services, stats),
    );
    const app = validated.appHooks
      .filter((entry) => entry.enabled)
      .map((entry) =>
        compileHookEntry(entry, services, {
          ...stats,
          defaultTimeout: config.runtime.hook_timeout,
          ...kindOutputs,
        }),
      );
    const own = (validated.agentHooks.get(agent.id) ?? [])
      .filter((entry) => entry.enabled)
      .map((entry) =>
        compileHookEntry(entry, services, {
          ...stats,
          agentId: agent.id,
          defaultTimeout: config.runtime.hook_timeout,
          ...kindOutputs,
        }),
      );
    return onlyOwn ? own : [...manifests, ...app, ...(claude ?? []), ...own];
  };

  /**
   * The sub-agent tools of an agent: each `agents.<id>` pattern of its
   * `tools:` names specialists (`role: specialist`). A sub-agent gets only its own hooks and
   * policies: the app-wide ones, and its parent's, reach it through the parent's registries
   * (registering them twice would fire them twice). `lineage` catches cycles.
   */
  const subAgentsOf = async (
    agent: AgentEntry,
    lineage: readonly string[],
    /** The caller's approval channel (the CLI's prompt): a sub-agent's asks reach the same human. */
    approvals: AgentOptions["approvals"],
  ): Promise<ResolvedTool[]> => {
    const patterns = (agent.tools ?? []).filter((pattern) => pattern.startsWith("agents."));
    if (patterns.length === 0) return [];
    const tools: ResolvedTool[] = [];
    for (const candidate of agents) {
      const listed = patterns.filter((pattern) => toolGlob(pattern)(`agents.${candidate.id}`));
      if (listed.length === 0) continue;
      const explicit = listed.some((pattern) => !picomatch.scan(pattern).isGlob);
      if (candidate.id === agent.id) {
        if (!explicit) continue;
        throw new HookwiseError(`agent "${agent.id}" lists itself (agents.${agent.id}) as a sub-agent`);
      }
      if (candidate.role !== "specialist") {
        if (!explicit) continue;
        throw new HookwiseError(
          `agent "${agent.id}" lists agents.${candidate.id}, but "${candidate.id}" is not a sub-agent: give it role: specialist`,
        );
      }
      if (lineage.includes(candidate.id)) {
        throw new HookwiseError(
          `sub-agents form a cycle: ${[...lineage, candidate.id].map((id) => `agents.${id}`).join(" → ")}`,
        );
      }
      const { subAgentTool } = await import("../agent/sub-agent-tool.js");
      const child = await createOne(
        candidate.id,
        {
          hooks: hooksFor(candidate.id, true),
          policies: buildPolicies(validated.agentPolicies.get(candidate.id) ?? []),
          ...(approvals ? { approvals } : {}),
        },
        lineage,
      );
      tools.push(
        subAgentTool(child, {
          name: candidate.id,
          ...(candidate.description ? { description: candidate.description } : {}),
        }),
      );
    }
    return tools;
  };

  async function createOne(
    id: string | undefined,
    overrides: Partial<AgentOptions>,
    lineage: readonly string[],
  ): Promise<Agent> {
    const agentId = id ?? agents[0]!.id;
    const agent = agents.find((item) => item.id === agentId);
    if (!agent) {
      const ids = agents.map((item) => item.id);
      const hint = nearest(agentId, ids);
      throw new ConfigReferenceError(
        `unknown agent "${agentId}" (agents: ${ids.join(", ")})${hint ? `; did you mean "${hint}"?` : ""}`,
      );
    }
    const allTools = (await buildToolsets()).flatMap((toolset) => toolset.tools);
    claudeTools = allTools;
    // The agent, its loop and its models are imported when the first agent is built: a
    // harness's hook (`hookwise hook`) builds none.
    const [{ createAgent }, { referencesChecked }, { buildModel }] = await Promise.all([
      import("../agent/create-agent.js"),
      import("../agent/check-tool-references.js"),
      import("./build/build-models.js"),
    ]);
    // Every toolset answered: what `validate` could only warn about is now known (MCP tools).
    const extraTools = [
      ...(Array.isArray(overrides.tools)
        ? (overrides.tools as ResolvedTool[])
        : Object.keys(overrides.tools ?? {}).map((name) => ({ qualifiedName: name, functionName: name }))),
      ...(options.knownTools ?? []).map((name) => ({
        qualifiedName: name,
        functionName: name.replace(/\./g, "_"),
      })),
    ];
    const { checkReferences, toolCatalogue } = referenceChecks();
    const refused = checkReferences(
      config,
      dir,
      source,
      toolCatalogue(config, [...allTools, ...extraTools], [], implicitLsp),
      { modelGiven: overrides.model !== undefined, ...kindOutputs },
    );
    if (refused.some((issue) => issue.severity === "error")) throw new ConfigError(refused);
    const tools = [
      ...selectTools(allTools, agent),
      ...(await subAgentsOf(agent, [...lineage, agent.id], overrides.approvals)),
    ];
    let model = overrides.model;
    if (!model) {
      const name =
        agent.model ??
        (typeof agent.brain?.model === "string" ? agent.brain.model : undefined) ??
        (config.models.default ? "default" : Object.keys(config.models)[0]);
      if (!name) {
        // A config that guards harnesses needs no model (validate says valid): running it as
        // an agent is the caller's mistake, named as such (exit 2).
        const guarded = config.harness === undefined ? [] : [config.harness].flat();
        throw new ConfigReferenceError(
          guarded.length
            ? `agent "${agent.id}" has no model: this config guards ${guarded.join(", ")} through hookwise hook, which needs none; to run it as an agent, declare one under models: (e.g. default: "scripted:./script.yaml") or give --model`
            : `agent "${agent.id}" has no model: declare one under models: (e.g. default: "scripted:./script.yaml")`,
        );
      }
      model = modelFor(name, buildModel).model;
    }
    return createAgent({
      // Checked above, against the config's lines and every agent's tools.
      ...{ [referencesChecked]: true },
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
      ...(config.runtime.record_runs !== undefined ? { recordRuns: config.runtime.record_runs } : {}),
      sessions: {
        ...(config.runtime.session_wait !== undefined ? { waitMs: config.runtime.session_wait * 1000 } : {}),
        ...(config.runtime.session_lease !== undefined
          ? { leaseMs: config.runtime.session_lease * 1000 }
          : {}),
      },
      models: (name: string) => (config.models[name] ? modelFor(name, buildModel).model : undefined),
      ...(logger ? { logger } : {}),
      contextWindow: configuredContextWindow(config, agent),
      ...(agent.cache?.breakpoints || config.runtime.cache?.breakpoints
        ? { cache: { breakpoints: agent.cache?.breakpoints ?? config.runtime.cache?.breakpoints } }
        : {}),
      ...telemetryOptions(config.runtime.telemetry),
      ...overrides,
      // `approval_ttl` (seconds) merges with an overriding channel (the CLI's prompt).
      approvals: approvalOptions(agent.approval_ttl ?? config.runtime.approval_ttl, overrides.approvals),
    });
  }

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      untrack();
      await claude?.close();
      if (toolsets) await Promise.all((await toolsets.catch(() => [])).map((toolset) => toolset.close()));
      await languageServers.close();
      await store.close();
    })();
    return closing;
  };
  // The CLI's SIGINT handler closes every open config (closeAllResources).
  const untrack = trackResource({ close });

  return {
    file,
    dir,
    config,
    validated,
    source,
    warnings: [...warnings, ...claudeWarnings],
    claudeHooks: claude,
    notifications,
    store,
    agentIds: agents.map((agent) => agent.id),
    defaultAgentId: agents[0]!.id,
    hooksFor,
    createAgent: (id, overrides = {}) => createOne(id, overrides, []),
    onToolsChanged: async (listener) => {
      const stops = (await buildToolsets()).map((toolset) => toolset.onToolsChanged?.(listener));
      return () => {
        for (const stop of stops) stop?.();
      };
    },
    keepScriptPositions: (session) => {
      scriptSession = session;
      for (const built of models.values()) keepScriptPosition(built.model, store, session);
    },
    close,
  };
}

function approvalOptions(
  ttlSeconds: number | undefined,
  override: AgentOptions["approvals"],
): AgentOptions["approvals"] {
  return { ...(ttlSeconds === undefined ? {} : { ttlMs: ttlSeconds * 1000 }), ...override };
}

/** `models.<name>.context_window` of the agent's model, when the config declares one. */
function configuredContextWindow(config: ConfigFile, agent: AgentEntry): number | undefined {
  const name =
    agent.model ??
    (typeof agent.brain?.model === "string" ? agent.brain.model : undefined) ??
    (config.models.default ? "default" : Object.keys(config.models)[0]);
  const entry = name === undefined ? undefined : config.models[name];
  return typeof entry === "object" ? entry.context_window : undefined;
}

function selectTools(all: readonly ResolvedTool[], agent: AgentEntry): ResolvedTool[] {
  if (!agent.tools) return [...all];
  const patterns = agent.tools.filter((pattern) => !pattern.startsWith("agents."));
  // Checked here, when the run starts: MCP tools are known only once their servers answer.
  for (const pattern of patterns) {
    const test = toolGlob(pattern);
    if (!all.some((tool) => test(tool.qualifiedName) || test(tool.functionName))) {
      const names = all.map((tool) => tool.qualifiedName);
      const hint = nearest(pattern, names);
      throw new HookwiseError(
        `agent "${agent.id}": tools pattern "${pattern}" matches no tool` +
          `${hint ? `; did you mean "${hint}"?` : ""} (tools: ${names.join(", ") || "none"})`,
      );
    }
  }
  const test = toolGlob(patterns);
  return all.filter((tool) => test(tool.qualifiedName) || test(tool.functionName));
}

/** The `callTool` service of actions: any tool of the config's toolsets, validated first. */
async function callConfigTool(
  tools: () => Promise<ResolvedTool[]>,
  name: string,
  args: unknown,
  evaluation: Evaluation,
): Promise<unknown> {
  const all = await tools();
  const find = (wanted: string) =>
    all.find((item) => item.qualifiedName === wanted || item.functionName === wanted);
  // `mcp.<server>.<tool>` names the tool <tool> of the toolset <server>.
  const tool = find(name) ?? (name.startsWith("mcp.") ? find(name.slice("mcp.".length)) : undefined);
  if (!tool) {
    const names = all.map((item) => item.qualifiedName);
    const hint = nearest(name, names);
    throw new HookwiseError(
      `unknown tool "${name}"${hint ? `; did you mean "${hint}"?` : ""} (tools: ${names.join(", ") || "none"})`,
    );
  }
  const checked = await tool.input.check(args);
  if (!checked.ok)
    throw new HookwiseError(`invalid arguments for "${tool.qualifiedName}": ${checked.message}`);
  const { context } = evaluation;
  return tool.execute(checked.value, {
    toolCallId: `hook_${evaluation.hookId}_${Date.now().toString(36)}`,
    signal: context.signal,
    abortSignal: context.signal,
    messages: [...context.messages],
    context: {
      sessionId: context.sessionId,
      runId: context.runId,
      step: context.step,
      agentName: context.agentName,
    },
  });
}

/** `runtime.telemetry` as `createAgent({ telemetry })` takes it (the block given: on unless `enabled: false`). */
export function telemetryOptions(
  telemetry: ConfigFile["runtime"]["telemetry"],
): Pick<AgentOptions, "telemetry"> {
  if (telemetry === undefined) return {};
  return {
    telemetry: {
      enabled: telemetry.enabled ?? true,
      recordInputs: telemetry.record_inputs ?? false,
      recordOutputs: telemetry.record_outputs ?? false,
      ...(telemetry.function_id !== undefined ? { functionId: telemetry.function_id } : {}),
    },
  };
}
