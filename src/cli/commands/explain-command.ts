/**
 * `hookwise explain <file>`: per agent and event, the hooks that will run, in order
 * (transforms → decides → inspects, each by priority), with kind, condition, limits.
 */

import { dirname } from "node:path";
import { buildPolicies } from "../../config/build/build-policies.js";
import { compileHookEntry } from "../../config/build/compile-hook.js";
import { isTemplated } from "../../config/build/templates.js";
import { readConfig } from "../../config/load-config.js";
import { NotificationBus } from "../../config/notification-bus.js";
import type { HookEntry } from "../../config/schema/schema.js";
import { EVENT_NAMES } from "../../events/catalogue.js";
import { CONTEXT_HOOK, claudeHooks } from "../../harnesses/claude/hooks/claude-hooks.js";
import type { ClaudeHandlerInfo } from "../../harnesses/claude/hooks/compile-claude-handler.js";
import { HookRegistry } from "../../hooks/hook-registry.js";
import { compilePolicies } from "../../policy/policy.js";
import { MemoryStore } from "../../state/memory-store.js";
import type { CliIO } from "../types.js";

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

/** A Claude Code handler's line: its event and what it maps to, its matcher, what it runs. */
function describeClaude(info: ClaudeHandlerInfo): string {
  const matcher = info.matcher === undefined ? "" : ` matcher ${JSON.stringify(info.matcher)}`;
  const extras = [
    `timeout ${info.timeoutSeconds}s`,
    `failure ${info.failure}`,
    ...(info.scope === "all" ? [] : [`scope ${info.scope}`]),
    ...(info.claudeEvent === "Notification" ? ["also on every notify notification"] : []),
  ];
  return `Claude Code ${info.claudeEvent}${matcher} → ${info.event} · ${info.target} · ${extras.join(", ")}`;
}

/** A `model_request` hook that rewrites the system prompt on every attempt defeats the prompt cache. */
function uncachedSystem(entry: HookEntry): string | undefined {
  const action = entry.action as { type: string; strategy?: string; content?: unknown };
  if (action.type !== "inject_message" || action.strategy !== "system") return undefined;
  // A fixed text is the same on every request: the cache keeps serving it.
  if (typeof action.content !== "string" || !isTemplated(action.content)) return undefined;
  return "puts text that can change on every attempt into the system prompt, which defeats the provider's prompt cache (every request is read in full); strategy: auto puts the text after the last message instead (placement: end)";
}

export function explainCommand(path: string, io: CliIO, options: { json?: boolean } = {}): number {
  const { file, validated, warnings } = readConfig(path);
  // With --json, stdout is the JSON document alone (so it pipes to jq); warnings stay on stderr.
  const text = options.json ? (_line: string) => {} : (line: string) => io.stdout.line(line);
  // Compiled to be listed, never run (its warnings are among the config's).
  const claude = validated.claudeSettings.length
    ? claudeHooks(validated.claudeSettings, {
        baseDir: dirname(file),
        failure: validated.config.claude_hooks_failure ?? "open",
        onWarning: () => {},
      })
    : undefined;
  const claudeInfo = new Map((claude?.handlers ?? []).map((info) => [info.hook, info]));
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
    for (const hook of claude ?? []) registry.register(hook);
    for (const entry of validated.agentHooks.get(agentId) ?? []) add(entry, `agent ${agentId}`, agentId);
    const policies = [...validated.appPolicies, ...(validated.agentPolicies.get(agentId) ?? [])];
    if (policies.length) registry.register(compilePolicies(buildPolicies(policies)));
    const disabled = [...validated.appHooks, ...(validated.agentHooks.get(agentId) ?? [])].filter(
      (entry) => !entry.enabled,
    );
    report[agentId] = {};
    text(`agent ${agentId}`);
    for (const event of EVENT_NAMES) {
      const hooks = registry.list(event);
      if (!hooks.length) continue;
      const order = ["transform", "decide", "inspect"] as const;
      const sorted = order.flatMap((kind) => hooks.filter((hook) => hook.kind === kind));
      text(`  ${event}`);
      report[agentId][event] = sorted.map((hook, index) => {
        const known = entries.get(hook.name);
        const fromClaude = claudeInfo.get(hook.name);
        const head = `    ${index + 1}. ${hook.name} [${hook.kind}] priority ${hook.priority}`;
        const line = known
          ? `${head} · ${known.scope} · when ${describeCondition(known.entry.condition)} · ${known.entry.action.type}${limits(known.entry) ? ` · ${limits(known.entry)}` : ""}`
          : fromClaude
            ? `${head} · ${describeClaude(fromClaude)}`
            : hook.name === CONTEXT_HOOK
              ? `${head} · delivers Claude Code tool hooks' additionalContext to the model`
              : `${head} · ${policies.length} polic${policies.length === 1 ? "y" : "ies"} (exact → glob → *, deny → ask → allow)`;
        text(line);
        const cacheWarning = known && event === "model_request" ? uncachedSystem(known.entry) : undefined;
        if (cacheWarning) text(`       ⚠ ${cacheWarning}`);
        if (fromClaude)
          return {
            hook: hook.name,
            kind: hook.kind,
            priority: hook.priority,
            scope: "claude",
            claudeEvent: fromClaude.claudeEvent,
            matcher: fromClaude.matcher,
            target: fromClaude.target,
            failure: fromClaude.failure,
          };
        return {
          hook: hook.name,
          kind: hook.kind,
          priority: hook.priority,
          scope: known?.scope ?? (hook.name === CONTEXT_HOOK ? "claude" : "policies"),
          condition: known?.entry.condition,
          action: known?.entry.action.type,
          ...(cacheWarning ? { warning: cacheWarning } : {}),
        };
      });
    }
    for (const entry of disabled) text(`  (disabled) ${entry.id} on ${entry.on}`);
    if (validated.manifests.length) {
      text("  run_start (manifest injections)");
      validated.manifests.forEach((manifest, index) => {
        text(
          `    ${index + 1}. inject ${manifest.toolset_name ? `${manifest.toolset_name}.` : ""}${manifest.tool_name} · frequency ${manifest.frequency}`,
        );
      });
    }
  }
  for (const warning of warnings) io.stderr.line(`warning: ${warning.message}`);
  if (options.json) io.stdout.line(JSON.stringify(report, null, 2));
  return 0;
}
