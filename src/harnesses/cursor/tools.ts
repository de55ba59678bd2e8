/**
 * Cursor's agent tools as its hooks name them: `preToolUse` names the tool (`Shell`, `Read`,
 * `Write`, `Edit`…); the older per-action events are read as calls of `Shell`
 * (`beforeShellExecution`), `Read` (`beforeReadFile`) and the MCP tool named (`beforeMCPExecution`).
 */
import { objectSchema } from "../tool-families.js";
import type { HarnessToolSpec } from "../types.js";

export const CURSOR_TOOLS: readonly HarnessToolSpec[] = [
  {
    name: "Shell",
    family: "shell",
    description: "runs a shell command",
    input: objectSchema({ command: "string", cwd: "string" }, ["command"]),
  },
  {
    name: "Read",
    family: "read_file",
    description: "reads a file",
    input: objectSchema({ file_path: "string" }, ["file_path"]),
  },
  {
    name: "Write",
    family: "write_file",
    description: "writes a file",
    input: objectSchema({ file_path: "string" }, ["file_path"]),
  },
  {
    name: "Edit",
    family: "edit_file",
    description: "edits a file",
    input: objectSchema({ file_path: "string" }),
  },
  {
    name: "StrReplace",
    family: "edit_file",
    description: "replaces text in a file",
    input: objectSchema({ file_path: "string" }),
  },
  { name: "Delete", description: "deletes a file", input: objectSchema({ file_path: "string" }) },
  {
    name: "Grep",
    family: "search_files",
    description: "searches file contents",
    input: objectSchema({ pattern: "string" }),
  },
  {
    name: "Glob",
    family: "find_files",
    description: "finds files",
    input: objectSchema({ pattern: "string" }),
  },
  {
    name: "LS",
    family: "list_directory",
    description: "lists a directory",
    input: objectSchema({ path: "string" }),
  },
  {
    name: "WebSearch",
    family: "web_search",
    description: "searches the web",
    input: objectSchema({ query: "string" }),
  },
];
