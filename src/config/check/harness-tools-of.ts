/**
 * The harnesses a config guards (`harness:`) and their tools as `validate` and `hookwise hook`
 * check references against: the harness's own names (`Bash`, `run_shell_command`) and the
 * names shared across harnesses (`shell`, `read_file`…). MCP tools of a harness are known
 * only to the harness: patterns naming them (`mcp__github__*`, `github.create_issue`) pass.
 */
import { harnessTools } from "../../harnesses/harness-tools.js";
import { HARNESSES } from "../../harnesses/protocols.js";
import type { HarnessName } from "../../harnesses/types.js";
import type { ConfigFile } from "../schema/schema.js";

export function harnessesOf(config: Pick<ConfigFile, "harness">): HarnessName[] {
  const { harness } = config;
  if (harness === undefined) return [];
  return typeof harness === "string" ? [harness] : [...new Set(harness)];
}

export function harnessKnownTools(
  config: Pick<ConfigFile, "harness">,
): { qualifiedName: string; functionName: string }[] {
  const names = harnessesOf(config);
  if (!names.length) return [];
  return harnessTools(names.map((name) => HARNESSES[name])).map((tool) => ({
    qualifiedName: tool.qualifiedName,
    functionName: tool.functionName,
  }));
}
