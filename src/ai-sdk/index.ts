/** `hookwise/ai-sdk`: hookwise runs for AI SDK front ends (`useChat`) — UI message streams. */
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
