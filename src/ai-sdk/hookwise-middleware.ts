/**
 * `hookwiseMiddleware`: a language model middleware (`wrapLanguageModel({ model, middleware })`)
 * that runs hookwise's `model_request` hooks before every provider attempt — patches apply
 * to the call's parameters, a deny stops the call with an error naming the hook, a terminate
 * answers for the provider with nothing, which ends the AI SDK's loop — and `model_response`
 * inspections after it.
 */
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FunctionTool,
  LanguageModelV3Middleware,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  SharedV3Warning,
} from "@ai-sdk/provider";
import { HookwiseError } from "../errors/hookwise-error.js";
import type { EventPayload, ModelMessage, ModelRequest, ToolChoice } from "../events/payloads.js";
import { deepMerge, mergeRequestPatches } from "../hooks/merge-request-patch.js";
import type { RequestPatch } from "../hooks/request-patch.js";
import { toPrompt } from "../loop/to-prompt.js";
import { type HookwiseHooks, type HookwiseHooksOptions, hookwiseHooks } from "./hookwise-hooks.js";
import { ownTermination } from "./hookwise-stop.js";

/**
 * A provider call hookwise stopped: a `model_request` hook or policy denied it, or a blocking
 * hook failed. (A hook's terminate does not throw: the attempt answers nothing and the loop ends.)
 */
export class ModelRequestBlockedError extends HookwiseError {
  override readonly name = "ModelRequestBlockedError";
  constructor(
    message: string,
    readonly hook: string | undefined,
  ) {
    super(message);
  }

  /** Whether `error` is one (from any copy of hookwise in the process). */
  static override isInstance(error: unknown): error is ModelRequestBlockedError {
    return HookwiseError.isInstance(error) && error.name === "ModelRequestBlockedError";
  }
}

function toolChoiceOf(choice: LanguageModelV3CallOptions["toolChoice"]): ToolChoice {
  if (!choice) return "auto";
  return choice.type === "tool" ? { type: "tool", toolName: choice.toolName } : choice.type;
}

function toV3ToolChoice(choice: ToolChoice): LanguageModelV3CallOptions["toolChoice"] {
  return typeof choice === "string" ? { type: choice } : choice;
}

/** The call as hooks see it (a hookwise `ModelRequest`). */
function requestOf(params: LanguageModelV3CallOptions, modelLabel: string): ModelRequest {
  const system = params.prompt
    .filter((message) => message.role === "system")
    .map((message) => message.content as string)
    .join("\n\n");
  const tools = (params.tools ?? [])
    .filter((tool): tool is LanguageModelV3FunctionTool => tool.type === "function")
    .map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema as Record<string, unknown>,
    }));
  const request: ModelRequest = {
    step: 0,
    attempt: 1,
    system: system || undefined,
    // The prompt's messages are the AI SDK's model messages as the provider receives them.
    messages: params.prompt.filter((message) => message.role !== "system") as unknown as ModelMessage[],
    tools,
    toolChoice: toolChoiceOf(params.toolChoice),
    model: modelLabel,
  };
  for (const field of ["temperature", "maxOutputTokens", "topP", "seed", "stopSequences"] as const)
    if (params[field] !== undefined) (request as unknown as Record<string, unknown>)[field] = params[field];
  if (params.providerOptions)
    request.providerOptions = params.providerOptions as ModelRequest["providerOptions"];
  return request;
}

function contextBlock(item: string | { id?: string; text: string }): string {
  if (typeof item === "string") return `<context>\n${item}\n</context>`;
  return `<context${item.id ? ` id="${item.id.replace(/"/g, "'")}"` : ""}>\n${item.text}\n</context>`;
}

/** Adds a text part to the last user message of a prompt (a new user message if none). */
function appendToLastUser(prompt: LanguageModelV3Prompt, text: string): LanguageModelV3Prompt {
  const copy = [...prompt];
  for (let index = copy.length - 1; index >= 0; index--) {
    const message = copy[index]!;
    if (message.role !== "user") continue;
    copy[index] = { ...message, content: [...message.content, { type: "text", text }] };
    return copy;
  }
  copy.push({ role: "user", content: [{ type: "text", text }] });
  return copy;
}

/** The merged patch applied to a copy of the call's parameters. */
function applyToParams(params: LanguageModelV3CallOptions, patch: RequestPatch): LanguageModelV3CallOptions {
  const next: LanguageModelV3CallOptions = { ...params };
  let prompt = params.prompt;
  if (patch.messages !== undefined || patch.system !== undefined) {
    const system =
      patch.system ??
      params.prompt
        .filter((message) => message.role === "system")
        .map((message) => message.content as string)
        .join("\n\n");
    const rest =
      patch.messages !== undefined
        ? toPrompt(undefined, patch.messages)
        : params.prompt.filter((message) => message.role !== "system");
    prompt = [...(system ? [{ role: "system" as const, content: system }] : []), ...rest];
  }
  if (patch.appendToUserMessage !== undefined) prompt = appendToLastUser(prompt, patch.appendToUserMessage);
  if (patch.extraContext?.length)
    prompt = appendToLastUser(prompt, patch.extraContext.map(contextBlock).join("\n"));
  next.prompt = prompt;
  for (const field of ["temperature", "maxOutputTokens", "topP", "seed", "stopSequences"] as const)
    if (patch[field] !== undefined) (next as unknown as Record<string, unknown>)[field] = patch[field];
  if (patch.toolChoice !== undefined) next.toolChoice = toV3ToolChoice(patch.toolChoice);
  if (patch.providerOptions) {
    next.providerOptions = deepMerge(
      (params.providerOptions ?? {}) as Record<string, unknown>,
      patch.providerOptions,
    ) as LanguageModelV3CallOptions["providerOptions"];
  }
  if (patch.activeTools && next.tools) {
    const allowed = new Set(patch.activeTools);
    next.tools = next.tools.filter((tool) => allowed.has(tool.name));
  }
  return next;
}

async function beforeCall(
  set: HookwiseHooks,
  params: LanguageModelV3CallOptions,
  modelLabel: string,
  streaming: boolean,
): Promise<LanguageModelV3CallOptions> {
  const endedBefore = endedBeforeFirstStep(set, params);
  if (endedBefore) {
    const ended = { ...params };
    terminatedBy.set(ended, endedBefore);
    return ended;
  }
  if (!set.wants("model_request")) return params;
  const request = requestOf(params, modelLabel);
  const { runner, context, agentPath } = set.operation({
    messages: request.messages,
    signal: params.abortSignal,
    streaming,
  });
  const event: EventPayload<"model_request"> = {
    type: "model_request",
    agentPath,
    request,
    userMessage: context.input,
    history: request.messages,
    isFirstStep: !request.messages.some((message) => message.role === "assistant"),
  };
  const selection = runner.select(event, "model_request");
  const patched = await runner.dispatch(event, context, selection, { phase: "transforms" });
  if (patched.failure) {
    throw new ModelRequestBlockedError(
      `model call not made: ${patched.failure.message} (failed closed)`,
      patched.failure.hook,
    );
  }
  if (patched.terminal?.flow.type === "terminate") {
    // No provider call: the attempt answers nothing, which ends the AI SDK's loop (see wrapGenerate).
    const ended = { ...params };
    terminatedBy.set(ended, { hook: patched.terminal.hook, reason: patched.terminal.flow.reason });
    return ended;
  }
  let next = params;
  if (patched.patches.length) {
    const merged = mergeRequestPatches(patched.patches);
    for (const warning of merged.warnings) set.log.warn(warning);
    next = applyToParams(params, merged.patch);
    const narrowing = patched.patches.filter((named) => named.patch.activeTools !== undefined);
    if (narrowing.length)
      narrowedBy.set(
        next,
        narrowing.map((named) => named.hook),
      );
  }
  if (selection.decides.length) {
    const effective = { ...event, request: requestOf(next, modelLabel) };
    const decided = await runner.dispatch(effective, context, selection, { phase: "decides" });
    if (decided.failure) {
      throw new ModelRequestBlockedError(
        `model call not made: ${decided.failure.message} (failed closed)`,
        decided.failure.hook,
      );
    }
    if (decided.terminal?.flow.type === "deny") {
      throw new ModelRequestBlockedError(
        `model call denied by hook "${decided.terminal.hook}": ${decided.terminal.flow.reason}`,
        decided.terminal.hook,
      );
    }
  }
  runner.inspect(event, context, selection);
  return next;
}

/**
 * A hook's terminate of a call the AI SDK ran before its loop's first step (the answer to a
 * tool approval), whose failure this model call would read: no step showed it to a stop
 * condition, so the run ends here. Only the tool results that end the prompt count: a failure
 * read earlier in the conversation (before a user's message) is no call this run ran.
 */
function endedBeforeFirstStep(set: HookwiseHooks, params: LanguageModelV3CallOptions): Ended | undefined {
  for (let index = params.prompt.length - 1; index >= 0; index--) {
    const message = params.prompt[index]!;
    if (message.role !== "tool") return undefined;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.output.type !== "error-text") continue;
      const ended = set.takeEndedBeforeStep(part.toolCallId, part.output.value);
      if (ended) return { ...ended, toolCallId: part.toolCallId };
    }
  }
  return undefined;
}

/** The hook that ended the run (and the refused call's id, when a tool hook did). */
type Ended = { hook: string; reason: string; toolCallId?: string };

/** The hook that ended the run, by the call's (transformed) parameters. */
const terminatedBy = new WeakMap<LanguageModelV3CallOptions, Ended>();

const NO_USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/**
 * What a terminated attempt answers instead of calling the provider: no content (so no tool
 * calls, and the AI SDK's loop ends), finish reason `other`, which hook ended the run in the
 * step's provider metadata (`hookwiseTermination(steps)` reads it), and a warning that says
 * so (the AI SDK lists it in the result's `warnings` and logs it), so an empty answer is
 * never unexplained.
 */
function terminatedAnswer(ended: Ended) {
  return {
    finishReason: { unified: "other" as const, raw: "hookwise-terminated" },
    usage: NO_USAGE,
    providerMetadata: { hookwise: ownTermination({ terminated: true, ...ended }) },
  };
}

function terminatedWarnings(ended: Ended): SharedV3Warning[] {
  const reason = ended.reason ? `: ${ended.reason}` : "";
  return [
    {
      type: "other",
      message: `hookwise: hook "${ended.hook}" ended the run before this model call${reason}`,
    },
  ];
}

/** The hooks whose `activeTools` narrowed a call's tools, by the call's (transformed) parameters. */
const narrowedBy = new WeakMap<LanguageModelV3CallOptions, readonly string[]>();

/**
 * The tools a call offered are an allow-list: a tool call to any other tool is recorded, and
 * `hookwiseTools` refuses to run it (the AI SDK would run any tool of its own list).
 */
function checkOffered(
  set: HookwiseHooks,
  params: LanguageModelV3CallOptions,
  call: { toolCallId: string; toolName: string },
): void {
  const offered = (params.tools ?? []).some((tool) => tool.name === call.toolName);
  if (!offered) set.markUnoffered(call.toolCallId, call.toolName, narrowedBy.get(params) ?? []);
}

function inspectResponse(
  set: HookwiseHooks,
  params: LanguageModelV3CallOptions,
  modelLabel: string,
  streaming: boolean,
  answer: {
    text: string;
    toolCalls: { toolCallId: string; toolName: string; args: unknown }[];
    finishReason: string;
    usage: { inputTokens?: number; outputTokens?: number };
  },
): void {
  if (!set.wants("model_response")) return;
  const request = requestOf(params, modelLabel);
  const { runner, context, agentPath } = set.operation({
    messages: request.messages,
    signal: params.abortSignal,
    streaming,
  });
  const event: EventPayload<"model_response"> = {
    type: "model_response",
    agentPath,
    request,
    text: answer.text,
    toolCalls: answer.toolCalls,
    finishReason: answer.finishReason,
    usage: {
      inputTokens: answer.usage.inputTokens,
      outputTokens: answer.usage.outputTokens,
      totalTokens: (answer.usage.inputTokens ?? 0) + (answer.usage.outputTokens ?? 0),
    },
  };
  runner.inspect(event, context, runner.select(event, "model_response"));
}

function answerOf(content: readonly LanguageModelV3Content[]) {
  let text = "";
  const toolCalls: { toolCallId: string; toolName: string; args: unknown }[] = [];
  for (const part of content) {
    if (part.type === "text") text += part.text;
    else if (part.type === "tool-call")
      toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, args: part.input });
  }
  return { text, toolCalls };
}

type FinishReason = { unified?: string } | string | undefined;
const reasonOf = (reason: FinishReason) =>
  typeof reason === "string" ? reason : (reason?.unified ?? "unknown");

/**
 * What `hookwiseMiddleware` returns: a language model middleware that `wrapLanguageModel`
 * takes in AI SDK 6 (spec V3) and in AI SDK 7 (spec V4) alike. Its call options and results
 * are typed loosely (`any`) because they are V3's in one and V4's in the other, and a type
 * naming either would not compile against the other; at run time it reads the subset both
 * specs share.
 */
export interface HookwiseLanguageModelMiddleware {
  readonly specificationVersion: "v3";
  transformParams: (options: { type: "generate" | "stream"; params: any; model: any }) => PromiseLike<any>;
  wrapGenerate: (options: {
    doGenerate: () => PromiseLike<any>;
    doStream: () => PromiseLike<any>;
    params: any;
    model: any;
  }) => PromiseLike<any>;
  wrapStream: (options: {
    doGenerate: () => PromiseLike<any>;
    doStream: () => PromiseLike<any>;
    params: any;
    model: any;
  }) => PromiseLike<any>;
}

/**
 * A middleware for `wrapLanguageModel` that runs hookwise's `model_request` hooks (and
 * policies' request decides) on every provider attempt and `model_response` inspections
 * after it. Takes hooks in code (`{ hooks, policies }`) or a `HookwiseHooks` (e.g.
 * `await loadHookwiseConfig("hookwise.yaml")`).
 */
export function hookwiseMiddleware(
  hooks: HookwiseHooks | HookwiseHooksOptions,
): HookwiseLanguageModelMiddleware {
  const set = "operation" in hooks ? (hooks as HookwiseHooks) : hookwiseHooks(hooks as HookwiseHooksOptions);
  const label = (model: { provider: string; modelId: string }) => `${model.provider}:${model.modelId}`;
  const middleware: Required<
    Pick<LanguageModelV3Middleware, "transformParams" | "wrapGenerate" | "wrapStream">
  > &
    LanguageModelV3Middleware = {
    specificationVersion: "v3",
    transformParams: async ({ params, type, model }) =>
      beforeCall(set, params, label(model), type === "stream"),
    wrapGenerate: async ({ doGenerate, params, model }) => {
      const ended = terminatedBy.get(params);
      if (ended) return { content: [], warnings: terminatedWarnings(ended), ...terminatedAnswer(ended) };
      const result = await doGenerate();
      for (const part of result.content) if (part.type === "tool-call") checkOffered(set, params, part);
      const usage = result.usage as { inputTokens?: { total?: number }; outputTokens?: { total?: number } };
      inspectResponse(set, params, label(model), false, {
        ...answerOf(result.content),
        finishReason: reasonOf(result.finishReason as FinishReason),
        usage: { inputTokens: usage.inputTokens?.total, outputTokens: usage.outputTokens?.total },
      });
      return result;
    },
    wrapStream: async ({ doStream, params, model }) => {
      const ended = terminatedBy.get(params);
      if (ended) {
        const parts: LanguageModelV3StreamPart[] = [
          { type: "stream-start", warnings: terminatedWarnings(ended) },
          { type: "finish", ...terminatedAnswer(ended) },
        ];
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      }
      const { stream, ...rest } = await doStream();
      let text = "";
      const toolCalls: { toolCallId: string; toolName: string; args: unknown }[] = [];
      const watch = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") text += part.delta;
          else if (part.type === "tool-call") {
            checkOffered(set, params, part);
            toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, args: part.input });
          } else if (part.type === "finish") {
            const usage = part.usage as {
              inputTokens?: { total?: number };
              outputTokens?: { total?: number };
            };
            inspectResponse(set, params, label(model), true, {
              text,
              toolCalls,
              finishReason: reasonOf(part.finishReason as FinishReason),
              usage: { inputTokens: usage.inputTokens?.total, outputTokens: usage.outputTokens?.total },
            });
          }
          controller.enqueue(part);
        },
      });
      return { stream: stream.pipeThrough(watch), ...rest };
    },
  };
  return middleware;
}
