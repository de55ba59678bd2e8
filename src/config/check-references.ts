/**
 * What a run would refuse, checked before it starts — by `hookwise validate` (with the tools
 * it can list without starting a server) and again by `run` once every toolset answered:
 *
 * - a policy's `tool` (deny, ask_user, allow) and an agent's `tools:` pattern must match a
 *   tool, and a `toolset.` prefix must name a declared toolset (`*` always matches);
 * - `call_tool` / `module_action` (and their `_inject` forms) and `pipe` must name a tool;
 * - every agent has a model, and a `scripted:` model's script file exists;
 * - a `shell` action's program, written as a path, exists and can run (resolved as the
 *   command runs: against `cwd:`, itself against the config's folder).
 *
 * Tools of a toolset known only when its server answers (MCP) make a reference under its
 * prefix a warning here (`pending`); at run time nothing is pending, so it is an error.
 */
import { existsSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { picomatch } from "../deps/picomatch.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { nearest } from "../errors/nearest.js";
import { loadScript } from "../models/load-script.js";
import { ScriptFileError } from "../models/script-file-error.js";
import { ACTIONS } from "./actions/index.js";
import { ShellWordsError, splitShellWords } from "./actions/split-shell-words.js";
import type { ConfigSource } from "./build-toolsets.js";
import { type ConfigIssue, type ConfigPath, formatPath } from "./config-error.js";
import { isProgramPath, programProblem } from "./program-problem.js";
import type { ConfigFile } from "./schema.js";

export interface KnownTool {
  qualifiedName: string;
  functionName: string;
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
}

export interface ReferenceCheckOptions {
  /** The run has a model from elsewhere (`--model`, a library override): no model needed. */
  modelGiven?: boolean;
}

const MAX_LISTED = 12;

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
  return { tools: [...tools, ...subAgents], pending, actionTools };
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
  const add = (
    path: ConfigPath,
    message: string,
    extra: { severity?: "warning"; expected?: string; suggestion?: string | undefined } = {},
  ) => {
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
  const unprefixedPending = catalogue.pending.some((name) => config.toolsets[name]?.prefix === false);

  /** Checks one tool pattern or name against `tools`; `what` starts the message. */
  const checkPattern = (
    pattern: string,
    path: ConfigPath,
    what: string,
    tools: readonly KnownTool[],
    exact = false,
  ) => {
    if (pattern === "*" && !exact) return;
    const test = exact ? (name: string) => name === pattern : picomatch(pattern, { dot: true });
    if (tools.some((tool) => test(tool.qualifiedName) || test(tool.functionName))) return;
    const head = pattern.includes(".") ? pattern.slice(0, pattern.indexOf(".")) : undefined;
    const headIsGlob = head !== undefined && !exact && picomatch.scan(head).isGlob;
    if (head !== undefined && !headIsGlob && head !== "agents" && !toolsets.includes(head)) {
      const known = toolsets.concat(
        tools.some((tool) => tool.qualifiedName.startsWith("lsp.")) ? ["lsp"] : [],
      );
      if (!known.includes(head)) {
        add(path, `${what} "${pattern}": no toolset is named "${head}"`, {
          expected: toolsets.length
            ? `a toolset declared under toolsets: (${toolsets.join(", ")})`
            : "a toolset declared under toolsets:",
          suggestion: nearest(head, known),
        });
        return;
      }
    }
    const pending =
      (head !== undefined && catalogue.pending.includes(head)) ||
      headIsGlob ||
      (head === undefined && unprefixedPending) ||
      (!exact && head === undefined && picomatch.scan(pattern).isGlob);
    if (pending && catalogue.pending.length) {
      add(path, `${what} "${pattern}" matches no tool known yet`, {
        severity: "warning",
        expected: `a tool of ${catalogue.pending.join(", ")}: their tools are listed when the run starts, and a pattern that matches none of them stops it`,
      });
      return;
    }
    const names = tools.map((tool) => tool.qualifiedName);
    const listed =
      names.length > MAX_LISTED ? `${names.slice(0, MAX_LISTED).join(", ")}, …` : names.join(", ");
    add(path, `${what} "${pattern}" ${exact ? "names" : "matches"} no tool`, {
      expected: names.length
        ? `${exact ? "one of" : "a tool name or pattern over"}: ${listed}`
        : "a tool of a toolset under toolsets:",
      suggestion:
        nearest(pattern, names) ??
        nearest(
          pattern,
          tools.map((tool) => tool.functionName),
        ),
    });
  };

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
  if (!options.modelGiven && Object.keys(config.models).length === 0) {
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
  if (!options.modelGiven) checkScripts(config, dir, source, add, issues);

  // Actions that call a tool.
  const actionTools = [...catalogue.tools, ...(catalogue.actionTools ?? [])];
  const hookLists: [unknown[], ConfigPath][] = [[config.runtime.hooks, ["runtime", "hooks"]]];
  if (config.execution) hookLists.push([config.execution.hooks, ["execution", "hooks"]]);
  config.agents.forEach((agent, index) => {
    hookLists.push([agent.hooks, ["agents", index, "hooks"]]);
  });
  for (const [list, at] of hookLists) {
    list.forEach((entry, index) => {
      const action = (entry as { action?: unknown }).action;
      walkActions(action, [...at, index, "action"], (value, path) => {
        const type = value.type;
        if (["call_tool", "module_action", "call_tool_inject", "module_action_inject"].includes(type)) {
          const name = `${String(value.module)}.${String(value.action)}`;
          checkExact(name, [...path, "action"], `${type} tool`, actionTools);
        } else if (type === "pipe" && typeof value.to === "string") {
          checkExact(value.to, [...path, "to"], "pipe to", actionTools);
        } else if (type === "shell") {
          checkShellProgram(value, path, dir, add);
        }
      });
    });
  }
  return issues;

  /** An action's tool: an exact name (`mcp.<server>.<tool>` names <server>.<tool>). */
  function checkExact(name: string, path: ConfigPath, what: string, tools: readonly KnownTool[]) {
    const wanted = name.startsWith("mcp.") && !toolsets.includes("mcp") ? name.slice("mcp.".length) : name;
    checkPattern(wanted, path, what, tools, true);
  }
}

/** Calls `visit` on an action and every action inside it (a chain's). */
function walkActions(
  value: unknown,
  path: ConfigPath,
  visit: (action: Record<string, any>, path: ConfigPath) => void,
): void {
  if (typeof value !== "object" || value === null) return;
  const action = value as Record<string, any>;
  if (typeof action.type !== "string") return;
  visit(action, path);
  const module = ACTIONS.get(action.type);
  const parsed = module?.schema.safeParse(action);
  if (!module?.children || !parsed?.success) return;
  for (const child of module.children(parsed.data)) walkActions(child.value, [...path, ...child.path], visit);
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
