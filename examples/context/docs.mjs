// A documentation search whose answers are long: a few calls fill a small context window.
const PARAGRAPH =
  "Hookwise runs every seam of the agent loop through hooks: a run starting, each provider request " +
  "attempt, each tool call and result, the final answer. Hooks observe, decide or transform. ";

export const search = {
  description: "Search the documentation",
  inputSchema: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  execute: ({ query }) => `Results for "${query}":\n${PARAGRAPH.repeat(8)}`,
};
