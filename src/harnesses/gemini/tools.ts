/**
 * Gemini CLI's built-in tools, as its hooks name them. Its MCP tools (`mcp_<server>_<tool>`,
 * with the server and tool in `mcp_context`) are named `mcp__<server>__<tool>` when read.
 */
import { objectSchema } from "../tool-families.js";
import type { HarnessToolSpec } from "../types.js";

export const GEMINI_TOOLS: readonly HarnessToolSpec[] = [
  {
    name: "run_shell_command",
    family: "shell",
    description: "runs a shell command",
    input: objectSchema(
      {
        command: "string",
        description: "string",
        dir_path: "string",
        directory: "string",
        is_background: "boolean",
        delay_ms: "number",
      },
      ["command"],
    ),
  },
  {
    name: "read_file",
    family: "read_file",
    description: "reads a file",
    input: objectSchema({
      file_path: "string",
      start_line: "number",
      end_line: "number",
      absolute_path: "string",
      offset: "number",
      limit: "number",
    }),
  },
  { name: "read_many_files", description: "reads several files", input: objectSchema({ paths: "array" }) },
  {
    name: "write_file",
    family: "write_file",
    description: "writes a file",
    input: objectSchema({ file_path: "string", content: "string" }, ["file_path", "content"]),
  },
  {
    name: "replace",
    family: "edit_file",
    description: "replaces text in a file",
    input: objectSchema(
      {
        file_path: "string",
        instruction: "string",
        old_string: "string",
        new_string: "string",
        allow_multiple: "boolean",
      },
      ["file_path"],
    ),
  },
  {
    name: "grep_search",
    family: "search_files",
    description: "searches file contents",
    input: objectSchema(
      {
        pattern: "string",
        dir_path: "string",
        include_pattern: "string",
        exclude_pattern: "string",
        names_only: "boolean",
        max_matches_per_file: "number",
        total_max_matches: "number",
      },
      ["pattern"],
    ),
  },
  // grep_search's older name: Gemini CLI still runs a call of it, and its hooks see the name the model used.
  {
    name: "search_file_content",
    family: "search_files",
    description: "searches file contents (grep_search's older name)",
    input: objectSchema({ pattern: "string", path: "string", include: "string" }, ["pattern"]),
  },
  {
    name: "glob",
    family: "find_files",
    description: "finds files by pattern",
    input: objectSchema(
      {
        pattern: "string",
        dir_path: "string",
        path: "string",
        case_sensitive: "boolean",
        respect_git_ignore: "boolean",
        respect_gemini_ignore: "boolean",
      },
      ["pattern"],
    ),
  },
  {
    name: "list_directory",
    family: "list_directory",
    description: "lists a directory",
    input: objectSchema({
      dir_path: "string",
      path: "string",
      ignore: "array",
      file_filtering_options: "object",
    }),
  },
  {
    name: "web_fetch",
    family: "web_fetch",
    description: "fetches URLs",
    input: objectSchema({ prompt: "string" }),
  },
  {
    name: "google_web_search",
    family: "web_search",
    description: "searches the web",
    input: objectSchema({ query: "string" }, ["query"]),
  },
  {
    name: "invoke_agent",
    family: "delegate",
    description: "hands a task to a sub-agent",
    input: objectSchema({ agent_name: "string", prompt: "string", wait_for_previous: "boolean" }, [
      "agent_name",
    ]),
  },
  { name: "save_memory", description: "remembers a fact", input: objectSchema({ fact: "string" }) },
  { name: "write_todos", description: "updates the task list", input: objectSchema({ todos: "array" }) },
  {
    name: "read_background_output",
    description: "reads the output of a background shell command",
    input: objectSchema({ pid: "number", lines: "number", delay_ms: "number", wait_for_previous: "boolean" }),
  },
  {
    name: "list_background_processes",
    description: "lists the background shell commands",
    input: objectSchema({ wait_for_previous: "boolean" }),
  },
  { name: "enter_plan_mode", description: "enters plan mode", input: objectSchema({ reason: "string" }) },
  { name: "activate_skill", description: "activates a skill", input: objectSchema({ name: "string" }) },
  {
    name: "update_topic",
    description: "updates the conversation's topic",
    input: objectSchema({
      title: "string",
      summary: "string",
      strategic_intent: "string",
      wait_for_previous: "boolean",
    }),
  },
];
