/**
 * A step's request: the baseline built from the transcript, then one attempt's merged
 * `RequestPatch` applied to an outbound copy, then validated locally.
 */

import { HookwiseError } from "../errors/hookwise-error.js";
import type { ModelMessage, ModelRequest, ToolChoice, ToolSpec } from "../events/payloads.js";
import { type Addition, deepMerge, type MergedPatch } from "../hooks/merge-request-patch.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";

export class RequestValidationError extends HookwiseError {
  override readonly name = "RequestValidationError";
  readonly hook: string | undefined;

  constructor(message: string, hook?: string) {
    super(message);
    this.hook = hook;
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is RequestValidationError {
    return HookwiseError.isInstance(error) && error.name === "RequestValidationError";
  }
}

export function toolSpecs(tools: readonly ResolvedTool[]): ToolSpec[] {
  return tools.map((tool) => ({
    name: tool.functionName,
    description: tool.description,
    inputSchema: tool.input.jsonSchema,
  }));
}

function withText(message: ModelMessage, text: string): ModelMessage {
  if (message.role !== "user") return message;
  const content =
    typeof message.content === "string"
      ? [
          { type: "text" as const, text: message.content },
          { type: "text" as const, text },
        ]
      : [...message.content, { type: "text" as const, text }];
  return { ...message, content };
}

/** The texts of `additions` of one kind and placement, joined as they go in (or undefined). */
function joined(additions: readonly Addition[], kind: Addition["kind"], placement: Addition["placement"]) {
  let text: string | undefined;
  for (const addition of additions) {
    if (addition.kind !== kind || addition.placement !== placement) continue;
    text = text === undefined ? addition.text : `${text}${kind === "append" ? "\n\n" : "\n"}${addition.text}`;
  }
  return text;
}

function lastUserIndex(messages: readonly ModelMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--)
    if (messages[index]!.role === "user") return index;
  return -1;
}

/**
 * After the last message: appended to it when it is a user message, else a user message of
 * its own (after tool results too: every provider takes a user turn there). What came
 * before is untouched, byte for byte: the provider's prompt cache still covers it.
 */
function atEnd(messages: ModelMessage[], text: string): void {
  const last = messages.length - 1;
  if (last >= 0 && messages[last]!.role === "user") messages[last] = withText(messages[last]!, text);
  else messages.push({ role: "user", content: text });
}

/**
 * Applies a merged patch to a copy of `baseline`. `userMessageIndex` is where the run's
 * user message sits in the history (-1 when none), for `appendToUserMessage` placed in it.
 */
export function applyPatch(
  baseline: ModelRequest,
  merged: MergedPatch,
  tools: readonly ResolvedTool[],
  userMessageIndex: number,
): ModelRequest {
  const { patch, additions } = merged;
  const request: ModelRequest = { ...baseline };
  if (patch.system !== undefined) request.system = patch.system;
  let messages = patch.messages ?? baseline.messages;
  if (additions.length) {
    const copy = [...messages];
    // The literal placements first: the run's user message, the last user message.
    const toUser = joined(additions, "append", "user_message");
    if (toUser !== undefined && patch.messages === undefined && userMessageIndex >= 0)
      copy[userMessageIndex] = withText(copy[userMessageIndex]!, toUser);
    const contextToUser = joined(additions, "context", "user_message");
    if (contextToUser !== undefined) {
      const last = lastUserIndex(copy);
      if (last >= 0) copy[last] = withText(copy[last]!, contextToUser);
      else copy.push({ role: "user", content: contextToUser });
    }
    const toSystem = [joined(additions, "append", "system"), joined(additions, "context", "system")]
      .filter((text) => text !== undefined)
      .join("\n\n");
    if (toSystem) request.system = request.system ? `${request.system}\n\n${toSystem}` : toSystem;
    const appendAtEnd = joined(additions, "append", "end");
    if (appendAtEnd !== undefined) atEnd(copy, appendAtEnd);
    const contextAtEnd = joined(additions, "context", "end");
    if (contextAtEnd !== undefined) atEnd(copy, contextAtEnd);
    messages = copy;
  }
  request.messages = messages;
  for (const field of [
    "temperature",
    "maxOutputTokens",
    "topP",
    "seed",
    "stopSequences",
    "toolChoice",
  ] as const) {
    if (patch[field] !== undefined) (request as unknown as Record<string, unknown>)[field] = patch[field];
  }
  if (patch.providerOptions) {
    // Deep-merged onto the agent's own options too: a patch adding one provider's key
    // must not drop another's.
    request.providerOptions = deepMerge(
      baseline.providerOptions ?? {},
      patch.providerOptions,
    ) as ModelRequest["providerOptions"];
  }
  if (patch.activeTools) {
    const allowed = new Set(patch.activeTools);
    request.tools = toolSpecs(tools.filter((tool) => allowed.has(tool.functionName)));
  }
  return request;
}

/** `toolChoice` must name a tool the request offers; checked before any provider call. */
export function validateRequest(
  request: ModelRequest,
  merged: MergedPatch,
  baselineTools: readonly ToolSpec[],
): void {
  const choice: ToolChoice = request.toolChoice;
  // "auto" and "none" hold for any tool list: nothing to check (the common path).
  if (choice === "auto" || choice === "none") return;
  const offered = new Set(request.tools.map((tool) => tool.name));
  const narrowedBy = merged.activeToolsBy.length
    ? merged.activeToolsBy.map((hook) => `"${hook}"`).join(", ")
    : undefined;
  const choiceHook = merged.setBy.toolChoice;
  if (choice === "required" && offered.size === 0) {
    throw new RequestValidationError(
      `toolChoice "required" but the request offers no tool` +
        (narrowedBy && baselineTools.length
          ? `: activeTools of hook ${narrowedBy} removed every tool; set a compatible toolChoice in the same patch`
          : ""),
      merged.activeToolsBy.at(-1) ?? choiceHook,
    );
  }
  if (typeof choice === "object" && !offered.has(choice.toolName)) {
    const removed = baselineTools.some((tool) => tool.name === choice.toolName);
    throw new RequestValidationError(
      `toolChoice names tool "${choice.toolName}", which the request does not offer` +
        (removed && narrowedBy ? `: activeTools of hook ${narrowedBy} removed it` : ""),
      removed ? merged.activeToolsBy.at(-1) : choiceHook,
    );
  }
}
