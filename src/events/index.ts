export {
  ALL_EVENT_SPELLINGS,
  canonicalEventName,
  DELTA_EVENTS,
  EVENT_ALIASES,
  EVENT_KINDS,
  EVENT_NAMES,
  type EventName,
  type HookKind,
  isEventName,
  TOOL_EVENTS,
} from "./catalogue.js";
export type {
  AnyEventPayload,
  ErrorInfo,
  EventPayload,
  EventPayloads,
  ModelMessage,
  ModelRequest,
  ToolCallSummary,
  ToolChoice,
  ToolSpec,
} from "./payloads.js";
export { toolNamesOf } from "./payloads.js";
