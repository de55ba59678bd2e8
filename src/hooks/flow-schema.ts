/**
 * The shape of every `Flow` a hook may return, checked where the answer enters the engine:
 * a plain-JS or config hook that answers `flow.patch({ system: 42 })`, injects something
 * that is not a model message or rewrites a result into a function fails closed with the
 * field named, before anything is applied, run or persisted.
 *
 * The answers the loop sees most (`allow`, a `deny` / `terminate` with a reason, a string
 * rewrite) are checked by hand; the rest go through one zod schema per flow type.
 */
import { lazy } from "../deps/load-package.js";
import { z } from "../deps/zod.js";
import type { Flow, FlowType } from "./flow.js";

/** The first path at which `value` cannot be stored as JSON (a function, a cycle, a bigint, a symbol). */
export function unstorableAt(value: unknown): { path: (string | number)[]; what: string } | undefined {
  const ancestors: object[] = [];
  const path: (string | number)[] = [];
  const visit = (item: unknown): string | undefined => {
    switch (typeof item) {
      case "function":
        return "a function";
      case "bigint":
        return "a bigint";
      case "symbol":
        return "a symbol";
      case "object": {
        if (item === null) return undefined;
        if (ancestors.includes(item)) return "a circular reference";
        // `toJSON` (a Date) decides its own stored form.
        if (typeof (item as { toJSON?: unknown }).toJSON === "function") return undefined;
        ancestors.push(item);
        const keys = Array.isArray(item) ? item.keys() : Object.keys(item);
        for (const key of keys) {
          path.push(key);
          const found = visit((item as Record<string | number, unknown>)[key]);
          if (found) return found;
          path.pop();
        }
        ancestors.pop();
        return undefined;
      }
      default:
        return undefined;
    }
  };
  const what = visit(value);
  return what === undefined ? undefined : { path, what };
}

/** A value kept in the transcript or the trace: anything JSON can store. */
const storable = lazy(() =>
  z.unknown().superRefine((value, context) => {
    const found = unstorableAt(value);
    if (found)
      context.addIssue({
        code: "custom",
        message: `must be storable as JSON, found ${found.what}`,
        path: found.path,
      });
  }),
);

const providerOptions = lazy(() => z.record(z.string(), z.record(z.string(), storable())));

const textPart = lazy(() => z.looseObject({ type: z.literal("text"), text: z.string() }));
const imagePart = lazy(() => z.looseObject({ type: z.literal("image"), image: z.unknown() }));
const filePart = lazy(() =>
  z.looseObject({ type: z.literal("file"), data: z.unknown(), mediaType: z.string() }),
);
const reasoningPart = lazy(() => z.looseObject({ type: z.literal("reasoning"), text: z.string() }));
const toolCallPart = lazy(() =>
  z.looseObject({
    type: z.literal("tool-call"),
    toolCallId: z.string(),
    toolName: z.string(),
    input: storable(),
  }),
);
const toolResultPart = lazy(() =>
  z.looseObject({
    type: z.literal("tool-result"),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.looseObject({ type: z.string() }),
  }),
);
const approvalRequestPart = lazy(() =>
  z.looseObject({
    type: z.literal("tool-approval-request"),
    approvalId: z.string(),
    toolCallId: z.string(),
  }),
);
const approvalResponsePart = lazy(() =>
  z.looseObject({
    type: z.literal("tool-approval-response"),
    approvalId: z.string(),
    approved: z.boolean(),
  }),
);

/** A model message as the transcript keeps it (what the provider prompt is built from). */
export const modelMessageSchema = lazy(() =>
  z.discriminatedUnion("role", [
    z.looseObject({ role: z.literal("system"), content: z.string() }),
    z.looseObject({
      role: z.literal("user"),
      content: z.union([
        z.string(),
        z.array(z.discriminatedUnion("type", [textPart(), imagePart(), filePart()])),
      ]),
    }),
    z.looseObject({
      role: z.literal("assistant"),
      content: z.union([
        z.string(),
        z.array(
          z.discriminatedUnion("type", [
            textPart(),
            filePart(),
            reasoningPart(),
            toolCallPart(),
            toolResultPart(),
            approvalRequestPart(),
          ]),
        ),
      ]),
    }),
    z.looseObject({
      role: z.literal("tool"),
      content: z.array(z.discriminatedUnion("type", [toolResultPart(), approvalResponsePart()])),
    }),
  ]),
);

const messages = lazy(() => z.array(modelMessageSchema()));

/** Messages the transcript will keep: model messages, storable as JSON (no cycle in a part). */
const storedMessages = lazy(() => storable().pipe(messages()));

/** `RequestPatch`: every field typed, unknown fields refused (a typo must not pass silently). */
const placement = lazy(() => z.enum(["end", "user_message", "system"]));

export const requestPatchSchema = lazy(() =>
  z.strictObject({
    extraContext: z
      .array(
        z.union([
          z.string(),
          z.strictObject({ id: z.string().optional(), text: z.string(), placement: placement().optional() }),
        ]),
      )
      .optional(),
    appendToUserMessage: z.string().optional(),
    placement: placement().optional(),
    system: z.string().optional(),
    messages: messages().optional(),
    temperature: z.number().finite().optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    topP: z.number().finite().optional(),
    seed: z.number().int().optional(),
    stopSequences: z.array(z.string()).optional(),
    toolChoice: z
      .union([
        z.enum(["auto", "none", "required"]),
        z.strictObject({ type: z.literal("tool"), toolName: z.string() }),
      ])
      .optional(),
    providerOptions: providerOptions().optional(),
    activeTools: z.array(z.string()).optional(),
  }),
);

const optionalText = lazy(() => z.string().optional());
const messageTarget = lazy(() =>
  z.custom<object>((value) => typeof value === "object" && value !== null, {
    message: "must be a message object read from ctx.messages",
  }),
);

const messageEdit = lazy(() =>
  z.discriminatedUnion("kind", [
    z.looseObject({
      kind: z.literal("replace"),
      targets: z.array(messageTarget()),
      messages: storedMessages(),
    }),
    z.looseObject({
      kind: z.literal("compact"),
      remove: z.array(messageTarget()),
      replacement: z.union([
        storedMessages(),
        z.custom<(...args: never[]) => unknown>((value) => typeof value === "function"),
      ]),
      reason: optionalText(),
    }),
  ]),
);

/** One schema per flow type (the `type` field is checked before these run). */
export const FLOW_SCHEMAS: () => Readonly<Record<FlowType, z.ZodType>> = lazy(() => ({
  patch: z.looseObject({ patch: requestPatchSchema() }),
  rewriteArgs: z.looseObject({ args: storable() }),
  rewriteResult: z.looseObject({ result: storable() }),
  skip: z.looseObject({ result: storable() }),
  allow: z.looseObject({}),
  deny: z.looseObject({ reason: optionalText() }),
  ask: z.looseObject({
    request: z.looseObject({
      reason: optionalText(),
      handler: z.custom<(...args: never[]) => unknown>((value) => typeof value === "function").optional(),
    }),
  }),
  terminate: z.looseObject({ reason: optionalText() }),
  retry: z.looseObject({ feedback: optionalText() }),
  repair: z.looseObject({ call: z.looseObject({ toolName: optionalText(), args: storable() }) }),
  rewriteInput: z.looseObject({ input: z.string() }),
  rewriteOutput: z.looseObject({ output: z.string() }),
  inject: z.looseObject({ messages: storedMessages() }),
  fallback: z.looseObject({
    model: z.union([
      z.string().min(1),
      z.custom<object>((value) => typeof value === "object" && value !== null, {
        message: "must be a model or a provider string",
      }),
    ]),
  }),
  editMessages: z.looseObject({ edits: z.array(messageEdit()), append: storedMessages().optional() }),
}));

/** The field a reason lives in, for the flows that have one (checked by hand: the common answers). */
const REASON_FIELD: Partial<Record<FlowType, "reason" | "input" | "output">> = {
  deny: "reason",
  terminate: "reason",
  rewriteInput: "input",
  rewriteOutput: "output",
};

export type FlowCheck = { ok: true; flow: Flow } | { ok: false; field: string; message: string };

/**
 * Checks a flow whose `type` the event accepts. A `deny` or `terminate` without a reason
 * gets one naming the hook (a fresh object: the hook's own answer is not changed).
 */
export function checkFlow(flow: Flow, hookName: string): FlowCheck {
  const type = flow.type;
  if (type === "allow") return { ok: true, flow };
  const field = REASON_FIELD[type];
  if (field !== undefined) {
    const value = (flow as Record<string, unknown>)[field];
    if (typeof value === "string" && value !== "") return { ok: true, flow };
    if ((value === undefined || value === "") && field === "reason")
      // `type` written out: a spread copies own fields only, and a class instance's or a
      // prototype's `type` would be lost (the deny read as no decision at all).
      return { ok: true, flow: { ...flow, type, reason: defaultReason(type, hookName) } as Flow };
  }
  const parsed = FLOW_SCHEMAS()[type].safeParse(flow);
  if (parsed.success) return { ok: true, flow };
  const issue = parsed.error.issues[0]!;
  const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path;
  return { ok: false, field: fieldPath(path), message: issueMessage(issue) };
}

function defaultReason(type: FlowType, hookName: string): string {
  return type === "deny" ? `denied by hook "${hookName}"` : `terminated by hook "${hookName}"`;
}

/** `patch.extraContext[0].text`: a path the way it reads in code. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text || "(the flow)";
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys")
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((key) => `"${key}"`).join(", ")}`;
  return issue.message;
}
