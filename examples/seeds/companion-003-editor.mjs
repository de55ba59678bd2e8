// Tools by the names seed 003's `tool_name` examples match (`Write|Edit`, `[Write, Edit,
// Insert]`), unprefixed, so those hooks reach a tool when 003-conditions.yaml runs as
// shipped: a `tool_name` pattern that matches no tool of the config is refused. Stand-ins.
const file = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

export const Write = {
  description: "Writes a file (stand-in: reports it)",
  inputSchema: file,
  execute: ({ path }) => `wrote ${path}`,
};

export const Edit = {
  description: "Edits a file (stand-in: reports it)",
  inputSchema: file,
  execute: ({ path }) => `edited ${path}`,
};

export const Insert = {
  description: "Inserts into a file (stand-in: reports it)",
  inputSchema: file,
  execute: ({ path }) => `inserted into ${path}`,
};
