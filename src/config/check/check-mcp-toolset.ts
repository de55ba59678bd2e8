/**
 * What `validate` can check of an MCP toolset without starting its server — what would
 * otherwise stop the server from starting when the run begins: every `${VAR}` in `url`,
 * `headers`, `command`, `args` and `env` is set (as OpenAPI toolsets' settings are checked),
 * the url is a URL, and a stdio `command` written as a path exists and can run (resolved
 * against the config's folder, as the run resolves it). No value from the environment is
 * ever printed.
 */
import { isAbsolute, resolve } from "node:path";
import { EnvVariableError, expandEnv, unsetVariableProblem } from "../../tools/expand-env.js";
import type { ToolsetEntry } from "../schema/schema.js";
import type { ConfigIssue, ConfigPath } from "../source/config-error.js";
import { isProgramPath, programProblem } from "../source/program-problem.js";

type McpEntry = Extract<ToolsetEntry, { kind: "mcp" }>;

/** The config file and where a path is in it (build-toolsets.ts's ConfigSource, which builds with this check). */
interface ConfigSource {
  file: string;
  positionOf(path: ConfigPath): { line: number; column: number };
}

export function checkMcpToolset(
  name: string,
  entry: McpEntry,
  dir: string,
  source: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const add = (at: ConfigPath, message: string, extra: { expected?: string; suggestion?: string } = {}) => {
    const path = ["toolsets", name, ...at];
    issues.push({
      severity: "error",
      file: source.file,
      ...source.positionOf(path),
      path,
      message,
      ...extra,
    });
  };
  /** The value with its variables filled in; undefined after reporting an unset one. */
  const expand = (value: string, at: ConfigPath): string | undefined => {
    try {
      return expandEnv(value, at.join("."), env);
    } catch (error) {
      if (!EnvVariableError.isInstance(error)) throw error;
      const { problem, expected } = unsetVariableProblem(error.variable);
      add(at, problem, { expected });
      return undefined;
    }
  };
  const expandAll = (record: Readonly<Record<string, string>> | undefined, field: string) => {
    for (const [key, value] of Object.entries(record ?? {})) expand(value, [field, key]);
  };

  if (entry.url !== undefined) {
    const url = expand(entry.url, ["url"]);
    if (url !== undefined && !URL.canParse(url))
      add(["url"], `url "${entry.url}" is not a valid URL`, { expected: "e.g. http://127.0.0.1:3000/mcp" });
    expandAll(entry.headers, "headers");
  }
  if (entry.command !== undefined) {
    const command = expand(entry.command, ["command"]);
    (entry.args ?? []).forEach((arg, index) => void expand(arg, ["args", index]));
    expandAll(entry.env, "env");
    if (command !== undefined && isProgramPath(command)) {
      const file = isAbsolute(command) ? command : resolve(dir, command);
      const problem = programProblem(file);
      if (problem) {
        const folder = command.slice(0, command.lastIndexOf("/") + 1);
        add(["command"], `MCP server command ${entry.command} ${problem.reason} (${file})`, {
          expected:
            "a program relative to the config's folder, an absolute path, or a name on PATH (e.g. command: node, args: [./server.js])",
          ...(problem.nearest ? { suggestion: `${folder}${problem.nearest}` } : {}),
        });
      }
    }
  }
  return issues;
}
