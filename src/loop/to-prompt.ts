/**
 * ModelMessage (the transcript's shape) → the provider prompt (LanguageModelV3Prompt, which
 * V4 shares for these parts). Most transcript messages already have the prompt's shape
 * (array content of text, tool-call and tool-result parts), so they are passed as they
 * are; only string content and image parts need a new object. That keeps a long run from
 * allocating a copy of its history on every step.
 */
import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { ModelMessage } from "../events/payloads.js";

function needsParts(content: readonly { type: string }[]): boolean {
  for (const part of content) if (part.type === "image") return true;
  return false;
}

function parts(content: unknown): any[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  return (content as any[]).map((part) =>
    part.type === "image" ? { type: "file", data: part.image, mediaType: part.mediaType ?? "image/*" } : part,
  );
}

/**
 * Each message converted once: committed messages never change, and a session's history is
 * the same objects run after run (a store keeps them), so a session of many runs does not
 * convert every earlier run's user message again at each of its runs (5,000 replayed runs
 * made 12.5 million copies).
 */
const converted = new WeakMap<ModelMessage, LanguageModelV3Message>();

/** `cache` false: a conversion not kept for later builders (the caller keeps it for its own). */
export function toPromptMessage(message: ModelMessage, cache = true): LanguageModelV3Message {
  // Most messages are the prompt's own shape: no lookup for them (nothing is kept for them).
  if (isPromptShaped(message)) return message as LanguageModelV3Message;
  const known = converted.get(message);
  if (known) return known;
  const made = convert(message);
  if (cache && made !== (message as unknown)) converted.set(message, made);
  return made;
}

/** Whether `convert` would pass the message as it is. */
function isPromptShaped(message: ModelMessage): boolean {
  switch (message.role) {
    case "system":
      return true;
    case "user":
    case "assistant":
      return typeof message.content !== "string" && !needsParts(message.content);
    case "tool":
      for (const part of message.content) if (part.type !== "tool-result") return false;
      return true;
  }
}

function convert(message: ModelMessage): LanguageModelV3Message {
  switch (message.role) {
    case "system":
      return message as LanguageModelV3Message;
    case "user":
    case "assistant":
      if (typeof message.content !== "string" && !needsParts(message.content))
        return message as LanguageModelV3Message;
      return { role: message.role, content: parts(message.content) } as LanguageModelV3Message;
    case "tool":
      for (const part of message.content) {
        if (part.type !== "tool-result") {
          return {
            role: "tool",
            content: message.content.filter((item) => item.type === "tool-result") as any,
          };
        }
      }
      return message as LanguageModelV3Message;
  }
}

export function toPrompt(
  system: string | undefined,
  messages: readonly ModelMessage[],
): LanguageModelV3Prompt {
  // Sized once: pushing onto a growing list would reallocate it every few messages.
  const offset = system ? 1 : 0;
  const prompt: LanguageModelV3Prompt = new Array(messages.length + offset);
  if (system) prompt[0] = { role: "system", content: system };
  for (let index = 0; index < messages.length; index++)
    prompt[index + offset] = toPromptMessage(messages[index]!);
  return prompt;
}

/**
 * A run's prompts, step after step. A step's history is the previous step's plus what was
 * committed since (the transcript only grows between steps), so the previous prompt is
 * copied and only the new messages are converted: a long run does not convert its whole
 * history again on every step. Anything else (an edited or compacted transcript, another
 * system prompt) is converted whole. The builder keeps no list of the messages it was
 * given (a step's history may be the live transcript): it tells them by its prompt's
 * entries, which are the messages themselves or their conversions: an earlier run's
 * message's kept once for all runs (`toPromptMessage`), this run's own kept by the builder
 * (a one-run session then adds no entry to the shared cache; a message is converted once
 * more by its session's next run, which keeps it for all later ones).
 */
export class PromptBuilder {
  #system: string | undefined;
  #length = 0;
  #prompt: LanguageModelV3Prompt | undefined;
  /** The messages from `own` on this builder converted, and their conversions (pairs, in order). */
  #made: unknown[] | undefined;

  /**
   * The prompt of `system` and `messages`. `own`: where the run's own messages begin (they
   * are converted for this builder only); by default every message is an earlier run's.
   */
  build(
    system: string | undefined,
    messages: readonly ModelMessage[],
    own = messages.length,
  ): LanguageModelV3Prompt {
    const last = this.#prompt;
    const offset = system ? 1 : 0;
    const kept = this.#length;
    const reuse =
      last !== undefined &&
      system === this.#system &&
      messages.length >= kept &&
      startsWithPrompt(messages, kept, last, offset, this.#made);
    // Sized once (a copy then pushes would leave it room for half as many again).
    const prompt: LanguageModelV3Prompt = new Array(messages.length + offset);
    let from = 0;
    if (reuse) {
      for (let index = 0; index < kept + offset; index++) prompt[index] = last[index]!;
      from = kept;
    } else {
      this.#made = undefined;
      if (system) prompt[0] = { role: "system", content: system };
    }
    for (let index = from; index < messages.length; index++) {
      const message = messages[index]!;
      if (index < own) prompt[index + offset] = toPromptMessage(message);
      else {
        const made = toPromptMessage(message, false);
        prompt[index + offset] = made;
        if ((made as unknown) !== message) {
          this.#made ??= [];
          this.#made.push(message, made);
        }
      }
    }
    this.#system = system;
    this.#length = messages.length;
    // Kept as built: providers read a prompt, they do not change it.
    this.#prompt = prompt;
    return prompt;
  }
}

/**
 * Whether `messages` begins with the `length` messages `prompt` was built from (the same
 * objects, in order): each is its prompt entry, or the message that entry was converted from.
 */
function startsWithPrompt(
  messages: readonly ModelMessage[],
  length: number,
  prompt: LanguageModelV3Prompt,
  offset: number,
  made: readonly unknown[] | undefined,
): boolean {
  for (let index = 0; index < length; index++) {
    const message = messages[index]!;
    const entry = prompt[index + offset];
    if ((message as unknown) !== entry && !madeFrom(made, message, entry) && converted.get(message) !== entry)
      return false;
  }
  return true;
}

/** Whether the builder converted `message` into `entry` itself (`made`: message, conversion pairs). */
function madeFrom(made: readonly unknown[] | undefined, message: unknown, entry: unknown): boolean {
  if (made === undefined) return false;
  for (let index = 0; index < made.length; index += 2)
    if (made[index] === message) return made[index + 1] === entry;
  return false;
}
