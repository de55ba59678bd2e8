// A `filesystem` toolset for seed 003's configs, so their hooks on tool events (a gate on
// `*.delete_file`, conditions on `filesystem.*`, a failed `*.write`) reach a tool when the
// files run as shipped and under `hookwise test`. Harmless stand-ins: nothing touches a disk.
const file = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };

export const read_file = {
  description: "Reads a file (stand-in: returns a fixed text)",
  inputSchema: file,
  execute: ({ path }) => `contents of ${path}`,
};

export const edit_file = {
  description: "Edits a file (stand-in: reports the arguments it received)",
  inputSchema: {
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path"],
  },
  execute: (args) => `edited ${args.path} with ${JSON.stringify(args)}`,
};

export const delete_file = {
  description: "Deletes a file (stand-in: reports it)",
  inputSchema: file,
  execute: ({ path }) => `deleted ${path}`,
};

export const write = {
  description: "Writes a file (this one always fails: the disk is full)",
  inputSchema: file,
  execute: ({ path }) => {
    throw new Error(`disk full while writing ${path}`);
  },
};
