/**
 * What a run takes: a string, or the user's message with parts (text, images, files) as
 * the AI SDK writes them. Hooks see its text (`run_start`'s `input`, `ctx.input`): the text
 * parts and the content of text files given inline (a `text/*`, JSON, XML or YAML file as
 * bytes, base64 or a data URL). The transcript and the provider prompt get every part.
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

/** Media types whose content is text a content guard must read. */
const TEXT_MEDIA =
  /^\s*(text\/[\w.+-]+|application\/(json|xml|yaml|x-yaml|toml|x-toml|javascript|x-sh|sql|graphql|csv)|application\/[\w.-]+\+(json|xml|yaml))\s*(;|$)/i;

function isTextMedia(mediaType: unknown): boolean {
  return typeof mediaType === "string" && TEXT_MEDIA.test(mediaType);
}

const utf8 = new TextDecoder();

/** A data URL's media type and bytes. */
function fromDataUrl(url: string): { mediaType: string; text: string } | undefined {
  const match = /^data:([^,]*?),(.*)$/is.exec(url);
  if (!match) return undefined;
  const meta = match[1]!;
  const isBase64 = /;base64$/i.test(meta);
  const mediaType = (isBase64 ? meta.slice(0, -";base64".length) : meta) || "text/plain";
  const body = match[2]!;
  let text: string;
  try {
    text = isBase64 ? Buffer.from(body, "base64").toString("utf8") : decodeURIComponent(body);
  } catch {
    text = body;
  }
  return { mediaType, text };
}

/**
 * The text an inline text file holds, or undefined (not a text file, or one given by an
 * http(s) URL, which the provider fetches and hooks cannot read).
 */
function inlineText(data: unknown, mediaType: unknown): string | undefined {
  if (typeof data === "string" && /^data:/i.test(data)) {
    const url = fromDataUrl(data);
    return url && (isTextMedia(mediaType) || (mediaType === undefined && isTextMedia(url.mediaType)))
      ? url.text
      : undefined;
  }
  if (data instanceof URL) {
    return data.protocol === "data:" ? inlineText(data.href, mediaType) : undefined;
  }
  if (!isTextMedia(mediaType)) return undefined;
  if (typeof data === "string") {
    if (/^https?:\/\//i.test(data)) return undefined;
    return Buffer.from(data, "base64").toString("utf8");
  }
  if (data instanceof ArrayBuffer) return utf8.decode(new Uint8Array(data));
  if (ArrayBuffer.isView(data))
    return utf8.decode(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return undefined;
}

/** What hooks read of a part: a text part's text, an inline text file's content. */
export function partText(given: { type: string }): string | undefined {
  const part = given as { type: string; [key: string]: unknown };
  if (part.type === "text") return typeof part.text === "string" ? part.text : undefined;
  if (part.type === "file") return inlineText(part.data, part.mediaType);
  if (part.type === "image") return inlineText(part.image, part.mediaType);
  return undefined;
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
    if (part.type === "text" && typeof part.text !== "string") {
      throw new TypeError(`run input: content[${index}] is a text part whose text is not a string`);
    }
  }
  const text = content
    .map((part) => partText(part))
    .filter((piece): piece is string => piece !== undefined)
    .join("\n");
  return { text, parts: content };
}

/**
 * The run's user message: its parts when it had some (a `run_start` rewrite of the text
 * replaces the text parts and the text files hooks read, and keeps the others), else the text.
 */
export function userMessage(text: string, input: SplitInput | undefined): UserMessage {
  if (!input?.parts) return { role: "user", content: text };
  if (text === input.text) return { role: "user", content: input.parts };
  return {
    role: "user",
    content: [{ type: "text", text }, ...input.parts.filter((part) => partText(part) === undefined)],
  };
}
