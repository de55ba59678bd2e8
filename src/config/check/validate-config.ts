/**
 * Validates a whole config text: YAML/JSON syntax, structure (zod), hooks, policies,
 * `hooks` manifests, cross references. Returns every issue at once; `config` only when
 * there is no error (nothing half-loads).
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { nearest } from "../../errors/nearest.js";
import { readClaudeSettings } from "../../harnesses/claude/hooks/settings/read-claude-settings.js";
import { compileExpression } from "../conditions/expression.js";
import type { KindOutputs } from "../schema/kind-outputs.js";
import {
  type ConfigFile,
  configSchema,
  type HookEntry,
  type ManifestHook,
  manifestHookSchema,
  type PolicyEntry,
  policyEntrySchema,
} from "../schema/schema.js";
import type { ConfigIssue } from "../source/config-error.js";
import { documentData, parseSource, type SourceDocument } from "../source/source-map.js";
import { zodIssues } from "../source/zod-issues.js";
import { checkModels } from "./check-models.js";
import { type IssueSink, report, validateHooks } from "./validate-hooks.js";

export interface ValidatedConfig {
  config: ConfigFile;
  /** Hooks of `runtime.hooks` (and the legacy `execution.hooks`), app-wide. */
  appHooks: HookEntry[];
  agentHooks: Map<string, HookEntry[]>;
  appPolicies: PolicyEntry[];
  agentPolicies: Map<string, PolicyEntry[]>;
  manifests: ManifestHook[];
  /** `claude_hooks`: the Claude Code settings files, as absolute paths. */
  claudeSettings: string[];
  /**
   * What the schemas of its hooks' conditions and actions output, when the config is kept
   * in the validation cache (`hookwise hook`): compiling them then runs no schema.
   */
  kindOutputs?: KindOutputs;
  /**
   * Kept in the validation cache (`hookwise hook`): the config guards a harness, and checking
   * its references to the harness's tools found no problem and looked at no other file.
   */
  harnessReferencesClean?: true;
}

export interface ValidationResult {
  validated?: ValidatedConfig;
  issues: ConfigIssue[];
  source: SourceDocument;
}

function validatePolicies(sink: IssueSink, list: unknown, path: (string | number)[]): PolicyEntry[] {
  if (!Array.isArray(list)) return [];
  const out: PolicyEntry[] = [];
  list.forEach((raw, index) => {
    const at = [...path, index];
    const parsed = policyEntrySchema().safeParse(raw);
    if (!parsed.success) {
      sink.issues.push(...zodIssues(parsed.error, policyEntrySchema(), raw, sink.source, sink.file, at));
      return;
    }
    if (parsed.data.when !== undefined) {
      try {
        compileExpression(parsed.data.when);
      } catch (error) {
        report(sink, [...at, "when"], `malformed CEL expression: ${(error as Error).message.split("\n")[0]}`);
        return;
      }
    }
    out.push(parsed.data);
  });
  return out;
}

/** A top-level `hooks:` entry written as a runtime hook (a likely slip): no manifest field, a hook's own. */
function looksLikeRuntimeHook(raw: unknown): boolean {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return false;
  if ("tool_name" in raw || "event" in raw) return false;
  return "on" in raw || "action" in raw || "condition" in raw;
}

function validateManifests(sink: IssueSink, list: unknown): ManifestHook[] {
  if (!Array.isArray(list)) return [];
  const out: ManifestHook[] = [];
  list.forEach((raw, index) => {
    const at = ["hooks", index];
    if (looksLikeRuntimeHook(raw)) {
      // One hint instead of an error per field the manifest schema does not know.
      for (let issue = sink.issues.length - 1; issue >= 0; issue--) {
        const path = sink.issues[issue]!.path;
        if (path[0] === "hooks" && path[1] === index) sink.issues.splice(issue, 1);
      }
      report(
        sink,
        at,
        "this is a runtime hook (it has on/condition/action), but top-level hooks: holds tool-call injection manifests",
        {
          expected: "runtime hooks under runtime.hooks (or an agent's hooks:); here, entries with tool_name",
        },
      );
      return;
    }
    const event = (raw as { event?: unknown })?.event;
    if (typeof event === "string" && event !== "on_request_start") {
      report(sink, [...at, "event"], `manifest hooks fire only on on_request_start, not "${event}"`, {
        expected: '"on_request_start" (use runtime.hooks for other events)',
        suggestion: nearest(event, ["on_request_start"]),
      });
      return;
    }
    const parsed = manifestHookSchema().safeParse(raw);
    if (!parsed.success) {
      sink.issues.push(...zodIssues(parsed.error, manifestHookSchema(), raw, sink.source, sink.file, at));
      return;
    }
    out.push(parsed.data);
  });
  return out;
}

/**
 * `claude_hooks`: every settings file must exist and hold hooks hookwise can run; its own
 * problems are reported at their place in it (unsupported events and unknown fields as warnings).
 */
function checkClaudeHooks(sink: IssueSink, config: ConfigFile): string[] {
  if (config.claude_hooks === undefined) return [];
  const dir = dirname(resolve(sink.file));
  const listed = typeof config.claude_hooks === "string" ? [config.claude_hooks] : config.claude_hooks;
  const files: string[] = [];
  listed.forEach((path, index) => {
    const file = resolve(dir, path);
    const at = typeof config.claude_hooks === "string" ? ["claude_hooks"] : ["claude_hooks", index];
    if (existsSync(file)) files.push(file);
    else
      report(sink, at, `Claude Code settings file ${path} does not exist (${file})`, {
        expected: "a settings.json path relative to this config, e.g. .claude/settings.json",
      });
  });
  const failure = config.claude_hooks_failure ?? "open";
  // A config answers prompt handlers with its models.
  sink.issues.push(...readClaudeSettings(files, { baseDir: dir, failure, prompts: true }).issues);
  return files;
}

function checkAgents(sink: IssueSink, config: ConfigFile): void {
  const models = Object.keys(config.models);
  const ids = new Map<string, number>();
  const agentIds = config.agents.map((agent) => agent.id);
  const specialists = config.agents.filter((agent) => agent.role === "specialist").map((agent) => agent.id);
  config.agents.forEach((agent, index) => {
    const first = ids.get(agent.id);
    if (first !== undefined) report(sink, ["agents", index, "id"], `duplicate agent id "${agent.id}"`);
    else ids.set(agent.id, index);
    const model = agent.model ?? (typeof agent.brain?.model === "string" ? agent.brain.model : undefined);
    if (model !== undefined && !models.includes(model) && !model.includes(":")) {
      report(sink, ["agents", index, agent.model ? "model" : "brain"], `unknown model "${model}"`, {
        expected: models.length
          ? `one of ${models.join(", ")} (declared under models:) or "provider:model-id"`
          : "a model declared under models:",
        suggestion: nearest(model, models),
      });
    }
    agent.tools?.forEach((pattern, toolIndex) => {
      if (!pattern.startsWith("agents.")) return;
      const target = pattern.slice("agents.".length);
      if (!agentIds.includes(target)) {
        // What it may list: the specialists (each once), itself aside.
        const listable = [...new Set(specialists)]
          .filter((id) => id !== agent.id)
          .map((id) => `agents.${id}`);
        report(sink, ["agents", index, "tools", toolIndex], `unknown agent "${target}"`, {
          expected: listable.length
            ? `one of ${listable.join(", ")} (the agents with role: specialist)`
            : "an agent with role: specialist (there is none)",
          suggestion: nearest(pattern, listable),
        });
      }
    });
  });
}

/** Syntax errors listed before the rest are summed up (a file that is not YAML has hundreds). */
const MAX_SYNTAX_ERRORS = 10;

export function validateConfigText(text: string, file: string): ValidationResult {
  const source = parseSource(text);
  const sink: IssueSink = { source, file, issues: [] };
  const syntax = file.endsWith(".json") ? "JSON" : "YAML";
  const errors = source.document.errors;
  for (const error of errors.slice(0, MAX_SYNTAX_ERRORS)) {
    const position = error.linePos?.[0] ?? { line: 1, col: 1 };
    sink.issues.push({
      severity: "error",
      file,
      line: position.line,
      column: position.col,
      path: [],
      // The position is the issue's own: the parser's "at line …, column …:" is dropped.
      message: `${syntax} syntax: ${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
    });
  }
  if (errors.length > MAX_SYNTAX_ERRORS) {
    const last = sink.issues[sink.issues.length - 1]!;
    sink.issues.push({
      ...last,
      message: `${syntax} syntax: ${errors.length - MAX_SYNTAX_ERRORS} more errors not listed — does ${file} hold a hookwise config?`,
    });
  }
  if (sink.issues.length) return { issues: sink.issues, source };
  const converted = documentData(source);
  if (converted.problem) {
    const { message, line, column } = converted.problem;
    sink.issues.push({ severity: "error", file, line, column, path: [], message });
    return { issues: sink.issues, source };
  }
  const data = converted.data ?? {};
  if (typeof data !== "object" || Array.isArray(data)) {
    report(sink, [], "a config file must be a mapping", {
      expected: "top-level keys such as models, toolsets, runtime, agents, hooks",
    });
    return { issues: sink.issues, source };
  }
  const parsed = configSchema().safeParse(data);
  if (!parsed.success) sink.issues.push(...zodIssues(parsed.error, configSchema(), data, source, file));

  const raw = data as Record<string, any>;
  const appIds = new Map<string, (string | number)[]>();
  const appHooks = [
    ...validateHooks(sink, raw.runtime?.hooks, ["runtime", "hooks"], appIds),
    ...validateHooks(sink, raw.execution?.hooks, ["execution", "hooks"], appIds),
  ];
  const appPolicies = validatePolicies(sink, raw.runtime?.policies, ["runtime", "policies"]);
  const agentHooks = new Map<string, HookEntry[]>();
  const agentPolicies = new Map<string, PolicyEntry[]>();
  if (Array.isArray(raw.agents)) {
    raw.agents.forEach((agent: any, index: number) => {
      const id = typeof agent?.id === "string" ? agent.id : `#${index}`;
      agentHooks.set(id, validateHooks(sink, agent?.hooks, ["agents", index, "hooks"]));
      agentPolicies.set(id, validatePolicies(sink, agent?.policies, ["agents", index, "policies"]));
    });
  }
  const manifests = validateManifests(sink, raw.hooks);
  let claudeSettings: string[] = [];
  if (parsed.success) {
    checkAgents(sink, parsed.data);
    checkModels(sink, parsed.data);
    claudeSettings = checkClaudeHooks(sink, parsed.data);
  }
  // The config's own issues by position, then each Claude Code settings file's.
  const issues = sink.issues.sort(
    (a, b) =>
      Number(a.file !== file) - Number(b.file !== file) ||
      a.file.localeCompare(b.file) ||
      a.line - b.line ||
      a.column - b.column,
  );
  if (!parsed.success || issues.some((issue) => issue.severity === "error")) return { issues, source };
  return {
    validated: {
      config: parsed.data,
      appHooks,
      agentHooks,
      appPolicies,
      agentPolicies,
      manifests,
      claudeSettings,
    },
    issues,
    source,
  };
}
