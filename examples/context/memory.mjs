// The memory server of the context examples (a module standing in for an MCP server).
// `control` is not a tool (no execute): the examples' tests read and change it.
export const control = { calls: 0, memories: ["prefers short answers", "lives in Lyon"] };

export const get_memories = {
  description: "The user's saved memories",
  inputSchema: { type: "object", properties: { user_id: { type: "string" } }, required: ["user_id"] },
  execute: ({ user_id }) => {
    control.calls++;
    return { user_id, memories: [...control.memories] };
  },
};
