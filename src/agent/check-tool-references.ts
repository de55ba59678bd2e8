/**
 * Code as strict as config: at `createAgent`, a policy's tool pattern or a hook's `match`
 * that matches no tool the agent can reach is an error with the nearest tool name, as
 * `hookwise validate` says of the same mistake in a config. A tool is reachable when it is
 * the agent's or a sub-agent's (the agent's hooks and policies apply there too).
 *
 * Agents a config builds skip it (`referencesChecked`): the config's checks ran already, with
 * the file's line and column, and an app-wide policy may name another agent's tool.
 */
import { editDistance, nearest } from "../errors/nearest.js";
import { toolGlob } from "../hooks/tool-glob.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import { delegateOf } from "./sub-agent-tool.js";
import type { AgentOptions, AgentRuntime } from "./types.js";

/** Set by builders whose tool references were checked already (a config). */
export const referencesChecked = Symbol.for("hookwise.referencesChecked");

const MAX_LISTED = 12;

/** Every tool `tools` reach: theirs, and their sub-agents' tools, at any depth. */
function reachable(tools: readonly ResolvedTool[], seen = new Set<AgentRuntime>()): ResolvedTool[] {
  const all = [...tools];
  for (const tool of tools) {
    const delegate = delegateOf(tool);
    if (!delegate || seen.has(delegate)) continue;
    seen.add(delegate);
    all.push(...reachable(delegate.tools, seen));
  }
  return all;
}

/** The nearest tool name: a close spelling, else a name the pattern starts. */
function nearestTool(pattern: string, names: readonly string[]): string | undefined {
  const close = nearest(pattern, names);
  if (close !== undefined && editDistance(pattern.toLowerCase(), close.toLowerCase()) <= 2) return close;
  const bare = pattern.replace(/[*?[\]{}()!@+]/g, "").toLowerCase();
  const extended = names
    .filter((name) => bare.length >= 3 && name.toLowerCase().startsWith(bare))
    .sort((a, b) => a.length - b.length)[0];
  return extended ?? close;
}

export function checkToolReferences(options: AgentOptions, runtime: AgentRuntime): void {
  if ((options as { [referencesChecked]?: boolean })[referencesChecked]) return;
  const tools = reachable(runtime.tools);
  const names = [...new Set(tools.flatMap((tool) => [tool.qualifiedName, tool.functionName]))];
  const check = (pattern: string, where: string) => {
    if (pattern === "*") return;
    const test = toolGlob(pattern);
    if (names.some(test)) return;
    const suggestion = nearestTool(pattern, names);
    const listed =
      names.length > MAX_LISTED ? `${names.slice(0, MAX_LISTED).join(", ")}, …` : names.join(", ");
    throw new TypeError(
      `createAgent: ${where} "${pattern}" matches no tool of the agent` +
        (suggestion ? `; did you mean "${suggestion}"?` : "") +
        (names.length ? ` (its tools: ${listed})` : " (it has no tools)"),
    );
  };
  (options.policies ?? []).forEach((policy, index) => {
    check(policy.tool, `policies[${index}] (${policy.decision})`);
  });
  for (const hook of options.hooks ?? []) {
    if (hook.match === undefined) continue;
    for (const pattern of typeof hook.match === "string" ? [hook.match] : hook.match)
      check(pattern, `hook "${hook.name}": match`);
  }
}
