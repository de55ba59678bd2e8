/**
 * ModelMessage (the transcript's shape) → the provider prompt (LanguageModelV3Prompt, which
 * V4 shares for these parts). Conversions are cached per message object: committed messages
 * are immutable, so a long run converts each message once, not once per step.
 */
import type { LanguageModelV3Message, LanguageModelV3Prompt } from "@ai-sdk/provider";
import type { ModelMessage } from "../events/payloads.js";

const cache = new WeakMap<object, LanguageModelV3Message>();

function parts(content: unknown): any[] {
  if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
  return (content as any[]).map((part) =>
    part.type === "image" ? { type: "file", data: part.image, mediaType: part.mediaType ?? "image/*" } : part,
  );
}

function convert(message: ModelMessage): LanguageModelV3Message {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: parts(message.content) };
    case "assistant":
      return { role: "assistant", content: parts(message.content) };
    case "tool":
      return { role: "tool", content: message.content.filter((part) => part.type === "tool-result") as any };
  }
}

export function toPrompt(
  system: string | undefined,
  messages: readonly ModelMessage[],
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    let converted = cache.get(message);
    if (converted === undefined) {
      converted = convert(message);
      cache.set(message, converted);
    }
    prompt.push(converted);
  }
  return prompt;
}
