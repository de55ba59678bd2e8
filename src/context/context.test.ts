import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { MissingPackageError, redirectOptionalPackage } from "../errors/optional-package.js";
import type { ModelMessage } from "../events/payloads.js";
import { ContextMeter } from "./context-meter.js";
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from "./context-window.js";
import {
  clipToTokens,
  countMessageTokens,
  countTextTokens,
  estimateTokens,
  estimatingTokenizer,
  setTokenizer,
  useExactTokenizer,
} from "./count-tokens.js";
import { planCompaction } from "./plan-compaction.js";
import { newlyUnpaired, unpairedToolCallIds } from "./tool-pairing.js";
import { transcriptText } from "./transcript-text.js";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const answer = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });
const call = (id: string, name = "lookup"): ModelMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName: name, input: { q: id } }],
});
const result = (id: string, value = `result of ${id}`, name = "lookup"): ModelMessage => ({
  role: "tool",
  content: [{ type: "tool-result", toolCallId: id, toolName: name, output: { type: "text", value } }],
});

describe("contextWindowFor", () => {
  it.each([
    ["gpt-4.1-mini", 1_047_576],
    ["gpt-4o-2024-11-20", 128_000],
    ["openai/gpt-4o-mini", 128_000],
    ["o3-mini", 200_000],
    ["o4-mini", 200_000],
    ["claude-sonnet-4-5", 200_000],
    ["models/gemini-2.0-flash", 1_048_576],
    ["gpt-5-mini", 400_000],
    // The most specific prefix wins: these are not plain gpt-4 (8 192).
    ["gpt-4-32k", 32_768],
    ["gpt-4-32k-0613", 32_768],
    ["gpt-4.5-preview", 128_000],
    ["openai/gpt-4.5-preview-2025-02-27", 128_000],
    ["GPT-4-32K", 32_768],
    ["gpt-4-0125-preview", 128_000],
    ["gpt-4-1106-preview", 128_000],
    ["gpt-4", 8_192],
    ["gpt-4-0613", 8_192],
    ["o1-mini-2024-09-12", 128_000],
    ["llama3.1:8b", DEFAULT_CONTEXT_WINDOW],
    ["scripted", DEFAULT_CONTEXT_WINDOW],
  ])("%s → %i", (id, window) => {
    expect(contextWindowFor(id)).toBe(window);
  });

  it("a configured window wins; none and no id fall back to 128 000", () => {
    expect(contextWindowFor("gpt-4o", 8_000)).toBe(8_000);
    expect(contextWindowFor(undefined)).toBe(128_000);
    expect(DEFAULT_CONTEXT_WINDOW).toBe(128_000);
  });
});

describe("token estimates (tokenx by default; gpt-tokenizer on request)", () => {
  afterEach(() => setTokenizer(estimatingTokenizer));

  it("estimates text without a vocabulary, special tokens as plain text", () => {
    expect(countTextTokens("hello world")).toBe(2);
    expect(countTextTokens("")).toBe(0);
    expect(countTextTokens("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("useExactTokenizer counts with o200k_base, and cached message counts start over", async () => {
    const message = user("Tokenization of antidisestablishmentarianism");
    const estimated = countMessageTokens(message);
    const exact = await useExactTokenizer();
    expect(exact.name).toBe("o200k_base");
    expect(countTextTokens("<|endoftext|>")).toBe(7);
    expect(countMessageTokens(message)).toBe(countTextTokens(message.content as string) + 4);
    expect(countMessageTokens(message)).not.toBe(estimated);
    expect(clipToTokens("one two three four five six", 3)).toBe("one two three");
  });

  it("useExactTokenizer without gpt-tokenizer installed names the package to install", async () => {
    const restore = redirectOptionalPackage("gpt-tokenizer", "gpt-tokenizer-not-installed");
    try {
      const error = await useExactTokenizer().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(MissingPackageError);
      expect((error as Error).message).toBe(
        "The exact tokenizer needs the package gpt-tokenizer, which is not installed: npm install gpt-tokenizer",
      );
    } finally {
      restore();
    }
    expect(countTextTokens("hello world")).toBe(2); // still the estimator
  });

  it("counts each message's content plus its framing, tool parts included", () => {
    expect(countMessageTokens(user("hello world"))).toBe(2 + 4);
    expect(countMessageTokens(result("c1", "forty-two"))).toBe(countTextTokens("forty-two") + 4);
    expect(countMessageTokens(call("c1"))).toBeGreaterThan(4);
    expect(estimateTokens([user("hello world"), user("hello world")])).toBe(12);
  });

  it("clips text to a number of tokens", () => {
    const text = "one two three four five six seven eight";
    expect(clipToTokens(text, 100)).toBe(text);
    const clipped = clipToTokens(text, 3);
    expect(countTextTokens(clipped)).toBe(3);
    expect(text.startsWith(clipped)).toBe(true);
  });
});

describe("ContextMeter", () => {
  function meter(transcript: ModelMessage[], window = 1_000) {
    return new ContextMeter({ window, overheadTokens: () => 50, transcript: () => transcript });
  }

  it("before any report: the overhead plus an estimate of the transcript", () => {
    const transcript = [user("hello world")];
    expect(meter(transcript).tokens()).toBe(50 + 6);
    expect(meter(transcript).pressure()).toBeCloseTo(0.056);
  });

  it("after a report: the reported count plus an estimate of what was added since", () => {
    const transcript = [user("hello world")];
    const measured = meter(transcript);
    measured.observe(transcript, 400);
    expect(measured.tokens()).toBe(400);
    transcript.push(answer("hi"));
    expect(measured.tokens()).toBe(400 + countMessageTokens(answer("hi")));
  });

  it("a transcript that no longer starts with what was sent is estimated whole", () => {
    const first = user("hello world");
    const transcript = [first, answer("hi")];
    const measured = meter(transcript);
    measured.observe(transcript, 400);
    transcript[0] = user("a summary"); // replaced in place
    expect(measured.tokens()).toBe(50 + estimateTokens(transcript));
    expect(measured.tokens([first])).toBe(50 + estimateTokens([first])); // shorter than what was sent
  });

  it("a report read from the live transcript counts as one kept aside, and is kept aside again before a change", () => {
    const first = user("hello world");
    const transcript = [first];
    const measured = meter(transcript);
    const sent = transcript.slice();
    measured.observeSnapshot(sent, 400);
    measured.observedAsPrefix(sent, transcript);
    transcript.push(answer("hi"));
    expect(measured.tokens()).toBe(400 + countMessageTokens(answer("hi")));
    // Another snapshot than the one observed is no prefix of the transcript: nothing changes.
    measured.observedAsPrefix([first], transcript);
    expect(measured.tokens([user("other")])).toBe(50 + estimateTokens([user("other")]));
    measured.detach();
    transcript[0] = user("a summary"); // replaced in place, after the detach
    expect(measured.tokens()).toBe(50 + estimateTokens(transcript));
    expect(measured.tokens([first, answer("hi")])).toBe(400 + countMessageTokens(answer("hi")));
  });

  it("a report without input tokens keeps the previous one", () => {
    const transcript = [user("hello world")];
    const measured = meter(transcript);
    measured.observe(transcript, undefined);
    expect(measured.tokens()).toBe(56);
  });
});

describe("tool pairing", () => {
  it("finds calls without results and results without calls", () => {
    expect(unpairedToolCallIds([user("q"), call("a"), result("a")]).size).toBe(0);
    expect([...unpairedToolCallIds([call("a"), result("b")])].sort()).toEqual(["a", "b"]);
  });

  it("blames an edit only for what it broke", () => {
    const before = [call("x"), call("a"), result("a")];
    expect(newlyUnpaired(before, [call("x")])).toEqual([]);
    expect(newlyUnpaired(before, [call("x"), call("a")])).toEqual(["a"]);
  });
});

describe("planCompaction", () => {
  const tokensOf = (messages: readonly ModelMessage[]) => estimateTokens(messages);

  it("removes a prefix, keeps keep_recent, never cuts between a call and its result", () => {
    const messages = [user("q1"), call("a"), result("a"), answer("a1"), user("q2"), call("b"), result("b")];
    const plan = planCompaction({ messages, keepRecent: 1, tokensOf, replacementTokens: 10 })!;
    // Keeping only the last message would strand result b: its call stays with it.
    expect(plan.kept).toEqual([call("b"), result("b")]);
    expect(plan.remove).toEqual(messages.slice(0, 5));
  });

  it("with a target, removes no more than needed", () => {
    const long = "word ".repeat(200);
    const messages = [user(long), answer(long), user("short"), answer("short")];
    const target = tokensOf(messages.slice(1)) + 5;
    const plan = planCompaction({
      messages,
      keepRecent: 1,
      targetTokens: target,
      tokensOf,
      replacementTokens: 5,
    })!;
    expect(plan.remove).toEqual([messages[0]]);
  });

  it("nothing to do: under the target, or nothing removable", () => {
    const messages = [user("q"), answer("a")];
    expect(
      planCompaction({ messages, keepRecent: 0, targetTokens: 1_000, tokensOf, replacementTokens: 5 }),
    ).toBe(undefined);
    expect(planCompaction({ messages, keepRecent: 2, tokensOf, replacementTokens: 5 })).toBe(undefined);
    expect(
      planCompaction({ messages: [call("a"), result("a")], keepRecent: 1, tokensOf, replacementTokens: 1 }),
    ).toBe(undefined);
  });

  it("a protected message keeps its place", () => {
    const question = user("the question");
    const messages = [question, call("a"), result("a"), call("b"), result("b")];
    const plan = planCompaction({
      messages,
      keepRecent: 2,
      protect: [question],
      tokensOf,
      replacementTokens: 1,
    })!;
    expect(plan.remove).toEqual([call("a"), result("a")]);
    expect(plan.kept).toEqual([question, call("b"), result("b")]);
  });

  it("property: never separates a tool call from its result, keeps at least keep_recent", () => {
    const transcript = fc
      .array(fc.constantFrom("user", "answer", "tool"), { minLength: 0, maxLength: 30 })
      .map((kinds) =>
        kinds.flatMap((kind, index): ModelMessage[] =>
          kind === "user"
            ? [user(`q${index}`)]
            : kind === "answer"
              ? [answer(`a${index}`)]
              : [call(`c${index}`), result(`c${index}`)],
        ),
      );
    fc.assert(
      fc.property(transcript, fc.nat(8), fc.option(fc.nat(400)), (messages, keepRecent, target) => {
        const plan = planCompaction({
          messages,
          keepRecent,
          ...(target === null ? {} : { targetTokens: target }),
          tokensOf,
          replacementTokens: 5,
        });
        if (!plan) return;
        expect(plan.remove.length).toBeGreaterThan(0);
        expect(plan.kept.length).toBeGreaterThanOrEqual(Math.min(keepRecent, messages.length));
        expect(unpairedToolCallIds(plan.kept).size).toBe(0);
        expect(unpairedToolCallIds(plan.remove).size).toBe(0);
        expect([...plan.remove, ...plan.kept]).toEqual(messages);
      }),
    );
  });
});

describe("transcriptText", () => {
  it("spells out messages, tool calls and results", () => {
    expect(transcriptText([user("q"), call("a"), result("a", "42"), answer("it is 42")])).toBe(
      'user: q\n\nassistant: [called lookup({"q":"a"})]\n\ntool: [lookup returned: 42]\n\nassistant: it is 42',
    );
  });
});
