/**
 * The builtin `coding` toolset (`{ kind: builtin, module: coding, root }`): Claude Code's
 * tools by Claude Code's names, input schemas and results (`Bash`, `Read`, `Write`, `Edit`,
 * `MultiEdit`, `Grep`, `Glob`, `LS`), so Claude Code hooks written for them run unchanged
 * and a coding agent's model sees the tools it was trained on. The model is sent the names
 * as they are (`prefix` is false unless set); policies and hooks know them by
 * `<toolset>.Bash` too. File tools stay inside `root`; Bash starts there.
 */
import { realpath, stat } from "node:fs/promises";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { resolveTool } from "../resolved-tool.js";
import type { Toolset } from "../toolset.js";
import { bashTool } from "./bash-tool.js";
import { editTool, multiEditTool } from "./edit-tools.js";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";
import { lsTool } from "./ls-tool.js";
import { readTool } from "./read-tool.js";
import { writeTool } from "./write-tool.js";

export interface CodingToolsetOptions {
  /** An existing folder: the project. File tools stay inside it; Bash starts in it. */
  root: string;
  /** Send `<toolset>_Bash` instead of `Bash` to the model (default false). */
  prefix?: boolean;
}

export async function codingToolset(name: string, options: CodingToolsetOptions): Promise<Toolset> {
  let root: string;
  try {
    root = await realpath(options.root);
    if (!(await stat(root)).isDirectory()) throw new Error("not a folder");
  } catch (error) {
    throw new HookwiseError(
      `toolsets.${name}: root ${options.root} is not an existing folder (${(error as Error).message})`,
    );
  }
  const tools = {
    Bash: bashTool(root),
    Read: readTool(root),
    Write: writeTool(root),
    Edit: editTool(root),
    MultiEdit: multiEditTool(root),
    Grep: grepTool(root),
    Glob: globTool(root),
    LS: lsTool(root),
  };
  return {
    name,
    tools: Object.entries(tools).map(([tool, definition]) =>
      resolveTool(tool, definition, { toolset: name, prefix: options.prefix ?? false }),
    ),
    close: async () => {},
  };
}
