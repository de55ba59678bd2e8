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

export function toPromptMessage(message: ModelMessage): LanguageModelV3Message {
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
 * system prompt) is converted whole.
 */
export class PromptBuilder {
  #system: string | undefined;
  #messages: readonly ModelMessage[] = [];
  #prompt: LanguageModelV3Prompt | undefined;

  build(system: string | undefined, messages: readonly ModelMessage[]): LanguageModelV3Prompt {
    const previous = this.#messages;
    let prompt: LanguageModelV3Prompt;
    const last = this.#prompt;
    if (last !== undefined && system === this.#system && startsWithAll(messages, previous)) {
      // Sized once (a copy then pushes would leave it room for half as many again).
      const offset = system ? 1 : 0;
      prompt = new Array(messages.length + offset);
      const kept = previous.length + offset;
      for (let index = 0; index < kept; index++) prompt[index] = last[index]!;
      for (let index = previous.length; index < messages.length; index++)
        prompt[index + offset] = toPromptMessage(messages[index]!);
    } else prompt = toPrompt(system, messages);
    this.#system = system;
    this.#messages = messages;
    // Kept as built: providers read a prompt, they do not change it.
    this.#prompt = prompt;
    return prompt;
  }
}

/** Whether `messages` begins with every message of `prefix` (the same objects, in order). */
function startsWithAll(messages: readonly ModelMessage[], prefix: readonly ModelMessage[]): boolean {
  if (messages.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) if (messages[index] !== prefix[index]) return false;
  return true;
}
