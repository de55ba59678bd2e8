/**
 * Whether a value read back from a store or a JSONL export is a run record as hookwise
 * writes it, down to the fields `trace`, `replay` and `test` read — so a record altered by
 * hand (`steps: "x"`, an input that is not a text) is an error naming what is wrong, not a
 * crash in the middle of printing it.
 */
import { lazy } from "../deps/load-package.js";
import { z } from "../deps/zod.js";

const shape = lazy(() => {
  const decision = z.looseObject({
    hook: z.string(),
    event: z.string(),
    kind: z.string(),
    effect: z.string(),
  });
  const attempt = z.looseObject({
    step: z.number(),
    attempt: z.number(),
    model: z.string().optional(),
    answer: z
      .looseObject({
        text: z.string(),
        toolCalls: z.array(z.looseObject({ id: z.string(), name: z.string() })),
        finishReason: z.string(),
      })
      .optional(),
    error: z.looseObject({ type: z.string(), message: z.string() }).optional(),
  });
  const call = z.looseObject({
    toolCallId: z.string(),
    toolName: z.string(),
    qualifiedName: z.string(),
    executed: z.boolean(),
    isError: z.boolean().optional(),
    pending: z.boolean().optional(),
    hooks: z.array(decision),
  });
  const step = z.looseObject({
    index: z.number(),
    text: z.string(),
    reasoning: z.string().optional(),
    finishReason: z.string(),
    calls: z.array(call),
    hooks: z.array(decision),
  });
  return z.looseObject({
    format: z.literal(1),
    runId: z.string(),
    sessionId: z.string(),
    agent: z.string(),
    input: z.string(),
    startedAt: z.number(),
    endedAt: z.number(),
    outcome: z.string(),
    text: z.string(),
    attempts: z.array(attempt),
    steps: z.array(step),
    hooks: z.array(decision),
    resumedAt: z.array(z.number()).optional(),
  });
});

/**
 * The lists a stored record of format 2 or 3 (run-record-pack.ts) must hold to be unpacked; the
 * unpacked record is then checked as a whole (`runRecordProblem`).
 */
const packedShape = lazy(() =>
  z.looseObject({
    format: z.union([z.literal(2), z.literal(3)]),
    // An answer of format 3 may be a list (run-record-pack.ts `PackedAnswer`).
    attempts: z.array(z.union([z.looseObject({}), z.array(z.unknown())])),
    steps: z.array(z.looseObject({ calls: z.array(z.looseObject({})) })),
  }),
);

/** What makes `value` not a run record (`steps: expected an array`), or undefined when it is one. */
export function runRecordProblem(value: unknown): string | undefined {
  return problemOf(shape().safeParse(value));
}

/** What makes a stored record of format 2 or 3 not one that can be unpacked, or undefined. */
export function packedRecordProblem(value: unknown): string | undefined {
  return problemOf(packedShape().safeParse(value));
}

function problemOf(
  parsed:
    | ReturnType<ReturnType<typeof shape>["safeParse"]>
    | ReturnType<ReturnType<typeof packedShape>["safeParse"]>,
): string | undefined {
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map((segment) =>
    typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`,
  );
  const where = path.join("").replace(/^\./, "");
  return `${where || "the record"}: ${issue.message}`;
}
