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
