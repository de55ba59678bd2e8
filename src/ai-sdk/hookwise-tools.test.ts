/**
 * `hookwiseTools` against a hostile model and a careless app: a guarded tool's body runs only
 * when the hooks let it, and a redacted result never reaches the model, whatever shape the
 * tool or the app's approval answer has.
 */
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { generateText, stepCountIs, streamText, ToolLoopAgent, tool } from "ai";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { mockModel } from "../../test/support/ai-sdk-mock-model.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { policy } from "../policy/policy.js";
import { hookwiseHooks } from "./hookwise-hooks.js";
import { hookwiseTools, ToolCallBlockedError } from "./hookwise-tools.js";

const redactKeys = defineHook({
  name: "redact-keys",
  on: "tool_result",
  kind: "transform",
  handler: ({ result }) =>
    flow.rewriteResult(JSON.parse(JSON.stringify(result).replace(/sk-live-\w+/g, "[redacted]"))),
});

/** Runs the wrapped tools with the model's calls; answers what each provider call was sent. */
async function drive(
  surface: "generateText" | "streamText",
  tools: Parameters<typeof generateText>[0]["tools"],
  calls: { toolName: string; input: unknown }[],
): Promise<string[]> {
  const model = mockModel(calls);
  const options = { model, tools, prompt: "go", stopWhen: stepCountIs(5) };
  if (surface === "generateText") await generateText(options);
  else await streamText(options).consumeStream();
  const sent = surface === "generateText" ? model.doGenerateCalls : model.doStreamCalls;
  return (sent as LanguageModelV3CallOptions[]).map((call) => JSON.stringify(call.prompt));
}

describe.each(["generateText", "streamText"] as const)("hookwiseTools inside %s", (surface) => {
  test("an async-iterable execute: tool_result hooks get its last value; the raw key never reaches the model", async () => {
    const hooks = hookwiseHooks({ hooks: [redactKeys] });
    const tools = hookwiseTools(
      {
        keys: tool({
          inputSchema: z.object({}),
          async *execute() {
            yield { status: "looking" };
            yield { key: "sk-live-123" };
          },
        }),
      },
      hooks,
      { toolset: "vault" },
    );
    const prompts = await drive(surface, tools, [{ toolName: "keys", input: {} }]);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).not.toContain("sk-live-123");
    expect(prompts[1]).toContain("[redacted]");
  });

  test("a tool that throws: tool_result hooks redact its error too; the raw key never reaches the model", async () => {
    const tools = hookwiseTools(
      {
        connect: tool({
          inputSchema: z.object({}),
          execute: async (): Promise<string> => {
            throw new Error("cannot reach postgres://admin:sk-live-123@db");
          },
        }),
      },
      hookwiseHooks({ hooks: [redactKeys] }),
      { toolset: "db" },
    );
    const prompts = await drive(surface, tools, [{ toolName: "connect", input: {} }]);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).not.toContain("sk-live-123");
    expect(prompts[1]).toContain("cannot reach postgres://admin:[redacted]@db");
  });

  test("a tool_call terminate without hookwiseStop: the body does not run; the loop goes on and the model is told which hook ended the run", async () => {
    const ran: string[] = [];
    const stop = defineHook({
      name: "stop-all",
      on: "tool_call",
      kind: "transform",
      handler: () => flow.terminate("budget spent"),
    });
    const tools = hookwiseTools({ delete_all: deleteAll(ran) }, hookwiseHooks({ hooks: [stop] }), {
      toolset: "shop",
    });
    const prompts = await drive(surface, tools, [{ toolName: "delete_all", input: {} }]);
    expect(ran).toEqual([]);
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain('hook \\"stop-all\\" ended the run: budget spent');
  });

  test("a ToolLoopAgent given the wrapped tools: a denied call's body does not run", async () => {
    const ran: string[] = [];
    const hooks = hookwiseHooks({ policies: [policy.deny("shop.delete_all")] });
    const agent = new ToolLoopAgent({
      model: mockModel([{ toolName: "delete_all", input: {} }]),
      tools: hookwiseTools(
        {
          delete_all: tool({
            inputSchema: z.object({}),
            execute: async () => {
              ran.push("delete_all");
              return "deleted";
            },
          }),
        },
        hooks,
        { toolset: "shop" },
      ),
    });
    if (surface === "generateText") await agent.generate({ prompt: "go" });
    else await (await agent.stream({ prompt: "go" })).consumeStream();
    expect(ran).toEqual([]);
  });

  test("in a toolset, hooks and policies see hookwise's names: a deny on the function name shop_delete_all holds", async () => {
    const ran: string[] = [];
    const seen: string[] = [];
    const hooks = hookwiseHooks({
      policies: [policy.deny("shop_delete_all")],
      hooks: [
        defineHook({
          name: "names",
          on: "tool_call",
          kind: "transform",
          handler: ({ toolName, qualifiedName }) => {
            seen.push(`${qualifiedName} ${toolName}`);
          },
        }),
      ],
    });
    const tools = hookwiseTools({ delete_all: deleteAll(ran) }, hooks, { toolset: "shop" });
    await drive(surface, tools, [{ toolName: "delete_all", input: {} }]);
    expect(ran).toEqual([]);
    expect(seen).toEqual(["shop.delete_all shop_delete_all"]);
  });
});

function deleteAll(ran: string[]) {
  return tool({
    inputSchema: z.object({}),
    execute: async () => {
      ran.push("delete_all");
      return "deleted";
    },
  });
}

const execution = { toolCallId: "c1", messages: [], abortSignal: new AbortController().signal };

describe("hookwiseTools fails closed", () => {
  test.each([
    ["an object", { approved: false }],
    ["a string", "no"],
    ["a number", 1],
  ])("an approve function answering %s does not approve the call", async (_, answer) => {
    const ran: string[] = [];
    const hooks = hookwiseHooks({
      policies: [policy.askUser("shop.delete_all")],
      approve: (() => answer) as never,
    });
    const tools = hookwiseTools({ delete_all: deleteAll(ran) }, hooks, { toolset: "shop" });
    const error = await Promise.resolve(tools.delete_all.execute!({}, execution as never)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ran).toEqual([]);
    expect(error).toBeInstanceOf(ToolCallBlockedError);
    expect((error as Error).message).toMatch(/tool "shop.delete_all" was not approved \(hook "policy/);
    expect((error as Error).message).toMatch(/approve answered .*expected true or false/);
  });

  test("an approve function that throws does not run the call, and the error names the hook", async () => {
    const ran: string[] = [];
    const hooks = hookwiseHooks({
      policies: [policy.askUser("shop.delete_all")],
      approve: () => {
        throw new Error("approval service down");
      },
    });
    const tools = hookwiseTools({ delete_all: deleteAll(ran) }, hooks, { toolset: "shop" });
    await expect(tools.delete_all.execute!({}, execution as never)).rejects.toThrow(
      /tool "shop.delete_all" was not approved \(hook "policy[^)]*\): approve threw: approval service down \(failed closed\)/,
    );
    expect(ran).toEqual([]);
  });

  test("an ask with no approve function is a denial", async () => {
    const ran: string[] = [];
    const hooks = hookwiseHooks({ policies: [policy.askUser("shop.delete_all")] });
    const tools = hookwiseTools({ delete_all: deleteAll(ran) }, hooks, { toolset: "shop" });
    await expect(tools.delete_all.execute!({}, execution as never)).rejects.toThrow(
      /needs an `approve` function/,
    );
    expect(ran).toEqual([]);
  });

  test.each([
    [
      "throws",
      defineHook({
        name: "guard",
        on: "tool_call",
        kind: "decide",
        handler: () => {
          throw new Error("guard crashed");
        },
      }),
    ],
    [
      "times out",
      defineHook({
        name: "guard",
        on: "tool_call",
        kind: "decide",
        timeoutMs: 20,
        handler: () => new Promise<undefined>(() => {}),
      }),
    ],
  ])("a tool_call decide hook that %s stops the call and is named", async (_, guard) => {
    const ran: string[] = [];
    const tools = hookwiseTools({ delete_all: deleteAll(ran) }, hookwiseHooks({ hooks: [guard] }), {
      toolset: "shop",
    });
    const error = await Promise.resolve(tools.delete_all.execute!({}, execution as never)).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(ran).toEqual([]);
    expect(error).toBeInstanceOf(ToolCallBlockedError);
    expect((error as ToolCallBlockedError).hook).toBe("guard");
    expect((error as Error).message).toMatch(/guard/);
  });

  test("a tool whose execute appears after wrapping (a lazy getter) is not left unguarded", async () => {
    const ran: string[] = [];
    let ready = false;
    const lazy = {
      inputSchema: z.object({}),
      get execute() {
        return ready ? deleteAll(ran).execute : undefined;
      },
    };
    const tools = hookwiseTools(
      { delete_all: lazy },
      hookwiseHooks({ policies: [policy.deny("shop.delete_all")] }),
      { toolset: "shop" },
    );
    ready = true;
    const execute = tools.delete_all.execute;
    if (execute) await expect(execute({}, execution)).rejects.toThrow(/denied/);
    expect(ran).toEqual([]);
  });
});
