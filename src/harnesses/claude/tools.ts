/** Claude Code's built-in tools, as its hooks name them (`tool_name`) and shape them (`tool_input`). */
import { objectSchema } from "../tool-families.js";
import type { HarnessToolSpec } from "../types.js";

export const CLAUDE_TOOLS: readonly HarnessToolSpec[] = [
  {
    name: "Bash",
    family: "shell",
    description: "runs a shell command",
    input: objectSchema(
      { command: "string", description: "string", timeout: "number", run_in_background: "boolean" },
      ["command"],
    ),
  },
  // Claude Code's other tools that run a command: a shell policy must see them too.
  {
    name: "Monitor",
    family: "shell",
    description: "runs a command and reports each line it prints (or watches a WebSocket)",
    input: objectSchema({ command: "string", ws: "object", description: "string", timeout_ms: "number" }),
  },
  {
    name: "PowerShell",
    family: "shell",
    description: "runs a Windows PowerShell command",
    input: objectSchema(
      { command: "string", description: "string", timeout: "number", run_in_background: "boolean" },
      ["command"],
    ),
  },
  {
    name: "BashOutput",
    description: "reads a background shell's output",
    input: objectSchema({ bash_id: "string" }),
  },
  { name: "KillShell", description: "stops a background shell", input: objectSchema({ shell_id: "string" }) },
  {
    name: "Read",
    family: "read_file",
    description: "reads a file",
    input: objectSchema({ file_path: "string", offset: "number", limit: "number" }, ["file_path"]),
  },
  {
    name: "Write",
    family: "write_file",
    description: "writes a file",
    input: objectSchema({ file_path: "string", content: "string" }, ["file_path", "content"]),
  },
  {
    name: "Edit",
    family: "edit_file",
    description: "replaces text in a file",
    input: objectSchema(
      { file_path: "string", old_string: "string", new_string: "string", replace_all: "boolean" },
      ["file_path", "old_string", "new_string"],
    ),
  },
  {
    name: "MultiEdit",
    family: "edit_file",
    description: "several replacements in one file",
    input: objectSchema({ file_path: "string", edits: "array" }, ["file_path", "edits"]),
  },
  {
    name: "NotebookEdit",
    description: "edits a Jupyter notebook cell",
    input: objectSchema({ notebook_path: "string", new_source: "string" }, ["notebook_path"]),
  },
  {
    name: "Grep",
    family: "search_files",
    description: "searches file contents",
    input: objectSchema({ pattern: "string", path: "string", glob: "string" }, ["pattern"]),
  },
  {
    name: "Glob",
    family: "find_files",
    description: "finds files by pattern",
    input: objectSchema({ pattern: "string", path: "string" }, ["pattern"]),
  },
  {
    name: "LS",
    family: "list_directory",
    description: "lists a directory",
    input: objectSchema({ path: "string", ignore: "array" }, ["path"]),
  },
  {
    name: "WebFetch",
    family: "web_fetch",
    description: "fetches a URL",
    input: objectSchema({ url: "string", prompt: "string" }, ["url"]),
  },
  {
    name: "WebSearch",
    family: "web_search",
    description: "searches the web",
    input: objectSchema({ query: "string" }, ["query"]),
  },
  {
    name: "Agent",
    family: "delegate",
    description: "runs a sub-agent",
    input: objectSchema({ description: "string", prompt: "string", subagent_type: "string" }),
  },
  {
    name: "Task",
    family: "delegate",
    description: "runs a sub-agent (the name older versions give Agent)",
    input: objectSchema({ description: "string", prompt: "string", subagent_type: "string" }),
  },
  { name: "TodoWrite", description: "updates the task list", input: objectSchema({ todos: "array" }) },
  { name: "ExitPlanMode", description: "leaves plan mode", input: objectSchema({ plan: "string" }) },
  { name: "SlashCommand", description: "runs a slash command", input: objectSchema({ command: "string" }) },
  { name: "Skill", description: "uses a skill", input: objectSchema({ skill: "string" }) },
  { name: "AskUserQuestion", description: "asks the user", input: objectSchema({ questions: "array" }) },
];
