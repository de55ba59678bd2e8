/**
 * The run that calls a tool, handed to the tool through its execution options under a
 * symbol: a sub-agent tool needs its caller's lineage and hook registries (the parent's
 * decide hooks and policies govern the sub-agent, DESIGN §5); ordinary tools never see
 * it. Internal to the loop and sub-agent-tool.ts.
 */
import type { ToolExecutionOptions } from "../tools/tool.js";
import type { RunState } from "./run-state.js";

const CALLING_RUN = Symbol("hookwise.callingRun");

type WithCallingRun = ToolExecutionOptions & { [CALLING_RUN]?: RunState };

/** The execution options with the calling run attached (not enumerable: tools that log options stay clean). */
export function withCallingRun(options: ToolExecutionOptions, state: RunState): ToolExecutionOptions {
  Object.defineProperty(options, CALLING_RUN, { value: state, enumerable: false });
  return options;
}

/** The run calling this tool, when the loop called it (a hook's `call_tool` does not). */
export function callingRunOf(options: ToolExecutionOptions): RunState | undefined {
  return (options as WithCallingRun)[CALLING_RUN];
}
