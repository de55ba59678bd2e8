/**
 * `event.args` in a hook whose `match` names one tool of a known schema is typed from that
 * schema, as the AI SDK types a tool call's input; anywhere else it stays `unknown`.
 */
import { tool as aiTool } from "ai";
import { createAgent, defineHook, flow, scriptedModel, tool } from "hookwise";
import { describe, expectTypeOf, test } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod-v3";

const model = scriptedModel([{ text: "done" }]);
const agent = createAgent({
  model,
  tools: {
    read_file: tool({
      description: "Read a file",
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => path,
    }),
    search: aiTool({
      description: "Search",
      inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
      execute: async ({ query }) => [query],
    }),
    // A plain object with a zod schema: the schema types it.
    count: { inputSchema: z3.object({ n: z3.number() }), execute: (args: any) => args },
    // A JSON Schema: nothing is known of its input.
    raw: { inputSchema: { type: "object" }, execute: (args: unknown) => args },
  },
});

describe("agent.use(defineHook({ match: one tool }))", () => {
  test("a hookwise tool(): args are its input on tool_call, tool_result, tool_error, approval_request", () => {
    agent.use(
      defineHook({
        name: "no-secrets",
        on: "tool_call",
        kind: "decide",
        match: "read_file",
        handler: (event) => {
          expectTypeOf(event.args).toEqualTypeOf<{ path: string }>();
          expectTypeOf(event.toolName).toBeString();
          expectTypeOf(event.original).toBeUnknown();
          return event.args.path.includes(".env") ? flow.deny("secrets are off limits") : undefined;
        },
      }),
    );
    agent.use(
      defineHook({
        name: "after",
        on: "tool_result",
        kind: "inspect",
        match: "read_file",
        handler: (event) => {
          expectTypeOf(event.args).toEqualTypeOf<{ path: string }>();
          expectTypeOf(event.result).toBeUnknown();
        },
      }),
    );
    agent.use(
      defineHook({
        name: "err",
        on: "tool_error",
        kind: "inspect",
        match: ["read_file"],
        handler: (event) => {
          expectTypeOf(event.args).toEqualTypeOf<{ path: string }>();
        },
      }),
    );
    agent.use(
      defineHook({
        name: "ask",
        on: "approval_request",
        kind: "inspect",
        match: "read_file",
        handler: (event) => {
          expectTypeOf(event.args).toEqualTypeOf<{ path: string }>();
        },
      }),
    );
  });

  test("an AI SDK tool() and a plain object with a zod 3 schema", () => {
    agent.use(
      defineHook({
        name: "search",
        on: "tool_call",
        kind: "transform",
        match: "search",
        handler: (event) => {
          expectTypeOf(event.args).toEqualTypeOf<{ query: string; limit?: number | undefined }>();
          return flow.rewriteArgs({ ...event.args, limit: event.args.limit ?? 10 });
        },
      }),
    );
    agent.use(
      defineHook({
        name: "count",
        on: "tool_call",
        kind: "decide",
        match: "count",
        handler: (event) => (event.args.n > 3 ? flow.deny("too many") : undefined),
      }),
    );
  });

  test("a wrong field is a compile error", () => {
    agent.use(
      defineHook({
        name: "typo",
        on: "tool_call",
        kind: "decide",
        match: "read_file",
        // @ts-expect-error read_file's input has `path`, not `file`
        handler: (event) => (event.args.file ? flow.deny("no") : undefined),
      }),
    );
  });
});

describe("event.args stays unknown", () => {
  test("for a glob, several tools, a JSON Schema tool, or no match", () => {
    for (const match of ["read_*", "*"] as const)
      agent.use(
        defineHook({
          name: "glob",
          on: "tool_call",
          kind: "inspect",
          match,
          handler: (event) => {
            expectTypeOf(event.args).toBeUnknown();
          },
        }),
      );
    agent.use(
      defineHook({
        name: "two",
        on: "tool_call",
        kind: "inspect",
        match: ["read_file", "search"],
        handler: (event) => {
          expectTypeOf(event.args).toBeUnknown();
        },
      }),
    );
    agent.use(
      defineHook({
        name: "raw",
        on: "tool_call",
        kind: "inspect",
        match: "raw",
        handler: (event) => {
          expectTypeOf(event.args).toBeUnknown();
        },
      }),
    );
    agent.use(
      defineHook({
        name: "all",
        on: "tool_call",
        kind: "inspect",
        handler: (event) => {
          expectTypeOf(event.args).toBeUnknown();
        },
      }),
    );
  });

  test("for invalid_tool_call (its args failed the schema)", () => {
    agent.use(
      defineHook({
        name: "invalid",
        on: "invalid_tool_call",
        kind: "transform",
        match: "read_file",
        handler: (event) => {
          expectTypeOf(event.args).toBeUnknown();
          return flow.retry("try again");
        },
      }),
    );
  });

  test("in a hook defined on its own, or given to createAgent({ hooks }), where no tools are known", () => {
    const alone = defineHook({
      name: "alone",
      on: "tool_call",
      kind: "decide",
      match: "read_file",
      handler: (event) => {
        expectTypeOf(event.args).toBeUnknown();
        // @ts-expect-error args are unknown here
        void event.args.path;
      },
    });
    agent.use(alone);
    createAgent({ model, tools: agent.runtime.options.tools ?? {}, hooks: [alone] });
  });

  test("in an agent made from resolved tools (a toolset), whose names are not known to the compiler", () => {
    const resolved = createAgent({ model, tools: agent.runtime.tools });
    resolved.use(
      defineHook({
        name: "resolved",
        on: "tool_call",
        kind: "inspect",
        match: "read_file",
        handler: (event) => {
          expectTypeOf(event.args).toBeUnknown();
        },
      }),
    );
  });
});

test("a hook typed for one agent's tools is refused by an agent whose tool of that name differs", () => {
  const other = createAgent({
    model,
    tools: { read_file: tool({ inputSchema: z.object({ file: z.number() }), execute: ({ file }) => file }) },
  });
  const typed = defineHook({
    name: "typed",
    on: "tool_call",
    kind: "inspect",
    match: "read_file",
    handler: (_event) => {},
  });
  other.use(typed); // a hook defined on its own fits any agent
});
