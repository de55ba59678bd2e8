/**
 * How Claude Code hooks see hookwise's tools. A tool that declares an alias (the builtin
 * `Read` / `Write` / `Edit`, an MCP tool's `mcp__<server>__<tool>`) is named and shaped as
 * the alias says; any other tool goes by its qualified name with its own arguments (a tool
 * named `Bash` taking `command` needs nothing more). Matchers are checked against every
 * name: the alias's, the qualified name and the name the model calls it by. Tools are looked up by qualified name (events) and function name (transcripts).
 */
import { HookwiseError } from "../../../errors/hookwise-error.js";
import type { ResolvedTool } from "../../../tools/resolved-tool.js";
import { claudeToolResponse } from "./claude-tool-response.js";

export interface ClaudeToolView {
  /** `tool_name`: the alias's name, else the qualified name. */
  readonly name: string;
  /** Every name a matcher may match: the alias's, the qualified and the function name. */
  readonly names: readonly string[];
  /** `tool_input`: the arguments in the alias's shape. */
  readonly input: unknown;
  /** An MCP tool (its `updatedMCPToolOutput` may replace its result). */
  readonly mcp: boolean;
  /** A hook's `updatedInput` as the tool's own arguments; throws when it cannot be. */
  fromInput(input: unknown): unknown;
  /** `tool_response`: the call's result as Claude Code hooks read it (claude-tool-response.ts). */
  response(result: unknown): unknown;
}

/** A call the model sent malformed stays as it was: a view never fails a hook. */
function aliasInput(map: ((args: unknown) => unknown) | undefined, args: unknown): unknown {
  if (!map) return args;
  try {
    return map(args);
  } catch {
    return args;
  }
}

export type ToolSource = readonly ResolvedTool[] | (() => readonly ResolvedTool[]);

export class ClaudeTools {
  readonly #source: ToolSource | undefined;
  #list: readonly ResolvedTool[] | undefined;
  #byQualified = new Map<string, ResolvedTool>();
  #byFunction = new Map<string, ResolvedTool>();

  constructor(source?: ToolSource) {
    this.#source = source;
  }

  /** The lookup maps, rebuilt when the source hands out another list. */
  #tools(): void {
    const list = typeof this.#source === "function" ? this.#source() : (this.#source ?? []);
    if (list === this.#list) return;
    this.#list = list;
    this.#byQualified = new Map(list.map((tool) => [tool.qualifiedName, tool]));
    this.#byFunction = new Map(list.map((tool) => [tool.functionName, tool]));
  }

  /**
   * The view of a call of `qualifiedName` with `args`. `calledAs` is the name the call came
   * by, for a tool hookwise does not hold: a coding-agent harness's own tool (`Bash`, whose
   * qualified name is its family's, `shell`) is named to Claude Code hooks as the harness
   * named it, and their matchers match that name.
   */
  view(qualifiedName: string, args: unknown, calledAs?: string): ClaudeToolView {
    this.#tools();
    const tool = this.#byQualified.get(qualifiedName);
    const alias = tool?.alias;
    // The model's name for it too (a `prefix: false` tool's is its own name, `guarded`).
    const model = tool?.functionName ?? calledAs;
    const functionName = model !== undefined && model !== qualifiedName ? [model] : [];
    if (!alias) {
      return {
        name: tool === undefined && calledAs !== undefined ? calledAs : qualifiedName,
        names: tool === undefined ? [...functionName, qualifiedName] : [qualifiedName, ...functionName],
        input: args,
        mcp: false,
        fromInput: (input) => input,
        response: (result) => claudeToolResponse(result, args, undefined),
      };
    }
    return {
      name: alias.name,
      names: [alias.name, qualifiedName, ...functionName],
      input: aliasInput(alias.toAliasInput, args),
      mcp: alias.name.startsWith("mcp__"),
      response: (result) => claudeToolResponse(result, args, alias),
      fromInput(input) {
        if (!alias.fromAliasInput) return input;
        try {
          return alias.fromAliasInput(input);
        } catch (error) {
          throw new HookwiseError((error as Error).message);
        }
      },
    };
  }

  /** A transcript's tool call (by function name) as Claude Code would have written it. */
  transcriptCall(functionName: string, args: unknown): { name: string; input: unknown } {
    this.#tools();
    const tool = this.#byFunction.get(functionName);
    if (!tool) return { name: functionName, input: args };
    const view = this.view(tool.qualifiedName, args);
    return { name: view.name, input: view.input };
  }
}
