/**
 * Policies (seed 002, DESIGN §7): exact name before glob before "*"; deny before ask before
 * allow at each level; first match wins within a level; a `when` that throws counts as
 * matched; askUser with a handler asks it, without one the approval channel decides, and
 * with no channel the run suspends (denied with a reason when the agent opted out).
 */
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { deferred, runBoth, toolResultsSent } from "../../test/support/engine-harness.js";
import {
  type AgentOptions,
  compilePolicies,
  createAgent,
  defineHook,
  flow,
  orderPolicies,
  type Policy,
  policy,
  resolveTool,
  scriptedModel,
  tool,
} from "../index.js";

const argsSchema = z.object({ command: z.string().optional(), amount: z.unknown().optional() });

/** Calls each named tool once (in order), then answers; records which bodies ran. */
function policed(
  names: { name: string; args?: Record<string, unknown> }[],
  policies: Policy[],
  extra: Partial<AgentOptions> = {},
) {
  return () => {
    const ran: string[] = [];
    const model = scriptedModel([
      { toolCalls: names.map(({ name, args }, index) => ({ name, args: args ?? {}, id: `c${index}` })) },
      { text: "done" },
    ]);
    const make = (id: string) =>
      tool({
        inputSchema: argsSchema,
        execute: () => {
          ran.push(id);
          return `${id} ran`;
        },
      });
    const agent = createAgent({
      model,
      tools: [
        resolveTool("read", make("fs.read"), { toolset: "fs" }),
        resolveTool("write", make("fs.write"), { toolset: "fs" }),
        resolveTool("view_file", make("view_file")),
        resolveTool("run_command", make("run_command")),
        resolveTool("edit_file", make("edit_file")),
        resolveTool("pay", make("pay")),
      ],
      policies,
      ...extra,
    });
    return { agent, model, ran };
  };
}

function sentResults(model: { calls: { prompt: unknown[] }[] }) {
  return toolResultsSent(model.calls[1]!.prompt).map((part) => ({
    id: part.toolCallId,
    type: part.output.type,
    value: String(part.output.value),
  }));
}

describe("policy precedence", () => {
  test("exact name before glob before *", async () => {
    const out = await runBoth(
      policed(
        [{ name: "fs_read" }, { name: "fs_write" }, { name: "view_file" }],
        [policy.deny("*"), policy.allow("fs.*"), policy.deny("fs.write")],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual(["fs.read"]);
      const sent = sentResults(fixture.model);
      expect(sent.map((result) => result.type)).toEqual(["text", "error-text", "error-text"]);
      expect(sent[1]!.value).toContain('deny "fs.write"');
      expect(sent[2]!.value).toContain('deny "*"');
    }
  });

  test("a specific allow beats a wildcard deny (seed 002: deny('*') then allow('view_file'))", async () => {
    const out = await runBoth(
      policed([{ name: "view_file" }, { name: "edit_file" }], [policy.deny("*"), policy.allow("view_file")]),
    );
    for (const { fixture } of out.both) expect(fixture.ran).toEqual(["view_file"]);
  });

  test("at one level deny beats ask beats allow, whatever the list order", async () => {
    const handlerCalls: string[] = [];
    const out = await runBoth(
      policed(
        [{ name: "view_file" }, { name: "run_command" }],
        [
          policy.allow("view_file"),
          policy.askUser("view_file", { handler: () => true }),
          policy.deny("view_file", { reason: "view is off" }),
          policy.allow("run_command"),
          policy.askUser("run_command", {
            handler: (call) => {
              handlerCalls.push(call.toolName);
              return false;
            },
          }),
        ],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual([]);
      const sent = sentResults(fixture.model);
      expect(sent[0]!.value).toContain("view is off");
      expect(sent[1]!.value).toContain("declined");
    }
    expect(handlerCalls).toEqual(["run_command", "run_command"]);
  });

  test("first match wins within a level; a when that does not match falls through", async () => {
    const out = await runBoth(
      policed(
        [
          { name: "run_command", args: { command: "ls" } },
          { name: "run_command", args: { command: "rm -rf /" } },
        ],
        [
          policy.deny("run_command", { when: (args) => args.command.includes("rm"), reason: "first deny" }),
          policy.deny("run_command", {
            when: (args) => args.command.startsWith("rm"),
            reason: "second deny",
          }),
          policy.allow("*"),
        ],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual(["run_command"]);
      const sent = sentResults(fixture.model);
      expect(sent[0]!.type).toBe("text");
      expect(sent[1]!.value).toContain("first deny");
      expect(sent[1]!.value).not.toContain("second deny");
    }
  });

  test("the policy hook answers at once while every `when` does, and waits for one that answers later", async () => {
    const call = {
      type: "tool_call",
      toolName: "run_command",
      qualifiedName: "run_command",
      toolCallId: "c1",
      args: { command: "rm -rf /" },
      agentPath: ["main"],
    } as const;
    const sync = compilePolicies([
      policy.allow("run_command", { when: (args) => args.command === "ls" }),
      policy.deny("run_command", { when: (args) => args.command.startsWith("rm"), reason: "no rm" }),
    ]);
    const answer = sync.handler(call as never, {} as never);
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toMatchObject({ type: "deny", reason: "no rm" });
    // A `when` that answers with a promise is waited for; the policies after it still decide.
    const later = compilePolicies([
      policy.deny("run_command", { when: async (args) => args.command === "ls" }),
      policy.askUser("run_command", { when: (args) => args.command.startsWith("rm") }),
    ]);
    const pending = later.handler(call as never, {} as never);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toMatchObject({ type: "ask" });
  });

  test("a when that throws (or rejects) counts as matched: fail closed", async () => {
    const out = await runBoth(
      policed(
        [{ name: "run_command" }, { name: "edit_file" }],
        [
          policy.deny("run_command", {
            when: (args) => args.command.includes("rm"), // args.command is undefined: throws
            reason: "predicate failed",
          }),
          policy.deny("edit_file", {
            when: async () => {
              throw new Error("lookup failed");
            },
          }),
        ],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(sentResults(fixture.model)[0]!.value).toContain("predicate failed");
    }
  });

  test("policies judge the effective args: a transform's rewrite cannot slip past them (TOCTOU)", async () => {
    const out = await runBoth(
      policed(
        [{ name: "run_command", args: { command: "ls" } }],
        [policy.deny("run_command", { when: (args) => args.command.includes("rm"), reason: "no rm" })],
        {
          hooks: [
            defineHook({
              name: "sneaky",
              on: "tool_call",
              kind: "transform",
              handler: () => flow.rewriteArgs({ command: "rm -rf /" }),
            }),
          ],
        },
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(sentResults(fixture.model)[0]!.value).toContain("no rm");
    }
  });

  test("an askUser handler that throws denies (fail closed)", async () => {
    const out = await runBoth(
      policed(
        [{ name: "run_command" }],
        [
          policy.askUser("run_command", {
            handler: () => {
              throw new Error("approval UI crashed");
            },
          }),
        ],
      ),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(sentResults(fixture.model)[0]!.value).toContain("approval UI crashed");
      expect(result.events).toContainEqual(expect.objectContaining({ hook: "policy", effect: "ask" }));
    }
  });

  test("an allow whose `when` throws never grants the call (fail closed)", async () => {
    const out = await runBoth(
      policed(
        [{ name: "pay", args: { amount: "lots" } }],
        [
          policy.deny("*"),
          policy.allow("pay", {
            when: (args: { amount: unknown }) => {
              if (typeof args.amount !== "number") throw new Error("not a number");
              return args.amount < 10;
            },
          }),
        ],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(sentResults(fixture.model)[0]!.value).toContain("failed to evaluate");
    }
  });

  test("an askUser handler is not cut off by the hook timeout (a human may take long)", async () => {
    const out = await runBoth(() => {
      const made = policed(
        [{ name: "run_command" }],
        [
          policy.askUser("run_command", {
            handler: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 60)),
          }),
        ],
        { hookTimeoutMs: 20 },
      )();
      return made;
    });
    for (const { fixture } of out.both) expect(fixture.ran).toEqual(["run_command"]);
  });

  test("no matching policy allows", async () => {
    const out = await runBoth(policed([{ name: "edit_file" }], [policy.deny("run_command")]));
    for (const { fixture } of out.both) expect(fixture.ran).toEqual(["edit_file"]);
  });

  test("orderPolicies: (specificity, decision), list order kept within a level", () => {
    const list = [
      policy.allow("*"),
      policy.deny("*"),
      policy.allow("fs.*"),
      policy.askUser("fs.read"),
      policy.allow("fs.read"),
      policy.deny("fs.read", { reason: "1" }),
      policy.deny("fs.read", { reason: "2" }),
      policy.askUser("*"),
      policy.deny("fs_*"),
    ];
    expect(orderPolicies(list).map((item) => `${item.decision}:${item.tool}${item.reason ?? ""}`)).toEqual([
      "deny:fs.read1",
      "deny:fs.read2",
      "ask_user:fs.read",
      "allow:fs.read",
      "deny:fs_*",
      "allow:fs.*",
      "deny:*",
      "ask_user:*",
      "allow:*",
    ]);
  });
});

describe("askUser", () => {
  test("with a handler: true runs the tool, false denies it (no side effect)", async () => {
    const out = await runBoth(
      policed(
        [
          { name: "run_command", args: { command: "ls" } },
          { name: "run_command", args: { command: "shutdown" } },
        ],
        [
          policy.askUser("run_command", {
            handler: (call) => (call.args as { command: string }).command === "ls",
          }),
        ],
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual(["run_command"]);
      const sent = sentResults(fixture.model);
      expect(sent[0]!.type).toBe("text");
      expect(sent[1]!.type).toBe("error-text");
      expect(sent[1]!.value).toContain("declined");
    }
  });

  test("the handler receives the effective call and can be async", async () => {
    const seen: unknown[] = [];
    const answer = deferred<boolean>();
    setImmediate(() => answer.resolve(true));
    const out = await runBoth(
      policed(
        [{ name: "fs_write", args: { command: "x" } }],
        [
          policy.askUser("fs.*", {
            handler: async (call) => {
              seen.push(call);
              return answer.promise;
            },
          }),
        ],
      ),
    );
    for (const { fixture } of out.both) expect(fixture.ran).toEqual(["fs.write"]);
    expect(seen[0]).toEqual({
      toolName: "fs_write",
      qualifiedName: "fs.write",
      toolCallId: "c0",
      args: { command: "x" },
    });
  });

  test("without a handler or channel the run suspends: nothing runs, the approval is pending", async () => {
    const out = await runBoth(policed([{ name: "run_command" }], [policy.askUser("run_command")]));
    for (const { fixture, result } of out.both) {
      expect(fixture.ran).toEqual([]);
      expect(result.outcome).toBe("suspended");
      expect(result.approvals).toEqual([expect.objectContaining({ toolName: "run_command", args: {} })]);
      expect(fixture.model.calls).toHaveLength(1);
    }
  });

  test("an agent that opted out of suspension denies an unanswered ask with a clear reason", async () => {
    const ask = defineHook({ name: "ask", on: "tool_call", kind: "decide", handler: () => flow.ask() });
    const out = await runBoth(
      policed([{ name: "run_command" }], [], { hooks: [ask], approvals: { suspend: false } }),
    );
    for (const { fixture, result } of out.both) {
      expect(fixture.ran).toEqual([]);
      const sent = sentResults(fixture.model)[0]!;
      expect(sent.type).toBe("error-text");
      expect(sent.value).toContain("no approval channel");
      expect(result.outcome).toBe("completed");
    }
  });

  test("without a handler, the agent's approval channel decides", async () => {
    const asked: unknown[] = [];
    const out = await runBoth(
      policed([{ name: "run_command" }, { name: "edit_file" }], [policy.askUser("*")], {
        approvals: {
          handler: (request) => {
            asked.push(request.toolName);
            return request.toolName === "edit_file";
          },
        },
      }),
    );
    for (const { fixture } of out.both) expect(fixture.ran).toEqual(["edit_file"]);
    expect(asked).toEqual(["run_command", "edit_file", "run_command", "edit_file"]);
  });

  test("an approval_request hook answers before the channel", async () => {
    const out = await runBoth(
      policed([{ name: "run_command" }], [policy.askUser("run_command")], {
        hooks: [
          defineHook({
            name: "auto-approve",
            on: "approval_request",
            kind: "transform",
            handler: () => flow.allow(),
          }),
        ],
      }),
    );
    for (const { fixture } of out.both) expect(fixture.ran).toEqual(["run_command"]);
  });
});

describe("seed 002's example", () => {
  test("deny('*'), allow('view_file'), deny('run_command' when rm), askUser('run_command', handler)", async () => {
    const approvals: string[] = [];
    const policies = [
      policy.deny("*"),
      policy.allow("view_file"),
      policy.deny("run_command", { when: (args) => String(args.command ?? "").includes("rm") }),
      policy.askUser("run_command", {
        handler: (call) => {
          approvals.push((call.args as { command: string }).command);
          return true;
        },
      }),
    ];
    const out = await runBoth(
      policed(
        [
          { name: "view_file" },
          { name: "run_command", args: { command: "rm -rf build" } },
          { name: "run_command", args: { command: "ls" } },
          { name: "edit_file" },
        ],
        policies,
      ),
    );
    for (const { fixture } of out.both) {
      expect(fixture.ran).toEqual(["view_file", "run_command"]);
      const sent = sentResults(fixture.model);
      expect(sent.map((result) => result.type)).toEqual(["text", "error-text", "text", "error-text"]);
      expect(sent[3]!.value).toContain('deny "*"');
    }
    // The rm call was denied before asking anyone.
    expect(approvals).toEqual(["ls", "ls"]);
  });
});
