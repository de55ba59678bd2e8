/** A run's input as a user message with text, image and file parts, on both surfaces. */
import { describe, expect, test } from "vitest";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { createAgent } from "../agent/create-agent.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { scriptedModel } from "../models/scripted-model.js";

const PNG = new Uint8Array([137, 80, 78, 71]);
const PDF = new Uint8Array([37, 80, 68, 70]);

describe.each(SURFACES)("multimodal input on %s()", (surface) => {
  test("every part reaches the provider prompt and the transcript; hooks see the text", async () => {
    const seen: string[] = [];
    const model = scriptedModel([{ text: "a cat and an invoice" }]);
    const agent = createAgent({
      model,
      hooks: [
        defineHook({
          name: "watch",
          on: "run_start",
          kind: "inspect",
          handler: (event) => void seen.push(event.input),
        }),
      ],
    });
    const input = [
      {
        role: "user" as const,
        content: [
          { type: "text" as const, text: "What is in these?" },
          { type: "image" as const, image: PNG, mediaType: "image/png" },
          { type: "file" as const, data: PDF, mediaType: "application/pdf", filename: "invoice.pdf" },
        ],
      },
    ];
    const { result } = await runOn(surface, agent, input);
    expect(result.text).toBe("a cat and an invoice");
    expect(seen).toEqual(["What is in these?"]);
    const prompt = model.calls[0]!.prompt;
    expect(prompt.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What is in these?" },
        { type: "file", data: PNG, mediaType: "image/png" },
        { type: "file", data: PDF, mediaType: "application/pdf", filename: "invoice.pdf" },
      ],
    });
    expect(result.messages[0]).toEqual(input[0]);
  });

  test("a run_start rewrite replaces the text and keeps the image", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({
      model,
      hooks: [
        defineHook({
          name: "polite",
          on: "run_start",
          kind: "transform",
          handler: (event) => flow.rewriteInput(`${event.input} Please.`),
        }),
      ],
    });
    await runOn(surface, agent, [
      {
        role: "user",
        content: [
          { type: "text", text: "Describe." },
          { type: "image", image: PNG, mediaType: "image/png" },
        ],
      },
    ]);
    expect(model.calls[0]!.prompt.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Describe. Please." },
        { type: "file", data: PNG, mediaType: "image/png" },
      ],
    });
  });
});

const SECRET = "my password is hunter2";
const bytes = (text: string) => new TextEncoder().encode(text);
const base64 = (text: string) => Buffer.from(text).toString("base64");

describe.each(SURFACES)("text inside file parts on %s()", (surface) => {
  const guard = defineHook({
    name: "no-passwords",
    on: "run_start",
    kind: "decide",
    handler: (event) => (event.input.includes("password") ? flow.deny("no passwords") : undefined),
  });

  test.each([
    ["a text/plain file of bytes", { type: "file", data: bytes(SECRET), mediaType: "text/plain" }],
    ["a text/markdown file in base64", { type: "file", data: base64(SECRET), mediaType: "text/markdown" }],
    [
      "a JSON file",
      { type: "file", data: bytes(JSON.stringify({ note: SECRET })), mediaType: "application/json" },
    ],
    [
      "a file given as a data URL",
      { type: "file", data: `data:text/plain;base64,${base64(SECRET)}`, mediaType: "text/plain" },
    ],
    ["an image part marked text/plain", { type: "image", image: bytes(SECRET), mediaType: "text/plain" }],
  ])("a run_start content guard reads %s", async (_, part) => {
    const model = scriptedModel([{ text: "never" }]);
    const agent = createAgent({ model, hooks: [guard] });
    const { result } = await runOn(surface, agent, [
      { role: "user", content: [{ type: "text", text: "Summarize this." }, part as never] },
    ]);
    expect(model.calls).toHaveLength(0);
    expect(result).toMatchObject({ outcome: "terminated", hook: "no-passwords" });
  });

  test("a run_start rewrite of a text file's content replaces the file: the raw text is not sent", async () => {
    const model = scriptedModel([{ text: "ok" }]);
    const agent = createAgent({
      model,
      hooks: [
        defineHook({
          name: "redact",
          on: "run_start",
          kind: "transform",
          handler: (event) => flow.rewriteInput(event.input.replace(/hunter2/g, "[redacted]")),
        }),
      ],
    });
    await runOn(surface, agent, [
      {
        role: "user",
        content: [
          { type: "text", text: "Summarize this." },
          { type: "file", data: bytes(SECRET), mediaType: "text/plain" },
          { type: "image", image: PNG, mediaType: "image/png" },
        ],
      },
    ]);
    const sent = model.calls[0]!.prompt.at(-1);
    expect(JSON.stringify(sent)).not.toContain("hunter2");
    expect(sent).toEqual({
      role: "user",
      content: [
        { type: "text", text: "Summarize this.\nmy password is [redacted]" },
        { type: "file", data: PNG, mediaType: "image/png" },
      ],
    });
  });
});

test("an input that is neither a string nor one user message is refused with what is expected", async () => {
  const agent = createAgent({ model: scriptedModel([]) });
  await expect(agent.run([{ role: "assistant", content: "hi" }] as never)).rejects.toThrow(
    /run input: expected a string or one user message/,
  );
  await expect(
    agent.run([{ role: "user", content: [{ type: "video", data: "" }] }] as never),
  ).rejects.toThrow(/content\[0\] has type "video"; expected "text", "image" or "file"/);
});
