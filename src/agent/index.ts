export { consoleLogger } from "./agent-runtime.js";
export { createAgent } from "./create-agent.js";
export { SubAgentError } from "./sub-agent-error.js";
export { SUB_AGENT_TOOLSET, type SubAgentToolOptions, subAgentTool } from "./sub-agent-tool.js";
export type { Agent, AgentOptions, AgentRuntime, AgentStream, OutputOf } from "./types.js";
