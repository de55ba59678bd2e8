/**
 * A config as the hook of a coding-agent harness (`hookwise hook`): the hooks and policies
 * of one of its agents (app-wide ones included, `claude_hooks:` too), checked against the
 * harness's tools, over the config's store. No model and no toolset is started: the harness
 * runs its own model and tools.
 */
import { HarnessInputError } from "../harnesses/harness-input-error.js";
import { HARNESSES } from "../harnesses/protocols.js";
import type { HarnessName } from "../harnesses/types.js";
import { HookRegistry } from "../hooks/hook-registry.js";
import { compilePolicies, type Policy } from "../policy/policy.js";
import type { StateStore } from "../state/state-store.js";
import { resolveTelemetry } from "../telemetry/resolve-telemetry.js";
import type { TelemetrySettings } from "../telemetry/types.js";
import { buildPolicies } from "./build/build-policies.js";
import { referenceChecks } from "./check/check-references.part.js";
import { harnessesOf } from "./check/harness-tools-of.js";
import { harnessSecretMask, type ValueMask } from "./harness-secrets.js";
import { type LoadConfigOptions, type LoadedConfig, loadConfig, telemetryOptions } from "./load-config.js";
import { ConfigError, type ConfigIssue } from "./source/config-error.js";

export interface HarnessHooks {
  readonly config: LoadedConfig;
  readonly agentId: string;
  readonly registry: HookRegistry;
  readonly policies: readonly Policy[];
  readonly store: StateStore;
  /** `runtime.telemetry`: each event is a span tree; undefined when the config asks for none. */
  readonly telemetry: TelemetrySettings | undefined;
  readonly warnings: readonly ConfigIssue[];
  /** Masks the credentials in what is kept of an event (its record, an inbox post): see harness-secrets.ts. */
  readonly mask: ValueMask;
  close(): Promise<void>;
}

export interface LoadHarnessHooksOptions extends LoadConfigOptions {
  /** Whose hooks: an agent id of the config (default: its first agent, or the implicit one). */
  agent?: string;
}

export async function loadHarnessHooks(
  path: string,
  harness: HarnessName,
  options: LoadHarnessHooksOptions = {},
): Promise<HarnessHooks> {
  const config = await loadConfig(path, options);
  try {
    return { ...harnessHooksOf(config, harness, options.agent), close: () => config.close() };
  } catch (error) {
    await config.close();
    throw error;
  }
}

/**
 * The hooks and policies a loaded config answers a harness's events with (`hookwise serve`
 * builds them once per harness). The config stays open: closing it is the caller's.
 */
export function harnessHooksOf(
  config: LoadedConfig,
  harness: HarnessName,
  agent?: string,
): Omit<HarnessHooks, "close"> {
  const path = config.file;
  const guarded = harnessesOf(config.config);
  if (!guarded.includes(harness)) {
    const label = HARNESSES[harness].label;
    throw new HarnessInputError(
      guarded.length
        ? `${path} guards ${guarded.join(", ")}, not ${harness}: add it to harness: (harness: [${[...guarded, harness].join(", ")}]) to guard ${label}`
        : `${path} does not say it guards ${label}: add "harness: ${harness}" at its top level (its tool names are then ${label}'s)`,
    );
  }
  // Toolsets are not started: their tools stay unknown, so references to them only warn. A
  // config from the validation cache whose check found nothing, and read no other file, was
  // checked when it was validated.
  const { kindOutputs, harnessReferencesClean } = config.validated;
  const issues = harnessReferencesClean
    ? []
    : referenceChecks().checkHarnessReferences(
        config.config,
        config.dir,
        config.source,
        kindOutputs ? { kindOutputs } : {},
      );
  if (issues.some((issue) => issue.severity === "error")) throw new ConfigError(issues);
  const agentId = agent ?? config.defaultAgentId;
  if (!config.agentIds.includes(agentId)) {
    throw new HarnessInputError(`unknown agent "${agentId}" (agents: ${config.agentIds.join(", ")})`);
  }
  const registry = new HookRegistry(config.hooksFor(agentId));
  const policies = buildPolicies([
    ...config.validated.appPolicies,
    ...(config.validated.agentPolicies.get(agentId) ?? []),
  ]);
  if (policies.length) registry.register(compilePolicies(policies));
  return {
    config,
    agentId,
    registry,
    policies,
    store: config.store,
    telemetry: resolveTelemetry(telemetryOptions(config.config.runtime.telemetry).telemetry),
    warnings: [...config.warnings, ...issues],
    mask: harnessSecretMask(config.config),
  };
}
