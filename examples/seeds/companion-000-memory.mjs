// The `memory_server` toolset of companion-000.yaml (seed 000 names an MCP server; a module
// stands in for it). `control` is not a tool (no execute): tests and demos read its counter.
export const control = { calls: 0 };

export const get_memories = {
  description: "The user's saved memories",
  inputSchema: {
    type: "object",
    properties: { user_id: { type: "string" } },
    required: ["user_id"],
  },
  execute: ({ user_id }) => {
    control.calls++;
    return { user_id, memories: ["prefers short answers", "lives in Lyon", "allergic to peanuts"] };
  },
};
