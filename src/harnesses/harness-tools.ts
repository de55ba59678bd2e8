/**
 * A harness's tools as hookwise names them: the harness's own name is the function name
 * (`Bash`, `run_shell_command`), the family the qualified name (`shell`), and an MCP tool
 * `mcp__<server>__<tool>` is `<server>.<tool>`, as hookwise names the tools of its own MCP
 * toolsets. A tool hookwise does not know (a newer harness's) keeps its own name for both.
 */
import type { NormalizedSchema } from "../tools/input-schema.js";
import { inputSchemaModule } from "../tools/input-schema.part.js";
import type { HarnessName, HarnessProtocol, HarnessToolSpec } from "./types.js";

export interface HarnessTool {
  readonly functionName: string;
  readonly qualifiedName: string;
  readonly spec: HarnessToolSpec | undefined;
  /** Its `tool_input` schema (a rewrite is checked against it); built at first use. */
  input(): NormalizedSchema;
}

const ANY_OBJECT = { type: "object", additionalProperties: true };

/** `mcp__github__create_issue` → `github.create_issue`; undefined for any other name. */
export function mcpQualifiedName(name: string): string | undefined {
  const match = /^mcp__(.+?)__(.+)$/.exec(name);
  return match ? `${match[1]}.${match[2]}` : undefined;
}

function toolOf(spec: HarnessToolSpec | undefined, name: string, where: string): HarnessTool {
  let schema: NormalizedSchema | undefined;
  return {
    functionName: name,
    qualifiedName: spec?.family ?? mcpQualifiedName(name) ?? name,
    spec,
    input: () => {
      schema ??= inputSchemaModule().normalizeSchema(spec?.input ?? ANY_OBJECT, `${where} tool "${name}"`);
      return schema;
    },
  };
}

/** Each harness's tools made so far, by name: a tool's input schema is built once per process. */
const made = new WeakMap<HarnessProtocol, Map<string, HarnessTool>>();
/** Tools the harness does not declare (MCP) are kept up to this many per harness. */
const MAX_MADE = 512;

/** The tool an event names, known to the harness or not. */
export function harnessTool(protocol: HarnessProtocol, name: string): HarnessTool {
  let tools = made.get(protocol);
  if (tools === undefined) {
    tools = new Map();
    made.set(protocol, tools);
  }
  let tool = tools.get(name);
  if (tool === undefined) {
    tool = toolOf(
      protocol.tools.find((spec) => spec.name === name),
      name,
      protocol.label,
    );
    if (tools.size >= MAX_MADE) tools.delete(tools.keys().next().value!);
    tools.set(name, tool);
  }
  return tool;
}

/** Every tool of the harnesses named, once per function name (what `validate` checks names against). */
export function harnessTools(protocols: readonly HarnessProtocol[]): HarnessTool[] {
  const byName = new Map<string, HarnessTool>();
  for (const protocol of protocols)
    for (const spec of protocol.tools)
      if (!byName.has(spec.name)) byName.set(spec.name, toolOf(spec, spec.name, protocol.label));
  return [...byName.values()];
}

export type { HarnessName };
