import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadHookwiseConfig } from "./hookwise-hooks.js";

describe("loadHookwiseConfig: policies for AI SDK code", () => {
  let dir: string;
  const config = (text: string) => {
    writeFileSync(join(dir, "hookwise.yaml"), text);
    return join(dir, "hookwise.yaml");
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-ai-sdk-config-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("needs no models: (the model is the AI SDK code's), nor the API key of one it declares", async () => {
    const knownTools = ["shop.list", "shop.delete_all"];
    const bare = await loadHookwiseConfig(
      config("runtime:\n  policies:\n    - { decision: deny, tool: shop.delete_all }\n"),
      { knownTools },
    );
    expect(bare.knownTools).toEqual(knownTools);
    await bare.close();
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const declared = await loadHookwiseConfig(
        config(
          "models: { default: openai:gpt-4.1-mini }\nruntime:\n  policies:\n    - { decision: deny, tool: shop.delete_all }\n",
        ),
        { knownTools },
      );
      await declared.close();
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it("a misspelt tool among knownTools' toolsets gets the nearest tool, not 'no toolset'", async () => {
    const error = await loadHookwiseConfig(
      config("runtime:\n  policies:\n    - { decision: deny, tool: shop.delete_al }\n"),
      { knownTools: ["shop.list", "shop.delete_all"] },
    ).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain(
      'runtime.policies[0].tool: deny policy tool "shop.delete_al" matches no tool; expected a tool name or pattern over: shop.list, shop.delete_all; did you mean "shop.delete_all"?',
    );
    expect((error as Error).message).not.toContain("no toolset");
  });
});
