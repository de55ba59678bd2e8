/**
 * Flow validation, as properties: every well-formed flow passes unchanged (the hook's own
 * object, not a copy), and a flow with one field broken fails with that field named.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { HookError } from "../errors/hook-error.js";
import type { Flow } from "./flow.js";
import { checkFlow, unstorableAt } from "./flow-schema.js";
import type { HookContext } from "./hook-context.js";
import { HookRegistry } from "./hook-registry.js";
import { invokeHook } from "./invoke-hook.js";

const text = fc.string({ maxLength: 12 });
const reason = fc.string({ minLength: 1, maxLength: 12 });
const json = fc.jsonValue({ maxDepth: 3 });

const message = fc.oneof(
  fc.record({ role: fc.constant("system"), content: text }),
  fc.record({
    role: fc.constant("user"),
    content: fc.oneof(text, fc.array(fc.record({ type: fc.constant("text"), text }), { maxLength: 3 })),
  }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.array(
      fc.oneof(
        fc.record({ type: fc.constant("text"), text }),
        fc.record({ type: fc.constant("tool-call"), toolCallId: reason, toolName: reason, input: json }),
      ),
      { maxLength: 3 },
    ),
  }),
  fc.record({
    role: fc.constant("tool"),
    content: fc.array(
      fc.record({
        type: fc.constant("tool-result"),
        toolCallId: reason,
        toolName: reason,
        output: fc.record({ type: fc.constant("text"), value: text }),
      }),
      { maxLength: 2 },
    ),
  }),
);

const patch = fc.record(
  {
    extraContext: fc.array(fc.oneof(text, fc.record({ id: text, text }, { requiredKeys: ["text"] })), {
      maxLength: 3,
    }),
    appendToUserMessage: text,
    system: text,
    messages: fc.array(message, { maxLength: 3 }),
    temperature: fc.double({ min: 0, max: 2, noNaN: true }),
    maxOutputTokens: fc.integer({ min: 1, max: 100_000 }),
    topP: fc.double({ min: 0, max: 1, noNaN: true }),
    seed: fc.integer(),
    stopSequences: fc.array(text, { maxLength: 3 }),
    toolChoice: fc.oneof(
      fc.constantFrom("auto", "none", "required"),
      fc.record({ type: fc.constant("tool"), toolName: reason }),
    ),
    providerOptions: fc.dictionary(reason, fc.dictionary(reason, json, { maxKeys: 2 }), { maxKeys: 2 }),
    activeTools: fc.array(reason, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

/** Well-formed flows of every type, as `flow.*` builds them. */
const validFlow: fc.Arbitrary<Flow> = fc.oneof(
  patch.map((value) => ({ type: "patch", patch: value }) as Flow),
  json.map((args) => ({ type: "rewriteArgs", args }) as Flow),
  json.map((result) => ({ type: "rewriteResult", result }) as Flow),
  json.map((result) => ({ type: "skip", result }) as Flow),
  fc.constant({ type: "allow" } as Flow),
  reason.map((value) => ({ type: "deny", reason: value }) as Flow),
  fc.record({ reason }, { requiredKeys: [] }).map((request) => ({ type: "ask", request }) as Flow),
  reason.map((value) => ({ type: "terminate", reason: value }) as Flow),
  fc
    .option(text, { nil: undefined })
    .map((feedback) => (feedback === undefined ? { type: "retry" } : { type: "retry", feedback }) as Flow),
  fc.record({ toolName: reason, args: json }).map((call) => ({ type: "repair", call }) as Flow),
  text.map((input) => ({ type: "rewriteInput", input }) as Flow),
  text.map((output) => ({ type: "rewriteOutput", output }) as Flow),
  fc.array(message, { maxLength: 3 }).map((messages) => ({ type: "inject", messages }) as Flow),
  reason.map((model) => ({ type: "fallback", model }) as Flow),
  fc.array(message, { minLength: 1, maxLength: 2 }).map(
    (messages) =>
      ({
        type: "editMessages",
        edits: [{ kind: "replace", targets: [{ role: "user", content: "x" }], messages }],
      }) as Flow,
  ),
);

/** Values that are never a well-formed value of any field below (numbers: see `wrongFor`). */
const wrong = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constant(() => 1),
  fc.constant(Symbol("s")),
);
const numberOrWrong = fc.oneof(wrong, fc.integer(), fc.double({ noNaN: true }));

/** [flow type, field path, what to build with a wrong value there]. */
const BREAKABLE: [string, (bad: unknown) => unknown][] = [
  ["patch.system", (bad) => ({ type: "patch", patch: { system: bad } })],
  ["patch.temperature", (bad) => ({ type: "patch", patch: { temperature: bad } })],
  ["patch.extraContext", (bad) => ({ type: "patch", patch: { extraContext: bad } })],
  ["patch.activeTools", (bad) => ({ type: "patch", patch: { activeTools: bad } })],
  ["patch", (bad) => ({ type: "patch", patch: bad })],
  ["input", (bad) => ({ type: "rewriteInput", input: bad })],
  ["output", (bad) => ({ type: "rewriteOutput", output: bad })],
  ["messages", (bad) => ({ type: "inject", messages: bad })],
  ["messages[0]", (bad) => ({ type: "inject", messages: [bad] })],
  ["messages[0].content", (bad) => ({ type: "inject", messages: [{ role: "user", content: bad }] })],
  ["feedback", (bad) => ({ type: "retry", feedback: bad })],
  ["request", (bad) => ({ type: "ask", request: bad })],
];

/** A broken case and a value wrong for its field (a number is a fine temperature). */
const broken = fc
  .constantFrom(...BREAKABLE)
  .chain(([field, build]) =>
    (field === "patch.temperature" ? fc.oneof(wrong, fc.string()) : numberOrWrong).map(
      (bad) => [field, build, bad] as const,
    ),
  );

describe("checkFlow", () => {
  test("every well-formed flow passes, as the same object", () => {
    fc.assert(
      fc.property(validFlow, (value) => {
        const checked = checkFlow(value, "h");
        expect(checked).toEqual({ ok: true, flow: value });
        if (checked.ok) expect(checked.flow).toBe(value);
      }),
      { numRuns: 500 },
    );
  });

  test("a flow with one field broken fails, naming that field", () => {
    fc.assert(
      fc.property(broken, ([field, build, bad]) => {
        // A null `feedback` or `request` is still wrong; `undefined` would be absent (valid).
        const checked = checkFlow(build(bad) as Flow, "h");
        expect(checked.ok).toBe(false);
        if (!checked.ok) expect(checked.field).toBe(field);
      }),
      { numRuns: 500 },
    );
  });

  test("an unknown patch field is refused by name; a typo never passes", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 10 }).filter((key) => !(key in REQUEST_PATCH_KEYS)),
        json,
        (key, value) => {
          const checked = checkFlow({ type: "patch", patch: { [key]: value } } as Flow, "h");
          expect(checked).toMatchObject({ ok: false, field: `patch.${key}` });
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a payload with a function, a bigint or a cycle anywhere is not storable, the path named", () => {
    fc.assert(
      fc.property(
        json,
        fc.constantFrom(() => 1, 1n, "cycle"),
        (base, poison) => {
          const holder: Record<string, unknown> = { base };
          holder.deep = { list: [0, poison === "cycle" ? holder : poison] };
          for (const type of ["rewriteResult", "skip"] as const) {
            const checked = checkFlow({ type, result: holder } as Flow, "h");
            expect(checked).toMatchObject({ ok: false, field: "result.deep.list[1]" });
          }
          expect(unstorableAt(base)).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  test("a shared (not circular) object is storable", () => {
    const shared = { a: 1 };
    expect(unstorableAt({ x: shared, y: [shared, shared] })).toBeUndefined();
  });

  test("deny / terminate without a reason get one naming the hook; the hook's object is not changed", () => {
    const answer = { type: "deny" } as Flow;
    expect(checkFlow(answer, "guard")).toEqual({
      ok: true,
      flow: { type: "deny", reason: 'denied by hook "guard"' },
    });
    expect(answer).toEqual({ type: "deny" });
    expect(checkFlow({ type: "terminate", reason: "" } as Flow, "g")).toMatchObject({
      ok: true,
      flow: { reason: 'terminated by hook "g"' },
    });
  });
});

const REQUEST_PATCH_KEYS: Record<string, true> = Object.fromEntries(
  [
    "extraContext",
    "appendToUserMessage",
    "system",
    "messages",
    "temperature",
    "maxOutputTokens",
    "topP",
    "seed",
    "stopSequences",
    "toolChoice",
    "providerOptions",
    "activeTools",
    // Inherited names would read as present through `in`.
    ...Object.getOwnPropertyNames(Object.prototype),
  ].map((key) => [key, true]),
);

describe("at the boundary: a hook's malformed answer is a HookError naming hook and field", () => {
  const context = { signal: new AbortController().signal } as HookContext;
  test("every broken flow, sync or async", async () => {
    await fc.assert(
      fc.asyncProperty(broken, fc.boolean(), async ([field, build, bad], later) => {
        const answer = build(bad);
        const type = (answer as { type: string }).type;
        const on = EVENT_FOR[type]!;
        const registry = new HookRegistry([
          {
            name: "shaky",
            on,
            kind: type === "ask" ? "decide" : "transform",
            handler: () => (later ? Promise.resolve(answer) : answer),
          } as never,
        ]);
        const invoked = await invokeHook(
          registry.list(on)[0]!,
          { type: on, agentPath: ["a"] } as never,
          context,
        );
        expect(invoked.ok).toBe(false);
        if (invoked.ok) return;
        expect(invoked.error).toBeInstanceOf(HookError);
        expect(invoked.error).toMatchObject({ hook: "shaky", reason: "invalid_result", field });
        expect(invoked.error.message).toContain('"shaky"');
        expect(invoked.error.message).toContain(`${field}:`);
      }),
      { numRuns: 200 },
    );
  });
});

const EVENT_FOR: Record<
  string,
  "model_request" | "run_start" | "run_end" | "step_start" | "invalid_tool_call" | "tool_call"
> = {
  patch: "model_request",
  rewriteInput: "run_start",
  rewriteOutput: "run_end",
  inject: "step_start",
  retry: "invalid_tool_call",
  ask: "tool_call",
};
