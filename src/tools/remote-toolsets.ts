/**
 * The REST (OpenAPI) and MCP toolsets, in one module the package entry reaches only when one
 * of them is first built (see `remote-toolsets.link.ts`): a document reader, a request
 * builder and an MCP client are not loaded by `import "hookwise"`.
 */
export { mcpToolset } from "./mcp/mcp-toolset.js";
export { openapiToolset } from "./openapi/openapi-toolset.js";
