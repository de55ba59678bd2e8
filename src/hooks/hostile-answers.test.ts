/**
 * Hook answers with hostile shapes are read once, at the boundary, into a plain copy: a
 * getter that throws, a Proxy whose traps throw, a `type` that changes between reads, a
 * value that cannot be copied or stored, a thrown value that cannot be shown as text — each
 * is a `HookError` naming the hook (and the field), the guarded operation does not happen,
 * and `agent.run()` resolves with it instead of rejecting with a raw error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type AnyHook, createAgent, defineHook, flow, scriptedModel, tool } from "../index.js";
import { SqliteStore } from "../state/sqlite-store.js";

function rawHook(on: string, kind: string, answer: () => unknown, name = "hostile"): AnyHook {
  return { name, on, kind, handler: answer } as unknown as AnyHook;
}

function writer(hooks: AnyHook[]) {
  const written: unknown[] = [];
  const agent = createAgent({
    model: scriptedModel([{ toolCalls: [{ name: "write", args: { path: "a.txt" } }] }, { text: "done" }]),
    tools: {
      write: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: (args) => {
          written.push(args);
          return "wrote";
        },
      }),
    },
    hooks,
  });
  return { agent, written };
}

/** A tool_call decide hook's answer: the tool does not run, its error result names the hook and field. */
async function refusedCall(answer: () => unknown, field: string) {
  const { agent, written } = writer([rawHook("tool_call", "decide", answer)]);
  const result = await agent.run("go");
  expect(written).toEqual([]);
  const output = JSON.stringify(result.steps[0]!.toolResults[0]);
  expect(output).toContain('hook \\"hostile\\" on tool_call');
  expect(output).toContain(field);
  return output;
}

describe("answers that cannot be read", () => {
  it("a type getter that throws", async () => {
    await refusedCall(
      () => ({
        get type() {
          throw new Error("boom");
        },
      }),
      "type: could not be read: boom",
    );
  });

  it("a Proxy whose traps throw", async () => {
    const trap = () => {
      throw new Error("trapped");
    };
    await refusedCall(() => new Proxy({}, { get: trap, ownKeys: trap, has: trap }), "trapped");
  });

  it("a type that changes between reads is read once: the first answer stands", async () => {
    let reads = 0;
    const { agent, written } = writer([
      rawHook("tool_call", "decide", () => ({
        get type() {
          reads++;
          return reads === 1 ? "deny" : "allow";
        },
        reason: "no writes",
      })),
    ]);
    const result = await agent.run("go");
    expect(written).toEqual([]);
    expect(reads).toBe(1);
    expect(JSON.stringify(result.steps[0]!.toolResults[0])).toContain("no writes");
  });

  it("thrown values with no toString, or one that throws", async () => {
    const noString = Object.create(null);
    await refusedCall(() => {
      throw noString;
    }, "threw: a value that is not an error");
    await refusedCall(() => {
      throw {
        toString() {
          throw new Error("nope");
        },
      };
    }, "threw: a value that is not an error");
  });

  it("on run_end: agent.run() resolves with the hook's error instead of rejecting", async () => {
    const agent = createAgent({
      model: scriptedModel([{ text: "done" }]),
      hooks: [
        rawHook("run_end", "decide", () => ({
          get type() {
            throw new Error("boom");
          },
        })),
      ],
    });
    const result = await agent.run("go");
    expect(result.outcome).toBe("error");
    expect(result.error?.message).toContain('hook "hostile" on run_end');
  });
});

describe("data in answers is copied once, or refused with its field", () => {
  it("rewriteArgs: a getter is read once, and the tool runs with the copy", async () => {
    let reads = 0;
    const args = {
      get path() {
        reads++;
        return reads === 1 ? "safe.txt" : "/etc/passwd";
      },
    };
    const { agent, written } = writer([
      defineHook({
        name: "rewrite",
        on: "tool_call",
        kind: "transform",
        handler: () => flow.rewriteArgs(args),
      }),
    ]);
    await agent.run("go");
    expect(written).toEqual([{ path: "safe.txt" }]);
    expect(reads).toBe(1);
  });

  it("an answer or rewritten arguments carrying a toJSON that throws: refused, naming the field", async () => {
    await refusedCall(
      () => ({
        type: "allow",
        toJSON() {
          throw new Error("no");
        },
      }),
      "toJSON: must be data, found a function",
    );
    const { agent, written } = writer([
      rawHook("tool_call", "transform", () =>
        flow.rewriteArgs({
          path: "a",
          toJSON() {
            throw new Error("no");
          },
        }),
      ),
    ]);
    const result = await agent.run("go");
    expect(written).toEqual([]);
    expect(JSON.stringify(result.steps[0]!.toolResults[0])).toContain(
      "args: must be plain data, found a value that cannot be copied",
    );
  });

  it("an injected message part with a cycle: refused naming the field; a SQLite run resolves", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-hostile-"));
    const store = new SqliteStore({ path: join(dir, "state.db") });
    try {
      const part: Record<string, unknown> = { type: "text", text: "x" };
      part.self = part;
      const agent = createAgent({
        model: scriptedModel([{ text: "done" }]),
        store,
        hooks: [
          rawHook("step_start", "transform", () => flow.inject([{ role: "user", content: [part as never] }])),
        ],
      });
      const result = await agent.run("go", { sessionId: "s1" });
      expect(result.outcome).toBe("error");
      expect(result.error?.message).toContain('hook "hostile" on step_start');
      expect(result.error?.message).toContain(
        "messages[0].content[0].self: must be storable as JSON, found a circular reference",
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("transcript edits keep tool calls and results paired", () => {
  const call = {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId: "c9", toolName: "write", input: {} }],
  } as const;
  const result = {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: "c9", toolName: "write", output: { type: "text", value: "ok" } },
    ],
  } as const;

  it.each([
    ["flow.inject with a call and no result", () => flow.inject([call as never]), "messages"],
    ["flow.inject with an orphan result", () => flow.inject([result as never]), "messages"],
    [
      "editMessages.append with an orphan result",
      () => ({ type: "editMessages", edits: [], append: [result] }),
      "append",
    ],
  ])("%s: refused, nothing of it persisted", async (_, answer, field) => {
    const { MemoryStore } = await import("../state/memory-store.js");
    const store = new MemoryStore();
    const agent = createAgent({
      model: scriptedModel([{ text: "one" }, { text: "two" }]),
      store,
      hooks: [rawHook("step_end", "transform", answer)],
    });
    const first = await agent.run("go", { sessionId: "s" });
    expect(first.outcome).toBe("error");
    expect(first.reason).toContain(
      `hook "hostile" on step_end: returned ${field} that leave tool call "c9" without its call or its result`,
    );
    const stored = await store.loadSession("s");
    expect(JSON.stringify(stored?.messages ?? [])).not.toContain("c9");
  });

  it("a request patch whose history has an orphan tool result is refused before the provider call", async () => {
    const model = scriptedModel([{ text: "never" }]);
    const agent = createAgent({
      model,
      hooks: [
        rawHook("model_request", "transform", () =>
          flow.patch({ messages: [{ role: "user", content: "hi" }, result as never] }),
        ),
      ],
    });
    const outcome = await agent.run("go");
    expect(outcome.outcome).toBe("error");
    expect(outcome.reason).toContain(
      'returned patch.messages that leave tool call "c9" without its call or its result',
    );
    expect(model.calls).toHaveLength(0);
  });
});
