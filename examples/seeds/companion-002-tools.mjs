// The tools seed 002's policies name (view_file, run_command), so 002-policies.yaml runs as
// shipped. Both are harmless stand-ins: view_file returns a fixed text, run_command echoes.
export const view_file = {
  description: "Shows a file (stand-in: returns a fixed text)",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
  execute: ({ path }) => `contents of ${path ?? "the file"}`,
};

export const run_command = {
  description: "Runs a command (stand-in: echoes it, runs nothing)",
  inputSchema: { type: "object", properties: { CommandLine: { type: "string" } } },
  execute: ({ CommandLine }) => `would run: ${CommandLine ?? ""}`,
};
