import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../events/payloads.js";
import { PromptBuilder, toPrompt } from "./to-prompt.js";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const answer = (text: string): ModelMessage => ({ role: "assistant", content: [{ type: "text", text }] });

describe("PromptBuilder", () => {
  it("builds what toPrompt builds, step after step, converting only what was added", () => {
    const builder = new PromptBuilder();
    const transcript: ModelMessage[] = [user("hi")];
    const first = builder.build("Be brief.", transcript.slice());
    expect(first).toEqual(toPrompt("Be brief.", transcript));

    transcript.push(answer("hello"), user("and now?"));
    const second = builder.build("Be brief.", transcript.slice());
    expect(second).toEqual(toPrompt("Be brief.", transcript));
    // Earlier entries are the very objects of the previous prompt: they were not converted again.
    expect(second[1]).toBe(first[1]);
    // Each prompt is its own list: the next step's additions never reach the previous one.
    expect(first).toHaveLength(2);
    expect(second).toHaveLength(4);
  });

  it("a session's later runs do not convert its earlier messages again: each message once, for all builders", () => {
    // Each run has a builder of its own over the whole history: a replay of 5,000 runs in
    // one session converted every earlier run's user message again at each run.
    const history: ModelMessage[] = [];
    const prompts = [];
    for (let run = 0; run < 3; run++) {
      history.push(user(`question ${run}`), answer(`answer ${run}`));
      prompts.push(new PromptBuilder().build("Be brief.", history.slice()));
    }
    expect(prompts[2]).toEqual(toPrompt("Be brief.", history));
    expect(prompts[2]![1]).toBe(prompts[0]![1]);
    expect(prompts[2]![3]).toBe(prompts[1]![3]);
    // A later builder given the same history again still reuses its own prompt.
    const builder = new PromptBuilder();
    const first = builder.build("Be brief.", history.slice());
    history.push(user("more"));
    expect(builder.build("Be brief.", history.slice())[1]).toBe(first[1]);
  });

  it("a run's own messages are converted for its builder only; its session's next run keeps them for all later ones", () => {
    const history: ModelMessage[] = [user("question 0")];
    const run0 = new PromptBuilder();
    const first = run0.build("Be brief.", history.slice(), 0);
    history.push(answer("answer 0"));
    // Step after step, the run reuses its own conversion (it is not in the shared cache).
    expect(run0.build("Be brief.", history.slice(), 0)[1]).toBe(first[1]);
    history.push(user("question 1"));
    const run1 = new PromptBuilder().build("Be brief.", history.slice(), 2);
    expect(run1).toEqual(toPrompt("Be brief.", history));
    // Not kept by its own run: converted once more by the next, which keeps it for all later runs.
    expect(run1[1]).not.toBe(first[1]);
    expect(new PromptBuilder().build("Be brief.", history.slice(), 3)[1]).toBe(run1[1]);
    expect(new PromptBuilder().build("Be brief.", history.slice(), 3)[3]).not.toBe(run1[3]);
  });

  it("converts the whole history when it no longer extends the previous one (edited, compacted, other system)", () => {
    const builder = new PromptBuilder();
    const transcript = [user("one"), answer("two"), user("three")];
    builder.build("A", transcript);
    const compacted = [user("summary of one and two"), transcript[2]!];
    expect(builder.build("A", compacted)).toEqual(toPrompt("A", compacted));
    expect(builder.build("B", compacted)).toEqual(toPrompt("B", compacted));
    expect(builder.build(undefined, compacted)).toEqual(toPrompt(undefined, compacted));
  });

  it("string and image content are converted as toPrompt converts them", () => {
    const builder = new PromptBuilder();
    const transcript: ModelMessage[] = [user("look")];
    builder.build(undefined, transcript.slice());
    transcript.push({
      role: "user",
      content: [{ type: "image", image: "data:image/png;base64,AAAA", mediaType: "image/png" }],
    } as ModelMessage);
    expect(builder.build(undefined, transcript.slice())).toEqual(toPrompt(undefined, transcript));
  });

  it("tells a transcript changed in place from one that grew (given the live list itself)", () => {
    const builder = new PromptBuilder();
    const transcript: ModelMessage[] = [user("one"), answer("two"), user("three")];
    builder.build("A", transcript);
    // A converted message (plain text content) replaced where it stood: converted again.
    transcript[0] = user("ONE");
    transcript.push(answer("four"));
    expect(builder.build("A", transcript)).toEqual(toPrompt("A", transcript));
    // A message kept as it is, replaced: converted again too.
    transcript[1] = answer("TWO");
    expect(builder.build("A", transcript)).toEqual(toPrompt("A", transcript));
    // Grown only: the earlier entries are reused, the prompt is still the whole transcript's.
    const before = builder.build("A", transcript);
    transcript.push(user("five"), user("six"));
    const after = builder.build("A", transcript);
    expect(after).toEqual(toPrompt("A", transcript));
    expect(after[1]).toBe(before[1]);
    expect(after[3]).toBe(before[3]);
  });
});
