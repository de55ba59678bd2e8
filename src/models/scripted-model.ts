/**
 * `scriptedModel`: an offline AI SDK (spec V3) model that answers each provider call, each
 * attempt, with the next entry of a script. It is public: users test their own hooks with it.
 * It never invents an answer: a call past the end throws `ScriptExhaustedError`.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { aiSdkProvider } from "./ai-sdk-provider.js";
import { markReadsNoPrompt } from "./reads-prompt.js";
import { ScriptExhaustedError } from "./script-exhausted-error.js";

export interface ScriptedToolCall {
  name: string;
  args?: unknown;
  /** Defaults to `call_<call number>_<index>`. */
  id?: string;
}

export interface ScriptEntry {
  text?: string;
  /**
   * The text as a stream sends it, piece by piece (instead of `text`; `run()` gets the pieces
   * joined). Without it a streamed text is split at spaces.
   */
  textDeltas?: string[];
  /** YAML spelling of `textDeltas`. */
  text_deltas?: string[];
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** YAML spelling of `toolCalls`. */
  tool_calls?: ScriptedToolCall[];
  /** This attempt fails with an API error (retryable for 408, 409, 429 and 5xx unless said). */
  error?: { status?: number; message?: string; retryable?: boolean; headers?: Record<string, string> };
  /** What the provider would report; cache figures only when given (as a provider that caches). */
  usage?: {
    inputTokens?: number;
    outputTokens?: number;
    cacheReadTokens?: number;
    cacheWriteTokens?: number;
  };
  /** Wait this long before answering (tests of timeouts and concurrency). */
  delayMs?: number;
}

/** An entry, or a function of the call that returns one (for tests that react to the prompt). */
export type ScriptStep =
  | ScriptEntry
  | ((call: LanguageModelV3CallOptions, callNumber: number) => ScriptEntry);

/**
 * Which entry a call reads: its 0-based index in the script. Kept elsewhere than in the
 * model (e.g. a counter per session in a state store), a position outlives the process.
 */
export type ScriptPosition = (call: LanguageModelV3CallOptions) => number | Promise<number>;

export interface ScriptedModelOptions {
  modelId?: string;
  /** Where the script came from, named in errors. */
  source?: string;
  /** Where each call reads the script; default: the entry after the previous call's. */
  position?: ScriptPosition;
  /**
   * False: no entry depends on the prompt (none is a function of the call, each states its
   * `usage.inputTokens` or takes 0), so the loop sends the model an empty prompt rather than
   * building one from the transcript (a replay's model). Default true.
   */
  readsPrompt?: boolean;
}

export interface ScriptedModel extends LanguageModelV3 {
  /**
   * The calls received, in order (each retry attempt is a call): the most recent 1,000, so
   * a long-running server on a scripted model does not keep every prompt it was sent.
   */
  readonly calls: LanguageModelV3CallOptions[];
  readonly scripted: true;
  /**
   * Reads the script from `position` from the next call on (undefined: from the entry after
   * the previous call's, as at the start).
   */
  keepPosition(position: ScriptPosition | undefined): void;
}

/** Whether `model` is a scripted model (whose position can be kept elsewhere). */
export function isScriptedModel(model: unknown): model is ScriptedModel {
  return (
    typeof model === "object" &&
    model !== null &&
    (model as { scripted?: unknown }).scripted === true &&
    typeof (model as { keepPosition?: unknown }).keepPosition === "function"
  );
}

const STATUS_RETRYABLE = (status: number) =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/** Characters per prompt message, measured once per message object (prompts share them). */
const messageSizes = new WeakMap<object, number>();

function promptCharacters(prompt: LanguageModelV3CallOptions["prompt"]): number {
  let total = 0;
  for (const message of prompt) {
    let size = messageSizes.get(message);
    if (size === undefined) {
      size = JSON.stringify(message).length;
      messageSizes.set(message, size);
    }
    total += size;
  }
  return total;
}

/** Usage as the script says, or an estimate (4 characters a token) so token accounting has numbers. */
function usageOf(entry: ScriptEntry, call: LanguageModelV3CallOptions): LanguageModelV3Usage {
  const input = entry.usage?.inputTokens ?? Math.ceil(promptCharacters(call.prompt) / 4);
  const output =
    entry.usage?.outputTokens ??
    Math.ceil(((textOf(entry) ?? "").length + JSON.stringify(toolCallsOf(entry)).length) / 4);
  return {
    inputTokens: {
      total: input,
      noCache: input - (entry.usage?.cacheReadTokens ?? 0) - (entry.usage?.cacheWriteTokens ?? 0),
      cacheRead: entry.usage?.cacheReadTokens,
      cacheWrite: entry.usage?.cacheWriteTokens,
    },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function textOf(entry: ScriptEntry): string | undefined {
  const deltas = entry.textDeltas ?? entry.text_deltas;
  return entry.text ?? deltas?.join("");
}

function toolCallsOf(entry: ScriptEntry): ScriptedToolCall[] {
  return entry.toolCalls ?? entry.tool_calls ?? [];
}

/** Splits text into a few deltas so streaming consumers see more than one chunk. */
export function splitIntoDeltas(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  if (words.length <= 1) return text ? [text] : [];
  const size = Math.max(1, Math.ceil(words.length / 3));
  const deltas: string[] = [];
  for (let index = 0; index < words.length; index += size)
    deltas.push(words.slice(index, index + size).join(""));
  return deltas;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** How many of its most recent calls a scripted model keeps (`calls`). */
const CALLS_KEPT = 1000;

export function scriptedModel(
  script: readonly ScriptStep[],
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const calls: LanguageModelV3CallOptions[] = [];
  let made = 0;
  let position = options.position;

  async function next(call: LanguageModelV3CallOptions): Promise<{ entry: ScriptEntry; callNumber: number }> {
    made++;
    calls.push(call);
    if (calls.length > CALLS_KEPT) calls.shift();
    // The call's number in the script (1-based), wherever the position is kept.
    const callNumber = position ? (await position(call)) + 1 : made;
    const step = script[callNumber - 1];
    if (step === undefined) {
      throw new ScriptExhaustedError({ callNumber, entries: script.length, source: options.source });
    }
    const entry = typeof step === "function" ? step(call, callNumber) : step;
    if (entry.delayMs) await sleep(entry.delayMs, call.abortSignal);
    if (entry.error) {
      const status = entry.error.status;
      throw new (aiSdkProvider().APICallError)({
        message: entry.error.message ?? `scripted error${status ? ` (status ${status})` : ""}`,
        url: "scripted://model",
        requestBodyValues: {},
        statusCode: status,
        responseHeaders: entry.error.headers,
        isRetryable: entry.error.retryable ?? (status !== undefined && STATUS_RETRYABLE(status)),
      });
    }
    return { entry, callNumber };
  }

  function content(entry: ScriptEntry, callNumber: number): LanguageModelV3Content[] {
    const parts: LanguageModelV3Content[] = [];
    if (entry.reasoning) parts.push({ type: "reasoning", text: entry.reasoning });
    const text = textOf(entry);
    if (text) parts.push({ type: "text", text });
    toolCallsOf(entry).forEach((toolCall, index) => {
      parts.push({
        type: "tool-call",
        toolCallId: toolCall.id ?? `call_${callNumber}_${index}`,
        toolName: toolCall.name,
        input: JSON.stringify(toolCall.args ?? {}),
      });
    });
    return parts;
  }

  const finishReason = (entry: ScriptEntry) =>
    toolCallsOf(entry).length > 0
      ? ({ unified: "tool-calls", raw: "tool_calls" } as const)
      : ({ unified: "stop", raw: "stop" } as const);

  const model: ScriptedModel = {
    specificationVersion: "v3",
    provider: "scripted",
    modelId: options.modelId ?? "scripted",
    supportedUrls: {},
    scripted: true,
    calls,
    keepPosition(kept) {
      position = kept;
    },
    async doGenerate(call): Promise<LanguageModelV3GenerateResult> {
      const { entry, callNumber } = await next(call);
      return {
        content: content(entry, callNumber),
        finishReason: finishReason(entry),
        usage: usageOf(entry, call),
        warnings: [],
        response: { id: `scripted-${callNumber}`, modelId: options.modelId ?? "scripted" },
      };
    },
    async doStream(call) {
      const { entry, callNumber } = await next(call);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      parts.push({
        type: "response-metadata",
        id: `scripted-${callNumber}`,
        modelId: options.modelId ?? "scripted",
      });
      if (entry.reasoning) {
        parts.push({ type: "reasoning-start", id: "r0" });
        for (const delta of splitIntoDeltas(entry.reasoning))
          parts.push({ type: "reasoning-delta", id: "r0", delta });
        parts.push({ type: "reasoning-end", id: "r0" });
      }
      const text = textOf(entry);
      if (text) {
        parts.push({ type: "text-start", id: "t0" });
        const deltas = entry.textDeltas ?? entry.text_deltas ?? splitIntoDeltas(text);
        for (const delta of deltas) parts.push({ type: "text-delta", id: "t0", delta });
        parts.push({ type: "text-end", id: "t0" });
      }
      for (const part of content(entry, callNumber)) {
        if (part.type !== "tool-call") continue;
        parts.push({ type: "tool-input-start", id: part.toolCallId, toolName: part.toolName });
        parts.push({ type: "tool-input-delta", id: part.toolCallId, delta: part.input });
        parts.push({ type: "tool-input-end", id: part.toolCallId });
        parts.push(part);
      }
      parts.push({ type: "finish", finishReason: finishReason(entry), usage: usageOf(entry, call) });
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      });
      return { stream };
    },
  };
  return options.readsPrompt === false ? markReadsNoPrompt(model) : model;
}
