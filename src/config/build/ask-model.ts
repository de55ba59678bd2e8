/**
 * One question to a model of the config, outside any run: a `type: "prompt"` Claude Code
 * hook's. The text the model answers, its parts joined; no tools, no retries (the hook's
 * failure mode decides what a failure does).
 */
import { type CallOptions, callableModel, type LanguageModel } from "../../models/language-model.js";

export async function askModel(model: LanguageModel, prompt: string, signal: AbortSignal): Promise<string> {
  const options = {
    prompt: [{ role: "user", content: [{ type: "text", text: prompt }] }],
    maxOutputTokens: 1024,
    abortSignal: signal,
  } as unknown as CallOptions;
  const result = (await callableModel(model).doGenerate(options)) as {
    content?: { type: string; text?: string }[];
  };
  return (result.content ?? [])
    .filter((part) => part.type === "text")
    .map((part) => part.text ?? "")
    .join("");
}
