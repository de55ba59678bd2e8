/**
 * Normalises what a V3 or V4 model returned into a `ModelTurn`. Generation results are
 * read whole; streams are folded part by part so the loop can surface deltas live.
 */
import type { ModelToolCall, ModelTurn, ModelUsage } from "./language-model.js";

type Part = { type: string; [key: string]: unknown };

function read(field: number | { total?: number } | undefined): number | undefined {
  return typeof field === "number" ? field : field?.total;
}

type InputTokens = { total?: number; cacheRead?: number; cacheWrite?: number };

export function readUsage(usage: unknown): ModelUsage {
  const value = (usage ?? {}) as {
    inputTokens?: number | InputTokens;
    outputTokens?: number | { total?: number };
    totalTokens?: number;
    /** V2-era flat field some providers still fill. */
    cachedInputTokens?: number;
  };
  const inputTokens = read(value.inputTokens);
  const outputTokens = read(value.outputTokens);
  const totalTokens =
    value.totalTokens ??
    (inputTokens === undefined && outputTokens === undefined
      ? undefined
      : (inputTokens ?? 0) + (outputTokens ?? 0));
  // Cache figures only when the provider gave them: "0 read" and "not reported" differ.
  const details = typeof value.inputTokens === "object" ? value.inputTokens : undefined;
  const cacheRead = details?.cacheRead ?? value.cachedInputTokens;
  const cacheWrite = details?.cacheWrite;
  // Both reported (the common case): every field in the literal (fields added later cost
  // the object a second store). Otherwise the one reported is added.
  if (typeof cacheRead === "number" && typeof cacheWrite === "number")
    return {
      inputTokens,
      outputTokens,
      totalTokens,
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
    };
  const result: ModelUsage = { inputTokens, outputTokens, totalTokens };
  if (typeof cacheRead === "number") result.cacheReadTokens = cacheRead;
  if (typeof cacheWrite === "number") result.cacheWriteTokens = cacheWrite;
  return result;
}

export function readFinishReason(reason: unknown): string {
  if (typeof reason === "string") return reason;
  if (typeof reason === "object" && reason !== null && "unified" in reason) {
    return String((reason as { unified: unknown }).unified);
  }
  return "other";
}

function inputText(input: unknown): string {
  return typeof input === "string" ? input : JSON.stringify(input ?? {});
}

/** A model tool call with its arguments parsed once, here, for every later reader. */
export function toolCallOf(toolCallId: string, toolName: string, input: unknown): ModelToolCall {
  const rawInput = inputText(input);
  if (typeof input !== "string")
    return { toolCallId, toolName, rawInput, args: input ?? {}, argsParsed: true };
  if (rawInput.trim() === "") return { toolCallId, toolName, rawInput, args: {}, argsParsed: true };
  try {
    return { toolCallId, toolName, rawInput, args: JSON.parse(rawInput), argsParsed: true };
  } catch {
    return { toolCallId, toolName, rawInput, args: rawInput, argsParsed: false };
  }
}

/** Reads a doGenerate result. Provider-executed tool calls are not ours to run. */
export function readGenerateResult(result: unknown): ModelTurn {
  const value = result as { content?: Part[]; finishReason?: unknown; usage?: unknown; response?: unknown };
  let text = "";
  let reasoning = "";
  const content = value.content ?? [];
  // Sized once: a list grown by pushes reserves room for 16 calls at the first.
  let count = 0;
  for (const part of content) if (part.type === "tool-call" && part.providerExecuted !== true) count++;
  const toolCalls: ModelToolCall[] = new Array(count);
  count = 0;
  for (const part of content) {
    if (part.type === "text") text += String(part.text ?? "");
    else if (part.type === "reasoning") reasoning += String(part.text ?? "");
    else if (part.type === "tool-call" && part.providerExecuted !== true) {
      toolCalls[count++] = toolCallOf(String(part.toolCallId), String(part.toolName), part.input);
    }
  }
  const response = value.response as { id?: string; modelId?: string } | undefined;
  // Every field in the literal (one object shape), not a conditional spread (V8's slow path).
  return {
    text,
    reasoning,
    toolCalls,
    finishReason: readFinishReason(value.finishReason),
    usage: readUsage(value.usage),
    response: response ? { id: response.id, modelId: response.modelId } : undefined,
  };
}

export interface StreamFold {
  turn: ModelTurn;
  /** Pending tool-call inputs assembled from tool-input deltas, by id. */
  pendingInputs: Map<string, { toolName: string; input: string }>;
}

export function startStreamFold(): StreamFold {
  return {
    turn: {
      text: "",
      reasoning: "",
      toolCalls: [],
      finishReason: "other",
      usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
      response: undefined,
    },
    pendingInputs: new Map(),
  };
}

export type StreamSignal =
  | { type: "text-delta"; delta: string }
  | { type: "reasoning-delta"; delta: string }
  | { type: "tool-call-delta"; toolCallId: string; toolName: string; delta: string }
  | { type: "error"; error: unknown }
  | undefined;

/** Folds one stream part into the turn; returns what the loop should surface, if anything. */
export function foldStreamPart(fold: StreamFold, part: Part): StreamSignal {
  const { turn } = fold;
  switch (part.type) {
    case "text-delta": {
      const delta = String(part.delta ?? part.textDelta ?? "");
      turn.text += delta;
      return { type: "text-delta", delta };
    }
    case "reasoning-delta": {
      const delta = String(part.delta ?? "");
      turn.reasoning += delta;
      return { type: "reasoning-delta", delta };
    }
    case "tool-input-start":
      fold.pendingInputs.set(String(part.id), { toolName: String(part.toolName), input: "" });
      return undefined;
    case "tool-input-delta": {
      const pending = fold.pendingInputs.get(String(part.id));
      if (!pending) return undefined;
      pending.input += String(part.delta ?? "");
      return {
        type: "tool-call-delta",
        toolCallId: String(part.id),
        toolName: pending.toolName,
        delta: String(part.delta ?? ""),
      };
    }
    case "tool-call":
      if (part.providerExecuted === true) return undefined;
      fold.pendingInputs.delete(String(part.toolCallId));
      turn.toolCalls.push(toolCallOf(String(part.toolCallId), String(part.toolName), part.input));
      return undefined;
    case "response-metadata":
      turn.response = { id: part.id as string | undefined, modelId: part.modelId as string | undefined };
      return undefined;
    case "finish":
      turn.finishReason = readFinishReason(part.finishReason);
      turn.usage = readUsage(part.usage);
      return undefined;
    case "error":
      return { type: "error", error: part.error };
    default:
      return undefined;
  }
}
