/** `hookwise mcp`: an agent's tools as one governed MCP server (stdio or Streamable HTTP). */
export { callToolResult } from "./call-tool-result.js";
export { gatewayTools } from "./gateway-tools.js";
export { checkBind, GATEWAY_TOKEN_ENV } from "./http-access.js";
export { type GatewayConnection, McpGateway, type McpGatewayOptions } from "./mcp-gateway.js";
export { NO_MODEL } from "./no-model.js";
export { type HttpGateway, serveHttp } from "./serve-http.js";
export { type StdioGateway, serveStdio } from "./serve-stdio.js";
