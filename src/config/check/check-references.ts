/**
 * What a run would refuse, checked before it starts — by `hookwise validate` (with the tools
 * it can list without starting a server) and again by `run` once every toolset answered:
 *
 * - a policy's `tool` (deny, ask_user, allow), an agent's `tools:` pattern and a hook's
 *   `tool_name` condition must match a tool, and a `toolset.` prefix must name a declared
 *   toolset (`*` always matches). Under an odd number of `not`s a `tool_name` that matches
 *   nothing makes the condition true for every tool, so there it is a warning;
 * - `call_tool` / `module_action` (and their `_inject` forms), `pipe`, `inject_tool_call` and
 *   a `hooks:` injection entry must name a tool of a toolset, not a sub-agent (a hook's call
 *   would run it outside its caller's policies), and literal arguments (no `{{…}}`) of a
 *   `call_tool` or an injection must fit the tool's input schema when it is known;
 * - every agent has a model, and a `scripted:` model's script file exists;
 * - a `shell` action's program, written as a path, exists and can run (resolved as the
 *   command runs: against `cwd:`, itself against the config's folder).
 *
 * Tools of a toolset known only when its server answers (MCP) make a reference under its
 * prefix a warning here (`pending`); at run time nothing is pending, so it is an error.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { nearest } from "../../errors/nearest.js";
import { loadScript } from "../../models/load-script.js";
import { ScriptFileError } from "../../models/script-file-error.js";
import type { NormalizedSchema } from "../../tools/input-schema.js";
import { ACTIONS } from "../actions/index.js";
import { ShellWordsError, splitShellWords } from "../actions/shell/split-shell-words.js";
import type { ConfigSource } from "../build/build-toolsets.js";
import { CONDITIONS } from "../conditions/index.js";
import { splitAlternatives } from "../conditions/tool-name.js";
import { injectedToolName } from "../manifests/injected-tool-name.js";
import { type KindOutputs, parseKind } from "../schema/kind-outputs.js";
import type { ConfigFile } from "../schema/schema.js";
import { type ConfigIssue, type ConfigPath, formatPath } from "../source/config-error.js";
import { isProgramPath, programProblem } from "../source/program-problem.js";
import { harnessKnownTools } from "./harness-tools-of.js";
import { type AddIssue, toolReferenceCheck } from "./tool-reference-check.js";

export interface KnownTool {
  qualifiedName: string;
  functionName: string;
  /** Its input schema, when known: literal arguments of actions are checked against it. */
  input?: Pick<NormalizedSchema, "jsonSchema" | "validate">;
  /** The name Claude Code hooks know it by, when it declares an alias (`Read`). */
  claudeName?: string;
}

export interface ToolCatalogue {
  /** The tools known now: the toolsets' and the sub-agents' (`agents.<id>`). */
  tools: readonly KnownTool[];
  /** Toolsets whose tools are not known yet (MCP, in `validate`); empty when a run starts. */
  pending: readonly string[];
  /** Tools actions reach besides the toolsets' (the implicit `lsp` toolset). */
  actionTools?: readonly KnownTool[];
  /** The config guards a harness: its MCP tools (`mcp__server__tool`, `server.tool`) are known only to it. */
  harnessMcp?: boolean;
}

export interface ReferenceCheckOptions {
  /** The run has a model from elsewhere (`--model`, a library override): no model needed. */
  modelGiven?: boolean;
  /** What validation kept of the schemas' outputs (a config from the validation cache). */
  kindOutputs?: KindOutputs;
  /**
   * Called when the check looks at a file besides the config (a `shell` action's program, a
   * `scripted:` model's script): its verdict then depends on more than the config's text.
   */
  onFileChecked?: () => void;
}

/** The catalogue of `tools` (the toolsets'), with the config's sub-agents as tools. */
export function toolCatalogue(
  config: ConfigFile,
  tools: readonly KnownTool[],
  pending: readonly string[] = [],
  actionTools: readonly KnownTool[] = [],
): ToolCatalogue {
  const subAgents = config.agents
    .filter((agent) => agent.role === "specialist")
    .map((agent) => ({ qualifiedName: `agents.${agent.id}`, functionName: `agents_${agent.id}` }));
  const harness = harnessKnownTools(config);
  return {
    tools: [...tools, ...harness, ...subAgents],
    pending,
    actionTools,
    ...(harness.length ? { harnessMcp: true } : {}),
  };
}

/**
 * The problems of the references of a config that guards a harness (`hookwise hook`): to its
 * tools as the harnesses it guards name them, its toolsets' unknown (they are not started),
 * no model needed (the harness runs its own).
 */
export function checkHarnessReferences(
  config: ConfigFile,
  dir: string,
  source: ConfigSource,
  options: Omit<ReferenceCheckOptions, "modelGiven"> = {},
): ConfigIssue[] {
  const catalogue = toolCatalogue(config, [], Object.keys(config.toolsets));
  return checkReferences(config, dir, source, catalogue, { ...options, modelGiven: true });
}

/**
 * Whether `checkHarnessReferences` finds nothing in a config that guards a harness and looks at
 * no file besides it (a `shell` action's program): then its verdict depends only on the
 * config's text and this build (which holds the harnesses' tools), and the validation cache
 * keeps it with the config (`harnessReferencesClean`).
 */
export function harnessReferencesClean(config: ConfigFile, dir: string, source: ConfigSource): boolean {
  if (config.harness === undefined) return false;
  let filesChecked = false;
  const issues = checkHarnessReferences(config, dir, source, {
    onFileChecked: () => {
      filesChecked = true;
    },
  });
  return issues.length === 0 && !filesChecked;
}

/** Every problem of the config's references to tools and models, in file order. */
export function checkReferences(
  config: ConfigFile,
  dir: string,
  source: ConfigSource,
  catalogue: ToolCatalogue,
  options: ReferenceCheckOptions = {},
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add: AddIssue = (path, message, extra = {}) => {
    issues.push({
      severity: extra.severity ?? "error",
      file: source.file,
      ...source.positionOf(path),
      path,
      message,
      ...(extra.expected ? { expected: extra.expected } : {}),
      ...(extra.suggestion ? { suggestion: extra.suggestion } : {}),
    });
  };
  const toolsets = Object.keys(config.toolsets);
  const checkPattern = toolReferenceCheck(config, catalogue, add);

  // Policies: app-wide, then each agent's.
  const policyLists: [unknown[], ConfigPath][] = [[config.runtime.policies, ["runtime", "policies"]]];
  config.agents.forEach((agent, index) => {
    policyLists.push([agent.policies, ["agents", index, "policies"]]);
  });
  for (const [list, at] of policyLists) {
    list.forEach((entry, index) => {
      const { decision, tool } = entry as { decision: string; tool: string };
      checkPattern(tool, [...at, index, "tool"], `${decision} policy tool`, catalogue.tools);
    });
  }

  // Agents' tools: and models.
  config.agents.forEach((agent, index) => {
    agent.tools?.forEach((pattern, toolIndex) => {
      if (pattern.startsWith("agents.")) return; // sub-agents are checked with the file
      checkPattern(pattern, ["agents", index, "tools", toolIndex], "tools pattern", catalogue.tools);
    });
  });
  // A config that guards a harness needs no model: the harness has its own.
  const modelGiven = options.modelGiven || config.harness !== undefined;
  if (!modelGiven && Object.keys(config.models).length === 0) {
    const agents = config.agents.length ? config.agents : undefined;
    const expected = 'a model under models:, e.g. default: "scripted:./script.yaml" or "openai:gpt-4.1-mini"';
    if (!agents) add([], 'the agent "main" has no model: no models are declared', { expected });
    else
      agents.forEach((agent, index) => {
        const named = agent.model ?? (typeof agent.brain?.model === "string" ? agent.brain.model : undefined);
        if (named === undefined)
          add(["agents", index, "id"], `agent "${agent.id}" has no model`, { expected });
      });
  }
  if (!modelGiven) {
    options.onFileChecked?.();
    checkScripts(config, dir, source, add, issues);
  }

  // Hooks: the tools their `tool_name` conditions match, and the tools their actions call.
  const actionTools = [...catalogue.tools, ...(catalogue.actionTools ?? [])];
  const subAgentNames = new Set(
    config.agents
      .filter((agent) => agent.role === "specialist")
      .flatMap((agent) => [`agents.${agent.id}`, `agents_${agent.id}`]),
  );
  const hookLists: [unknown[], ConfigPath][] = [[config.runtime.hooks, ["runtime", "hooks"]]];
  if (config.execution) hookLists.push([config.execution.hooks, ["execution", "hooks"]]);
  config.agents.forEach((agent, index) => {
    hookLists.push([agent.hooks, ["agents", index, "hooks"]]);
  });
  for (const [list, at] of hookLists) {
    list.forEach((entry, index) => {
      const { condition, action } = entry as { condition?: unknown; action?: unknown };
      walkConditions(
        condition,
        [...at, index, "condition"],
        false,
        options.kindOutputs,
        (value, path, negated) => {
          if (value.type !== "tool_name") return;
          const patterns: [string, ConfigPath][] =
            typeof value.match === "string"
              ? [[value.match, [...path, "match"]]]
              : Array.isArray(value.match)
                ? value.match.map((item: unknown, i: number) => [String(item), [...path, "match", i]])
                : [];
          for (const [match, matchPath] of patterns)
            for (const pattern of splitAlternatives(match))
              checkPattern(pattern, matchPath, "tool_name condition", catalogue.tools, { warnOnly: negated });
        },
      );
      walkActions(action, [...at, index, "action"], options.kindOutputs, (value, path) => {
        const type = value.type;
        if (["call_tool", "module_action", "call_tool_inject", "module_action_inject"].includes(type)) {
          const name = `${String(value.module)}.${String(value.action)}`;
          const tool = checkExact(name, [...path, "action"], `${type} tool`);
          checkArguments(tool, value.action_params, [...path, "action_params"], `${type} action_params`);
        } else if (type === "pipe" && typeof value.to === "string") {
          checkExact(value.to, [...path, "to"], "pipe to");
        } else if (type === "inject_tool_call" && typeof value.tool_name === "string") {
          if ((value.content?.strategy ?? "tool") !== "tool") return; // no tool runs
          const tool = checkInjected(value.toolset_name, value.tool_name, path, `${type} tool`);
          checkArguments(tool, value.arguments, [...path, "arguments"], `${type} arguments`);
        } else if (type === "shell") {
          options.onFileChecked?.();
          checkShellProgram(value, path, dir, add);
        }
      });
    });
  }
  // `hooks:` injection entries (their schema is checked with the file).
  config.hooks.forEach((entry, index) => {
    const { toolset_name, tool_name, arguments: args, content } = (entry ?? {}) as Record<string, any>;
    if (typeof tool_name !== "string") return;
    if ((content?.strategy ?? "tool") !== "tool") return; // no tool runs
    const tool = checkInjected(toolset_name, tool_name, ["hooks", index], "injection tool");
    checkArguments(tool, args, ["hooks", index, "arguments"], "injection arguments");
  });
  return issues;

  /**
   * An action's tool: an exact name (`mcp.<server>.<tool>` names <server>.<tool>). A
   * sub-agent is not one: a hook's call has no calling run, so the sub-agent would run
   * without its caller's hooks and policies (the app-wide ones included).
   */
  function checkExact(name: string, path: ConfigPath, what: string): KnownTool | undefined {
    const wanted = name.startsWith("mcp.") && !toolsets.includes("mcp") ? name.slice("mcp.".length) : name;
    if (subAgentNames.has(wanted)) {
      add(path, `${what} "${name}" is a sub-agent, which a hook's action cannot call`, {
        expected:
          "a tool of a toolset under toolsets: (a sub-agent started by a hook would run without its caller's hooks and policies; list it in an agent's tools: instead)",
      });
      return undefined;
    }
    return checkPattern(wanted, path, what, actionTools, { exact: true });
  }

  /**
   * An injection's tool: the function name it calls, `sanitize(toolset_tool)` or the tool
   * name verbatim; a miss is reported by its qualified name, the way the toolset lists it.
   */
  function checkInjected(
    toolsetName: unknown,
    toolName: string,
    at: ConfigPath,
    what: string,
  ): KnownTool | undefined {
    const toolset = typeof toolsetName === "string" && toolsetName ? toolsetName : undefined;
    const called = injectedToolName(toolset, toolName);
    if (subAgentNames.has(called)) return checkExact(called, [...at, "tool_name"], what);
    const found = actionTools.find((tool) => tool.functionName === called || tool.qualifiedName === called);
    if (found) return found;
    const name = toolset ? `${toolset}.${toolName}` : toolName;
    const tool = checkPattern(name, [...at, "tool_name"], what, actionTools, { exact: true });
    // A tool of a `prefix: false` toolset is called by its own name: the call would miss it.
    if (tool && toolset)
      add([...at, "toolset_name"], `${what} "${name}" is called ${tool.functionName}, not ${called}`, {
        expected: `no toolset_name for a tool of a toolset with prefix: false (tool_name: ${tool.functionName})`,
      });
    return tool;
  }

  /** Literal arguments (no `{{…}}`) must fit the tool's input schema, when it is known. */
  function checkArguments(tool: KnownTool | undefined, args: unknown, path: ConfigPath, what: string) {
    if (!tool?.input || hasTemplate(args)) return;
    const checked = tool.input.validate(args ?? {});
    if (checked.ok) return;
    const fields = Object.keys((tool.input.jsonSchema.properties as object | undefined) ?? {});
    const unknown =
      typeof args === "object" && args !== null
        ? Object.keys(args).find((key) => !fields.includes(key))
        : undefined;
    const near = unknown === undefined ? undefined : nearest(unknown, fields);
    const stray = unknown === undefined ? "" : ` (it has no field "${unknown}")`;
    add(path, `${what} do not fit the input of "${tool.qualifiedName}": ${checked.message}${stray}`, {
      expected: `arguments ${describeInput(tool.input.jsonSchema)}`,
      ...(near ? { suggestion: near } : {}),
    });
  }
}

/** Calls `visit` on a condition and every condition inside it; `negated`: under an odd number of `not`s. */
function walkConditions(
  value: unknown,
  path: ConfigPath,
  negated: boolean,
  outputs: KindOutputs | undefined,
  visit: (condition: Record<string, any>, path: ConfigPath, negated: boolean) => void,
): void {
  if (typeof value !== "object" || value === null) return;
  const condition = value as Record<string, any>;
  if (typeof condition.type !== "string") return;
  visit(condition, path, negated);
  const module = CONDITIONS.get(condition.type);
  // Only a condition that holds others is parsed (its schema built) to find them.
  if (!module?.children) return;
  const parsed = parseKind("condition", module, condition, outputs);
  if (!parsed.success) return;
  const flips = condition.type === "not";
  for (const child of module.children(parsed.data))
    walkConditions(child.value, [...path, ...child.path], negated !== flips, outputs, visit);
}

/** Whether a value holds a `{{…}}` template anywhere (then it is known only when the hook fires). */
function hasTemplate(value: unknown): boolean {
  if (typeof value === "string") return value.includes("{{");
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (typeof value === "object" && value !== null) return Object.values(value).some(hasTemplate);
  return false;
}

/** `{path: string, depth?: number}`: a tool's input schema in a line, for "expected". */
function describeInput(schema: Record<string, unknown>): string {
  const properties = schema.properties as Record<string, { type?: unknown }> | undefined;
  if (!properties || Object.keys(properties).length === 0) return "{} (no fields)";
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const fields = Object.entries(properties).map(([name, property]) => {
    const type = Array.isArray(property?.type) ? property.type.join(" | ") : (property?.type ?? "any");
    return `${name}${required.has(name) ? "" : "?"}: ${String(type)}`;
  });
  return `{${fields.join(", ")}}`;
}

/** Calls `visit` on an action and every action inside it (a chain's). */
function walkActions(
  value: unknown,
  path: ConfigPath,
  outputs: KindOutputs | undefined,
  visit: (action: Record<string, any>, path: ConfigPath) => void,
): void {
  if (typeof value !== "object" || value === null) return;
  const action = value as Record<string, any>;
  if (typeof action.type !== "string") return;
  visit(action, path);
  const module = ACTIONS.get(action.type);
  // Only an action that holds others (a chain) is parsed (its schema built) to find them.
  if (!module?.children) return;
  const parsed = parseKind("action", module, action, outputs);
  if (!parsed.success) return;
  for (const child of module.children(parsed.data))
    walkActions(child.value, [...path, ...child.path], outputs, visit);
}

/**
 * A `scripted:` model names a script file relative to the config: it must exist, and read
 * as the model reads it (a problem in it is reported at its line and column in the script).
 */
function checkScripts(
  config: ConfigFile,
  dir: string,
  source: ConfigSource,
  add: (path: ConfigPath, message: string, extra?: { expected?: string }) => void,
  issues: ConfigIssue[],
): void {
  const checked = new Set<string>();
  const check = (provider: string, modelId: string, path: ConfigPath) => {
    if (provider !== "scripted") return;
    const file = resolve(dir, modelId);
    if (!existsSync(file)) {
      add(path, `scripted model: the script file ${modelId} does not exist (${file})`, {
        expected: "a YAML or JSONL script relative to this config, e.g. scripted:./script.yaml",
      });
      return;
    }
    if (checked.has(file)) return;
    checked.add(file);
    try {
      loadScript(file);
    } catch (error) {
      if (!ScriptFileError.isInstance(error)) {
        if (!HookwiseError.isInstance(error)) throw error;
        add(path, error.message);
        return;
      }
      issues.push({
        severity: "error",
        // The script as the config names it, beside the config.
        file: isAbsolute(modelId) ? modelId : join(dirname(source.file), modelId),
        line: error.line,
        column: error.column,
        path: error.path,
        message: `${error.problem} (the script of ${formatPath(path)})`,
        ...(error.expected ? { expected: error.expected } : {}),
        ...(error.suggestion ? { suggestion: error.suggestion } : {}),
      });
    }
  };
  for (const [name, entry] of Object.entries(config.models)) {
    if (typeof entry === "string") {
      const at = entry.indexOf(":");
      check(entry.slice(0, at), entry.slice(at + 1), ["models", name]);
    } else check(entry.provider, entry.model, ["models", name, "model"]);
  }
  config.agents.forEach((agent, index) => {
    const model = agent.model;
    if (model?.includes(":") && config.models[model] === undefined) {
      const at = model.indexOf(":");
      check(model.slice(0, at), model.slice(at + 1), ["agents", index, "model"]);
    }
  });
}

/**
 * A `shell` action's program written as a path must start: the command runs in `cwd:`
 * (default the config's folder), which resolves it. A templated program or cwd is known only
 * when the hook fires (`{{workspace}}` aside, the config's folder).
 */
function checkShellProgram(
  action: Record<string, any>,
  path: ConfigPath,
  dir: string,
  add: (
    path: ConfigPath,
    message: string,
    extra?: { expected?: string; suggestion?: string | undefined },
  ) => void,
): void {
  if (typeof action.command !== "string") return;
  let program: string | undefined;
  try {
    program = splitShellWords(action.command)[0];
  } catch (error) {
    if (error instanceof ShellWordsError) return; // reported with the file
    throw error;
  }
  if (program === undefined || program.includes("{{") || !isProgramPath(program)) return;
  const cwd = typeof action.cwd === "string" ? action.cwd.replaceAll("{{workspace}}", dir) : ".";
  if (cwd.includes("{{")) return;
  const file = resolve(dir, cwd, program);
  const problem = programProblem(file);
  if (!problem) return;
  add([...path, "command"], `program ${program} ${problem.reason} (${file})`, {
    expected: `a program relative to ${action.cwd === undefined ? "the config's folder" : `cwd (${cwd})`}, an absolute path, or a name on PATH`,
    suggestion: problem.nearest && `${program.slice(0, program.lastIndexOf("/") + 1)}${problem.nearest}`,
  });
}
