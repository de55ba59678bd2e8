export {
  decideHarnessEvent,
  type HarnessDispatchOptions,
  type HarnessOutcome,
} from "./decide-harness-event.js";
export { HarnessInputError } from "./harness-input-error.js";
export { harnessTool, harnessTools, mcpQualifiedName } from "./harness-tools.js";
export { HARNESSES } from "./protocols.js";
export { TOOL_FAMILIES } from "./tool-families.js";
export * from "./types.js";
