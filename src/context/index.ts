/** Token accounting, context windows, tool-call pairing and compaction planning. */
export { ContextMeter, type ContextMeterOptions } from "./context-meter.js";
export { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from "./context-window.js";
export {
  clipToTokens,
  countMessageTokens,
  countTextTokens,
  estimateTokens,
  estimatingTokenizer,
  setTokenizer,
  type Tokenizer,
  useExactTokenizer,
} from "./count-tokens.js";
export { type CompactionPlan, type CompactionPlanOptions, planCompaction } from "./plan-compaction.js";
export { newlyUnpaired, toolCallIdsOf, unpairedToolCallIds } from "./tool-pairing.js";
export { transcriptText } from "./transcript-text.js";
