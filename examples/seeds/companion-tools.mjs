// Tools for the companion configs of examples/seeds/: plain objects with a JSON Schema, so
// this file needs no import of hookwise. `write` always fails (a full disk), which is what
// seed 003's `reviewer_lint` hook (tool_name "*.write" + tool_failed) reacts to.
export const write = {
  description: "Write a file (this one always fails: the disk is full)",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path"],
  },
  execute: ({ path }) => {
    throw new Error(`disk full while writing ${path}`);
  },
};

export const read = {
  description: "Read a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  execute: ({ path }) => `contents of ${path}`,
};
