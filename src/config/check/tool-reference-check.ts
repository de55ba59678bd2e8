/**
 * One check of a tool pattern or name against the tools known, shared by every reference
 * to a tool: a policy's `tool`, an agent's `tools:`, a hook's `tool_name`, an action's tool,
 * a test's expectations. A miss says what is wrong and offers the nearest tool; a
 * `toolset.` prefix that names no toolset offers the nearest toolset; under a toolset whose
 * tools are not known yet (MCP, in `validate`) a miss is only a warning.
 */
import { picomatch } from "../../deps/picomatch.js";
import { editDistance, nearest } from "../../errors/nearest.js";
import { toolGlob } from "../../hooks/tool-glob.js";
import type { ConfigFile } from "../schema/schema.js";
import type { ConfigPath } from "../source/config-error.js";
import type { KnownTool, ToolCatalogue } from "./check-references.js";

export type AddIssue = (
  path: ConfigPath,
  message: string,
  extra?: { severity?: "warning"; expected?: string; suggestion?: string | undefined },
) => void;

export interface ToolReferenceOptions {
  /** A name, not a glob. */
  exact?: boolean;
  /** A miss is a warning (a negated condition still applies). */
  warnOnly?: boolean;
}

/** Checks one pattern or name against `tools`; `what` starts the message. Answers the tool found. */
export type ToolReferenceCheck = (
  pattern: string,
  path: ConfigPath,
  what: string,
  tools: readonly KnownTool[],
  options?: ToolReferenceOptions,
) => KnownTool | undefined;

const MAX_LISTED = 12;

export function toolReferenceCheck(
  config: Pick<ConfigFile, "toolsets">,
  catalogue: Pick<ToolCatalogue, "pending" | "harnessMcp">,
  add: AddIssue,
): ToolReferenceCheck {
  const toolsets = Object.keys(config.toolsets);
  const unprefixedPending = catalogue.pending.some((name) => config.toolsets[name]?.prefix === false);
  return (pattern, path, what, tools, { exact = false, warnOnly = false } = {}) => {
    if (pattern === "*" && !exact) return undefined;
    const test = exact ? (name: string) => name === pattern : toolGlob(pattern);
    const found = tools.find((tool) => test(tool.qualifiedName) || test(tool.functionName));
    if (found) return found;
    const severity = warnOnly ? { severity: "warning" as const } : {};
    const head = pattern.includes(".") ? pattern.slice(0, pattern.indexOf(".")) : undefined;
    // A harness's MCP tools are known only to the harness.
    if (
      catalogue.harnessMcp &&
      (pattern.startsWith("mcp__") || (head !== undefined && !toolsets.includes(head)))
    )
      return undefined;
    const headIsGlob = head !== undefined && !exact && picomatch.scan(head).isGlob;
    // A prefix some known tool has (`knownTools` of AI SDK code) is a toolset too.
    const ownedByATool =
      head !== undefined && tools.some((tool) => tool.qualifiedName.startsWith(`${head}.`));
    if (head !== undefined && !headIsGlob && head !== "agents" && !toolsets.includes(head) && !ownedByATool) {
      const known = toolsets.concat(
        tools.some((tool) => tool.qualifiedName.startsWith("lsp.")) ? ["lsp"] : [],
      );
      if (!known.includes(head)) {
        add(path, `${what} "${pattern}": no toolset is named "${head}"`, {
          ...severity,
          expected: toolsets.length
            ? `a toolset declared under toolsets: (${toolsets.join(", ")})`
            : "a toolset declared under toolsets:",
          suggestion: nearest(head, known),
        });
        return undefined;
      }
    }
    const pending =
      (head !== undefined && catalogue.pending.includes(head)) ||
      headIsGlob ||
      (head === undefined && unprefixedPending) ||
      (!exact && head === undefined && picomatch.scan(pattern).isGlob);
    if (pending && catalogue.pending.length) {
      add(path, `${what} "${pattern}" matches no tool known yet`, {
        severity: "warning",
        expected: `a tool of ${catalogue.pending.join(", ")}: their tools are listed when the run starts, and a pattern that matches none of them stops it`,
      });
      return undefined;
    }
    // Several tools may share a name (a harness's families: grep_search and search_file_content are search_files).
    const names = [...new Set(tools.map((tool) => tool.qualifiedName))];
    const listed =
      names.length > MAX_LISTED ? `${names.slice(0, MAX_LISTED).join(", ")}, …` : names.join(", ");
    add(path, `${what} "${pattern}" ${exact ? "names" : "matches"} no tool`, {
      ...severity,
      expected: names.length
        ? `${exact ? "one of" : "a tool name or pattern over"}: ${listed}`
        : "a tool of a toolset under toolsets:",
      suggestion: nearestTool(pattern, tools),
    });
    return undefined;
  };
}

/**
 * The tool name nearest a pattern: a close spelling (qualified, then function names), else a
 * name it is the start of (`fs_delete` → `fs_delete_file`), else the nearest once the glob
 * characters are dropped (`fs.[delete`).
 */
function nearestTool(pattern: string, tools: readonly KnownTool[]): string | undefined {
  const names = tools.map((tool) => tool.qualifiedName);
  const functionNames = tools.map((tool) => tool.functionName);
  const close = nearest(pattern, names) ?? nearest(pattern, functionNames);
  if (close !== undefined && editDistance(pattern.toLowerCase(), close.toLowerCase()) <= 2) return close;
  const bare = pattern.replace(/[*?[\]{}()!@+]/g, "").toLowerCase();
  const extended = [...names, ...functionNames]
    .filter((name) => bare.length >= 3 && name.toLowerCase().startsWith(bare))
    .sort((a, b) => a.length - b.length)[0];
  return (
    extended ??
    close ??
    (bare !== pattern.toLowerCase() ? (nearest(bare, names) ?? nearest(bare, functionNames)) : undefined)
  );
}
