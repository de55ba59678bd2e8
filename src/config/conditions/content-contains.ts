/**
 * `content_contains`: one of the last five messages contains a keyword,
 * case-insensitively. Every part's text counts: text and reasoning, tool-call arguments and
 * tool results (as JSON when they are not text). On a tool event the current call's
 * arguments count too (they are not in the transcript until the step ends).
 */
import { z } from "../../deps/zod.js";
import type { ModelMessage } from "../../events/payloads.js";
import { defineCondition } from "./condition-module.js";

const description = "Fires when one of the last 5 messages contains the keyword (case-insensitive).";
const WINDOW = 5;

function json(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

function partText(part: unknown): string {
  if (!part || typeof part !== "object") return "";
  const record = part as Record<string, unknown>;
  if (typeof record.text === "string") return record.text;
  if (record.type === "tool-call") return json(record.input);
  if (record.type === "tool-result") {
    const output = record.output as { value?: unknown; reason?: unknown } | undefined;
    return json(output?.value ?? output?.reason ?? "");
  }
  return "";
}

/** All the text of one message, parts joined by newlines. */
export function messageText(message: ModelMessage): string {
  if (typeof message.content === "string") return message.content;
  return (message.content as readonly unknown[]).map(partText).join("\n");
}

export const contentContains = defineCondition({
  type: "content_contains",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("content_contains"),
        keyword: z.string().min(1).describe("Text to look for, case-insensitive"),
      })
      .describe(description),
  compile(config) {
    const keyword = config.keyword.toLowerCase();
    return (evaluation) =>
      (evaluation.tool !== undefined && json(evaluation.tool.params).toLowerCase().includes(keyword)) ||
      evaluation.messages
        .slice(-WINDOW)
        .some((message) => messageText(message).toLowerCase().includes(keyword));
  },
  example: { type: "content_contains", keyword: "deploy" },
});
