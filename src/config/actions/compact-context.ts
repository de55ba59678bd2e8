/**
 * `compact_context`: shrinks the transcript when it weighs too much. Transform,
 * on `run_start` (`turn_start`), `step_start`, `step_end` and `run_end` (`turn_end`).
 *
 * - Removes the oldest messages, keeping at least `keep_recent`, never separating a tool
 *   call from its result, never the question of the run in progress (it moves after the
 *   summary, which is always the transcript's first message); with
 *   `target_pressure`, no more than needed to bring pressure (tokens / context window)
 *   under it, counting the replacement.
 * - `strategy: summarize` (default) replaces them with a summary written by the agent's
 *   model — or the model named by `model:` — in at most `summary_max_tokens`, following
 *   `summary_prompt`; `truncate` with a one-line note that they were removed.
 * - The loop fires `pre_compact` first (a decide hook may veto, a transform skip), so no
 *   summary is made in vain; the removed messages are archived with the session.
 * - `cooldown_turns`: after compacting, not again within that many runs of the session.
 */

import { contextWindowFor } from "../../context/context-window.js";
import { clipToTokens, countTextTokens, estimateTokens } from "../../context/count-tokens.js";
import { planCompaction } from "../../context/plan-compaction.js";
import { transcriptText } from "../../context/transcript-text.js";
import { z } from "../../deps/zod.js";
import type { ModelMessage } from "../../events/payloads.js";
import { flow } from "../../hooks/flow.js";
import type { ActionServices, Evaluation } from "../build/evaluation.js";
import { defineAction } from "./action-module.js";

const description =
  "Compacts the history: summarize (LLM) or truncate, keep_recent, target_pressure, cooldown_turns.";

export const DEFAULT_SUMMARY_PROMPT =
  "Summarize the conversation so far for the assistant that continues it. Keep the user's goals, " +
  "decisions taken, facts learned from tools (names, numbers, paths, ids) and open questions. " +
  "Write plain prose, no preamble.";

const schema = () =>
  z
    .strictObject({
      type: z.literal("compact_context"),
      strategy: z
        .enum(["summarize", "truncate"])
        .default("summarize")
        .describe("summarize (LLM) | truncate (fast)"),
      keep_recent: z.number().int().min(0).default(10).describe("The latest messages always kept"),
      summary_max_tokens: z.number().int().positive().default(1024).describe("The summary's length cap"),
      summary_prompt: z.string().min(1).optional().describe("Instructions for the summary"),
      target_pressure: z
        .number()
        .gt(0)
        .max(1)
        .optional()
        .describe("Remove just enough to bring pressure under this (0..1)"),
      cooldown_turns: z.number().int().min(0).default(0).describe("Runs to wait before compacting again"),
      model: z.string().min(1).optional().describe("summarize with this model (a name under models:)"),
    })
    .describe(description);

type Config = z.output<ReturnType<typeof schema>>;

function truncationNote(count: number): ModelMessage {
  return { role: "system", content: `[${count} earlier messages were removed to save context.]` };
}

/** The question of the run in progress (mid-run compaction must keep it). */
function currentQuestion(evaluation: Evaluation): ModelMessage[] {
  const { event, context, messages } = evaluation;
  if (event.type !== "step_start" && event.type !== "step_end") return [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "user" && message.content === context.input) return [message];
  }
  return [];
}

async function summarize(
  config: Config,
  evaluation: Evaluation,
  removed: readonly ModelMessage[],
): Promise<ModelMessage> {
  const model = evaluation.context.model;
  if (!model) throw new Error("strategy summarize needs a model, and this hook runs outside an agent loop");
  const limit = config.summary_max_tokens;
  const result = await model.generate({
    system: config.summary_prompt ?? DEFAULT_SUMMARY_PROMPT,
    messages: [
      {
        role: "user",
        content: `<conversation>\n${transcriptText(removed)}\n</conversation>\n\nSummarize it in at most ${limit} tokens.`,
      },
    ],
    maxOutputTokens: limit,
    ...(config.model ? { model: config.model } : {}),
  });
  const summary = clipToTokens(result.text.trim(), limit);
  return {
    role: "system",
    content: `Summary of the earlier conversation (${removed.length} messages compacted):\n${summary}`,
  };
}

function run(config: Config, services: ActionServices) {
  return async (evaluation: Evaluation) => {
    const { context, messages } = evaluation;
    const cooldownKey = `compact_context:${evaluation.hookId}:${context.sessionId}`;
    if (config.cooldown_turns > 0) {
      const last = await services.store.get<number>(cooldownKey);
      if (last !== undefined && context.turn - last < config.cooldown_turns) return undefined;
    }
    const meter = context.contextWindow;
    const window = meter?.window ?? contextWindowFor(context.model?.modelId);
    const replacementTokens =
      config.strategy === "summarize"
        ? config.summary_max_tokens + 32
        : countTextTokens(String(truncationNote(messages.length).content)) + 4;
    const protect = currentQuestion(evaluation);
    const plan = planCompaction({
      messages,
      keepRecent: config.keep_recent,
      protect,
      ...(config.target_pressure !== undefined ? { targetTokens: config.target_pressure * window } : {}),
      tokensOf: (list) => (meter ? meter.tokens(list) : estimateTokens(list)),
      replacementTokens,
    });
    if (!plan) return undefined;
    // A protected question inside the removed range moves after the summary, so the summary
    // (a system message) stays first: providers such as Anthropic take system text only there.
    const last = messages.indexOf(plan.remove.at(-1)!);
    const moved = protect.filter((message) => messages.indexOf(message) < last);
    return flow.compact({
      remove: [...plan.remove, ...moved],
      reason: `${config.strategy}, ${plan.remove.length} messages`,
      async replacement(removed) {
        const gone = removed.filter((message) => !moved.includes(message));
        const message =
          config.strategy === "summarize"
            ? await summarize(config, evaluation, gone)
            : truncationNote(gone.length);
        if (config.cooldown_turns > 0) await services.store.set(cooldownKey, context.turn);
        return [message, ...moved];
      },
    });
  };
}

export const compactContext = defineAction({
  type: "compact_context",
  description,
  schema,
  events: ["run_start", "step_start", "step_end", "run_end"],
  kind: () => "transform",
  compile: (config, services) => run(config, services),
  example: {
    type: "compact_context",
    strategy: "summarize",
    keep_recent: 10,
    summary_max_tokens: 1024,
    summary_prompt: "Summarize the conversation so far...",
    target_pressure: 0.5,
    cooldown_turns: 3,
  },
});
