// The `strict` and `lenient` toolsets of failure.yaml: one harmless `read` each.
export const read = {
  description: "Reads a file (stand-in: returns a fixed text)",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
  execute: ({ path }) => `contents of ${path ?? "the file"}`,
};
