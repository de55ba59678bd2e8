/**
 * Codex CLI's tools as its hooks name them: its shell tool (`exec_command`, `shell`) reaches
 * hooks as `Bash` with `tool_input.command`, as Claude Code's does; MCP tools as
 * `mcp__<server>__<tool>`.
 */
import { objectSchema } from "../tool-families.js";
import type { HarnessToolSpec } from "../types.js";

export const CODEX_TOOLS: readonly HarnessToolSpec[] = [
  {
    name: "Bash",
    family: "shell",
    description: "runs a shell command (Codex's exec_command and shell tools)",
    input: objectSchema({ command: "string" }, ["command"]),
  },
  {
    name: "apply_patch",
    family: "edit_file",
    description: "applies a patch to files",
    input: objectSchema({ input: "string" }),
  },
  {
    name: "spawn_agent",
    family: "delegate",
    description: "starts a sub-agent",
    input: objectSchema({ message: "string" }),
  },
  { name: "update_plan", description: "updates the plan", input: objectSchema({ plan: "array" }) },
  { name: "view_image", description: "attaches an image", input: objectSchema({ path: "string" }) },
  {
    name: "web_search",
    family: "web_search",
    description: "searches the web",
    input: objectSchema({ query: "string" }),
  },
];
