/**
 * `hookwise explain <file>`: per agent and event, the hooks that will run, in order
 * (transforms → decides → inspects, each by priority), with kind, condition, limits.
 */

import { buildPolicies } from "../config/build-policies.js";
import { compileHookEntry } from "../config/compile-hook.js";
import { readConfig } from "../config/load-config.js";
import { NotificationBus } from "../config/notification-bus.js";
import type { HookEntry } from "../config/schema.js";
import { EVENT_NAMES } from "../events/catalogue.js";
import { HookRegistry } from "../hooks/hook-registry.js";
import { compilePolicies } from "../policy/policy.js";
import { MemoryStore } from "../state/memory-store.js";
import type { CliIO } from "./types.js";

function describeCondition(condition: HookEntry["condition"]): string {
  const { type, ...rest } = condition as { type: string };
  const fields = Object.entries(rest);
  return fields.length ? `${type} ${JSON.stringify(rest)}` : type;
}

function limits(entry: HookEntry): string {
  const parts: string[] = [];
  if (entry.cooldown) parts.push(`cooldown ${entry.cooldown}s`);
  if (entry.max_fires) parts.push(`max_fires ${entry.max_fires}`);
  if (entry.rate_limit) parts.push(`rate ${entry.rate_limit.max}/${entry.rate_limit.per_seconds}s`);
  if (parts.length) parts.push(`per ${entry.limit_scope}`);
  return parts.join(", ");
}

export function explainCommand(path: string, io: CliIO, options: { json?: boolean } = {}): number {
  const { validated, warnings } = readConfig(path);
  const services = {
    log: { debug() {}, info() {}, warn() {}, error() {} },
    notifications: new NotificationBus(),
    store: new MemoryStore(),
    workspace: ".",
    // explain compiles hooks to list them; it never runs an action.
    callTool: async () => {
      throw new Error("explain does not run tools");
    },
  };
  const agents = validated.config.agents.length ? validated.config.agents.map((agent) => agent.id) : ["main"];
  const report: Record<string, Record<string, unknown[]>> = {};
  for (const agentId of agents) {
    const entries = new Map<string, { entry: HookEntry; scope: string }>();
    const registry = new HookRegistry();
    const add = (entry: HookEntry, scope: string, owner?: string) => {
      if (!entry.enabled) return;
      registry.register(compileHookEntry(entry, services, owner ? { agentId: owner } : {}));
      entries.set(entry.id, { entry, scope });
    };
    for (const entry of validated.appHooks) add(entry, "app");
    for (const entry of validated.agentHooks.get(agentId) ?? []) add(entry, `agent ${agentId}`, agentId);
    const policies = [...validated.appPolicies, ...(validated.agentPolicies.get(agentId) ?? [])];
    if (policies.length) registry.register(compilePolicies(buildPolicies(policies)));
    const disabled = [...validated.appHooks, ...(validated.agentHooks.get(agentId) ?? [])].filter(
      (entry) => !entry.enabled,
    );
    report[agentId] = {};
    io.stdout.line(`agent ${agentId}`);
    for (const event of EVENT_NAMES) {
      const hooks = registry.list(event);
      if (!hooks.length) continue;
      const order = ["transform", "decide", "inspect"] as const;
      const sorted = order.flatMap((kind) => hooks.filter((hook) => hook.kind === kind));
      io.stdout.line(`  ${event}`);
      report[agentId][event] = sorted.map((hook, index) => {
        const known = entries.get(hook.name);
        const line = known
          ? `    ${index + 1}. ${hook.name} [${hook.kind}] priority ${hook.priority} · ${known.scope} · when ${describeCondition(known.entry.condition)} · ${known.entry.action.type}${limits(known.entry) ? ` · ${limits(known.entry)}` : ""}`
          : `    ${index + 1}. ${hook.name} [${hook.kind}] priority ${hook.priority} · ${policies.length} polic${policies.length === 1 ? "y" : "ies"} (exact → glob → *, deny → ask → allow)`;
        io.stdout.line(line);
        return {
          hook: hook.name,
          kind: hook.kind,
          priority: hook.priority,
          scope: known?.scope ?? "policies",
          condition: known?.entry.condition,
          action: known?.entry.action.type,
        };
      });
    }
    for (const entry of disabled) io.stdout.line(`  (disabled) ${entry.id} on ${entry.on}`);
    if (validated.manifests.length) {
      io.stdout.line("  run_start (seed-000 manifest injections)");
      validated.manifests.forEach((manifest, index) => {
        io.stdout.line(
          `    ${index + 1}. inject ${manifest.toolset_name ? `${manifest.toolset_name}.` : ""}${manifest.tool_name} · frequency ${manifest.frequency}`,
        );
      });
    }
  }
  for (const warning of warnings) io.stderr.line(`warning: ${warning.message}`);
  if (options.json) io.stdout.line(JSON.stringify(report, null, 2));
  return 0;
}
