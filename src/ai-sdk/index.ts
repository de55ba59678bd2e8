/**
 * `hookwise/ai-sdk`: hookwise runs for AI SDK front ends (`useChat`) — UI message streams — and
 * hookwise's hooks inside AI SDK code: a model middleware, tool wrappers and a stop condition.
 */

export {
  agentHooks,
  HookwiseHooks,
  type HookwiseHooksOptions,
  hookwiseHooks,
  type LoadHookwiseConfigOptions,
  loadHookwiseConfig,
} from "./hookwise-hooks.js";
export {
  type HookwiseLanguageModelMiddleware,
  hookwiseMiddleware,
  ModelRequestBlockedError,
} from "./hookwise-middleware.js";
export {
  type HookwiseStepLike,
  type HookwiseTermination,
  hookwiseStop,
  hookwiseTermination,
} from "./hookwise-stop.js";
export { type HookwiseToolsOptions, hookwiseTools, ToolCallBlockedError } from "./hookwise-tools.js";
export {
  type ToUIMessageStreamOptions,
  toUIMessageStream,
  uiMessageChunker,
} from "./to-ui-message-stream.js";
export {
  type ToUIMessageStreamResponseOptions,
  toUIMessageSseStream,
  toUIMessageStreamResponse,
} from "./to-ui-message-stream-response.js";
export {
  type HookwiseUIDataTypes,
  type HookwiseUIMessageChunk,
  UI_MESSAGE_STREAM_HEADERS,
} from "./ui-message-chunk.js";
