/**
 * The shape a stored suspended run must have before a resume trusts it. The store hands
 * back whatever JSON the key holds (a hand edit, a write cut short, another program's data);
 * resuming from a half-formed record would fail deep inside the loop with a TypeError, or
 * worse, run something. Checked at load, a bad record is one clear error instead.
 */
import { lazy } from "../deps/load-package.js";
import { z } from "../deps/zod.js";

const message = lazy(() =>
  z.looseObject({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.union([z.string(), z.array(z.unknown())]),
  }),
);

const approval = lazy(() =>
  z.looseObject({
    id: z.string(),
    binding: z.string(),
    createdAt: z.number(),
    expiresAt: z.number(),
  }),
);

const entry = lazy(() =>
  z.union([
    z.looseObject({ kind: z.literal("settled"), outcome: z.looseObject({ toolCallId: z.string() }) }),
    z.looseObject({
      kind: z.literal("pending"),
      toolCallId: z.string(),
      toolName: z.string(),
      qualifiedName: z.string(),
      approval: approval().optional(),
    }),
  ]),
);

const suspendedRun = lazy(() =>
  z.looseObject({
    version: z.literal(1),
    status: z.literal("suspended"),
    runId: z.string(),
    sessionId: z.string(),
    agentName: z.string(),
    agentPath: z.array(z.string()),
    input: z.string(),
    turn: z.number(),
    userMessageIndex: z.number(),
    token: z.string(),
    suspendedAt: z.number(),
    messages: z.array(message()),
    steps: z.array(z.unknown()),
    events: z.array(z.unknown()),
    usage: z.looseObject({}),
    pending: z.looseObject({
      index: z.number(),
      turn: z.looseObject({
        text: z.string(),
        reasoning: z.string(),
        toolCalls: z.array(z.looseObject({ toolCallId: z.string(), toolName: z.string() })),
        finishReason: z.string(),
      }),
      attempts: z.number(),
      entries: z.array(entry()),
    }),
    onceKeys: z.array(z.string()),
    oneShot: z.boolean().optional(),
  }),
);

/** What is wrong with a stored suspended run, as `path: problem`; undefined when it is well formed. */
export function suspendedRunProblem(value: unknown): string | undefined {
  const parsed = suspendedRun().safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`)).join("");
  return `${path.replace(/^\./, "") || "the record"}: ${issue.message}`;
}
