/**
 * The merge rules of `model_request` patches, in one place. Patches arrive in
 * hook order; every hook saw the baseline request, not earlier patches.
 */
import type { ContextPlacement, RequestPatch } from "./request-patch.js";

export interface NamedPatch {
  hook: string;
  patch: RequestPatch;
}

export interface MergedPatch {
  patch: RequestPatch;
  /** For each field, the hook that last set it (used to name culprits in errors). */
  setBy: Partial<Record<keyof RequestPatch, string>>;
  /** Hooks that narrowed `activeTools`, in order. */
  activeToolsBy: string[];
  warnings: string[];
  /**
   * The text the patches add, by where it goes, in order: each hook's `appendToUserMessage`
   * (`kind: "append"`), then each `extraContext` block (`kind: "context"`).
   */
  additions: Addition[];
}

export interface Addition {
  kind: "append" | "context";
  placement: ContextPlacement;
  text: string;
}

function contextBlock(item: string | { id?: string; text: string }): string {
  if (typeof item === "string") return `<context>\n${item}\n</context>`;
  return `<context${item.id ? ` id="${item.id.replace(/"/g, "'")}"` : ""}>\n${item.text}\n</context>`;
}

const LAST_WRITER_WARNS = ["system", "messages"] as const;
const LAST_WRITER = [
  "temperature",
  "maxOutputTokens",
  "topP",
  "seed",
  "stopSequences",
  "toolChoice",
] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? deepMerge(current, value) : value;
  }
  return out;
}

/**
 * `canonicalTool` maps a tool name as a hook wrote it (function or qualified name) to one
 * spelling, so two hooks naming the same tool differently still intersect on it (and a
 * `toolChoice` naming the qualified name selects the function the model sees).
 */
export function mergeRequestPatches(
  patches: readonly NamedPatch[],
  canonicalTool: (name: string) => string = (name) => name,
): MergedPatch {
  const merged: RequestPatch = {};
  const setBy: MergedPatch["setBy"] = {};
  const activeToolsBy: string[] = [];
  const warnings: string[] = [];
  const append: string[] = [];
  const appended: Addition[] = [];
  const contexts: Addition[] = [];

  for (const { hook, patch } of patches) {
    const placement = patch.placement ?? "end";
    if (patch.extraContext?.length) {
      merged.extraContext = [...(merged.extraContext ?? []), ...patch.extraContext];
      setBy.extraContext = hook;
      for (const item of patch.extraContext) {
        contexts.push({
          kind: "context",
          placement: (typeof item === "object" && item.placement) || placement,
          text: contextBlock(item),
        });
      }
    }
    if (patch.appendToUserMessage !== undefined) {
      append.push(patch.appendToUserMessage);
      appended.push({ kind: "append", placement, text: patch.appendToUserMessage });
      setBy.appendToUserMessage = hook;
    }
    for (const field of LAST_WRITER_WARNS) {
      if (patch[field] === undefined) continue;
      const previous = setBy[field];
      if (previous !== undefined) {
        warnings.push(
          `RequestPatch.${field} set by both "${previous}" and "${hook}"; "${hook}" wins (last writer)`,
        );
      }
      (merged as Record<string, unknown>)[field] = patch[field];
      setBy[field] = hook;
    }
    for (const field of LAST_WRITER) {
      if (patch[field] === undefined) continue;
      (merged as Record<string, unknown>)[field] = patch[field];
      setBy[field] = hook;
    }
    // A tool named by toolChoice, like activeTools, may be spelled either way.
    const choice = patch.toolChoice;
    if (typeof choice === "object")
      merged.toolChoice = { ...choice, toolName: canonicalTool(choice.toolName) };
    if (patch.providerOptions) {
      merged.providerOptions = deepMerge(
        merged.providerOptions ?? {},
        patch.providerOptions,
      ) as RequestPatch["providerOptions"];
      setBy.providerOptions = hook;
    }
    if (patch.activeTools) {
      const names = patch.activeTools.map(canonicalTool);
      merged.activeTools = merged.activeTools
        ? merged.activeTools.filter((name) => names.includes(name))
        : names;
      activeToolsBy.push(hook);
      setBy.activeTools = hook;
    }
  }
  if (append.length) merged.appendToUserMessage = append.join("\n\n");
  return { patch: merged, setBy, activeToolsBy, warnings, additions: [...appended, ...contexts] };
}
