/**
 * The hooks every contender is given: `perSeam` no-op functions at each of four seams
 * (before and after each model call, before and after each tool call). A sync hook only
 * counts its firing; an async one does the same in an `async` function, so the framework
 * has a promise to await. Each contender maps the seams to its framework's nearest
 * equivalent (bench/compare/README.md).
 */
import { counters } from "./script.js";

export type HookMode = "sync" | "async";
export type Hook = (payload: unknown) => void | Promise<void>;
export type SeamName = "beforeModel" | "afterModel" | "beforeTool" | "afterTool";
export const SEAMS: readonly SeamName[] = ["beforeModel", "afterModel", "beforeTool", "afterTool"];

export interface SeamHooks {
  mode: HookMode;
  perSeam: number;
  beforeModel: Hook[];
  afterModel: Hook[];
  beforeTool: Hook[];
  afterTool: Hook[];
}

let sink: unknown;

/** One distinct function per hook, as registered hooks are (never one shared closure). */
function hookFor(seam: SeamName, mode: HookMode): Hook {
  if (mode === "async")
    return async (payload) => {
      sink = payload;
      counters[seam]++;
    };
  return (payload) => {
    sink = payload;
    counters[seam]++;
  };
}

export function seamHooks(perSeam: number, mode: HookMode): SeamHooks {
  const list = (seam: SeamName) => Array.from({ length: perSeam }, () => hookFor(seam, mode));
  void sink;
  return {
    mode,
    perSeam,
    beforeModel: list("beforeModel"),
    afterModel: list("afterModel"),
    beforeTool: list("beforeTool"),
    afterTool: list("afterTool"),
  };
}
