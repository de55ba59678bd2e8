/**
 * `openapiToolset` and `mcpToolset` as the package exports them: each reaches its code through
 * `remote-toolsets.link.ts`, which in the built package loads it at the first call.
 */
import type { McpServerSpec } from "./mcp/mcp-server-spec.js";
import type { McpToolsetOptions } from "./mcp/mcp-toolset.js";
import type { OpenApiToolset, OpenApiToolsetOptions } from "./openapi/openapi-toolset.js";
import { remoteToolsets } from "./remote-toolsets.link.js";
import type { Toolset } from "./toolset.js";

/** Reads an OpenAPI 3 or Swagger 2 document and returns one tool per operation it selects. */
export async function openapiToolset(name: string, options: OpenApiToolsetOptions): Promise<OpenApiToolset> {
  return remoteToolsets().openapiToolset(name, options);
}

/** Connects (or joins the running server), lists its tools, and returns them as a toolset. */
export async function mcpToolset(
  name: string,
  spec: McpServerSpec,
  options: McpToolsetOptions = {},
): Promise<Toolset> {
  return remoteToolsets().mcpToolset(name, spec, options);
}
