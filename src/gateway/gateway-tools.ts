/**
 * The tools a gateway lists (`tools/list`): the agent's tools as its model sees them —
 * function names (`toolset_tool`), descriptions, input schemas, output schemas where the
 * tool has one. A tool a policy denies whatever its arguments is not listed (the agent
 * never offers it to its model either); a call to it anyway meets the policy. What a tool
 * says of itself (an upstream server's description or schema) leaves masked of the
 * config's secrets, as its results do.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AgentRuntime } from "../agent/types.js";
import { maskSecretsIn } from "../secrets/secret-registry.js";

/** MCP wants an object schema at the top; a tool that takes anything gets an open object. */
function objectSchema(schema: Record<string, unknown> | undefined): Tool["inputSchema"] {
  if (schema && schema.type === "object") return schema as Tool["inputSchema"];
  return { type: "object", ...(schema ?? {}) } as Tool["inputSchema"];
}

export function gatewayTools(runtime: AgentRuntime): Tool[] {
  return runtime.toolSpecs.map((spec) => {
    const tool = runtime.toolsByName.get(spec.name);
    const listed: Tool = {
      name: spec.name,
      description: spec.description,
      inputSchema: objectSchema(spec.inputSchema as Record<string, unknown>),
    };
    const output = tool?.output?.jsonSchema;
    // MCP output schemas describe structured content, which is an object.
    if (output && output.type === "object") listed.outputSchema = output as Tool["outputSchema"];
    return maskSecretsIn(listed);
  });
}
