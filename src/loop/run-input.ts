/**
 * What a run takes: a string, or the user's message with parts (text, images, files) as
 * the AI SDK writes them. Hooks see its text (`run_start`'s `input`, `ctx.input`); the
 * transcript and the provider prompt get every part.
 */
import type { ModelMessage } from "../events/payloads.js";

type UserMessage = Extract<ModelMessage, { role: "user" }>;

/** A run's input: text, or one user message whose content may hold text, image and file parts. */
export type RunInput = string | readonly UserMessage[];

export interface SplitInput {
  text: string;
  /** The message's parts, when the input was a message with parts. */
  parts?: Exclude<UserMessage["content"], string>;
}

export function splitInput(input: RunInput): SplitInput {
  if (typeof input === "string") return { text: input };
  if (!Array.isArray(input) || input.length !== 1 || input[0]?.role !== "user") {
    throw new TypeError(
      'run input: expected a string or one user message, e.g. [{ role: "user", content: [{ type: "text", text: "…" }, { type: "image", image: url }] }]',
    );
  }
  const content = input[0].content;
  if (typeof content === "string") return { text: content };
  if (!Array.isArray(content))
    throw new TypeError("run input: the user message's content must be a string or a list of parts");
  for (const [index, part] of content.entries()) {
    if (part?.type !== "text" && part?.type !== "image" && part?.type !== "file") {
      throw new TypeError(
        `run input: content[${index}] has type "${String(part?.type)}"; expected "text", "image" or "file"`,
      );
    }
  }
  const text = content
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("\n");
  return { text, parts: content };
}

/**
 * The run's user message: its parts when it had some (a `run_start` rewrite of the text
 * replaces the text parts and keeps the others), else the text.
 */
export function userMessage(text: string, input: SplitInput | undefined): UserMessage {
  if (!input?.parts) return { role: "user", content: text };
  if (text === input.text) return { role: "user", content: input.parts };
  return {
    role: "user",
    content: [{ type: "text", text }, ...input.parts.filter((part) => part.type !== "text")],
  };
}
