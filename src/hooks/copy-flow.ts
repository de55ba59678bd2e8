/**
 * A hook's answer read once, at the boundary, into a plain copy the engine works on from
 * then: each field is read one time (a getter is not read again, a Proxy's traps run only
 * here), and the data a flow carries — rewritten arguments and results, injected or
 * replacing messages, a request patch, a repaired call — is cloned (`structuredClone`), so
 * a value the hook keeps and changes later, a getter that answers differently on a second
 * read or a `toJSON` that throws when the run is saved cannot reach the transcript or the
 * store. What cannot be read or copied (a getter that throws, a Proxy, a function where data
 * belongs) is a failure naming the field; the flow's shape is checked after, on the copy.
 *
 * Kept by reference: the messages of an edit (found by identity in the transcript, and a
 * replacement may move one), a patch's history view (never stored), a fallback's model, an approval request's handler and a compaction's
 * replacement function.
 */
import type { Flow } from "./flow.js";
import { fieldPath, unstorableAt } from "./flow-schema.js";

export type FlowCopy = { ok: true; flow: Flow } | { ok: false; field: string; message: string };

class Unreadable extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

function reason(error: unknown): string {
  try {
    if (error instanceof Error) return error.message;
    return String(error);
  } catch {
    return "a value that cannot be shown";
  }
}

/** `object[key]`, read once; a throw names the field. */
function read(object: object, key: string, field: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch (error) {
    throw new Unreadable(field, `could not be read: ${reason(error)}`);
  }
}

/** The object's own fields (and `type`, which a class may keep on its prototype), each read once. */
function fields(value: object, field: string, skip?: string): Record<string, unknown> {
  let keys: string[];
  try {
    keys = Object.keys(value);
  } catch (error) {
    throw new Unreadable(field, `could not be read: ${reason(error)}`);
  }
  const out: Record<string, unknown> = {};
  for (const key of keys)
    if (key !== skip) out[key] = read(value, key, field === "" ? key : `${field}.${key}`);
  return out;
}

/** Data cloned: plain objects, arrays, dates, bytes; a function, a Proxy or a symbol is refused. */
function data(value: unknown, field: string): unknown {
  if (typeof value !== "object" || value === null) {
    if (typeof value === "function") throw new Unreadable(field, "must be data, found a function");
    return value;
  }
  try {
    return structuredClone(value);
  } catch (error) {
    // Refused either way; where, when it can be told.
    const found = (() => {
      try {
        return unstorableAt(value);
      } catch {
        return undefined;
      }
    })();
    if (found)
      throw new Unreadable(
        fieldPath([field, ...found.path]),
        `must be storable as JSON, found ${found.what}`,
      );
    throw new Unreadable(
      field,
      `must be plain data, found a value that cannot be copied (${error instanceof Error ? error.name : "an error"}: a function, a Proxy or an object with a toJSON method)`,
    );
  }
}

function list(value: unknown, field: string): unknown[] | unknown {
  if (!Array.isArray(value)) return value;
  const items = fields(value, field);
  return Object.keys(items).map((key) => items[key]);
}

/** Copies `value` (a hook's answer that is an object); the copy's shape is checked after. */
export function copyFlow(value: object): FlowCopy {
  try {
    return { ok: true, flow: copy(value) };
  } catch (error) {
    if (error instanceof Unreadable) return { ok: false, field: error.field, message: error.message };
    return { ok: false, field: "(the flow)", message: `could not be read: ${reason(error)}` };
  }
}

function copy(value: object): Flow {
  const type = read(value, "type", "type");
  const flow = fields(value, "", "type");
  flow.type = type;
  // No field of a flow is a function (a handler or a replacement sits one level down).
  for (const [key, field] of Object.entries(flow))
    if (typeof field === "function") throw new Unreadable(key, "must be data, found a function");
  switch (type) {
    case "patch":
      if (typeof flow.patch === "object" && flow.patch !== null) {
        const patch = fields(flow.patch, "patch");
        // A history view is read once but not cloned (a compaction hook may hand back the
        // transcript's own messages at every attempt): it is never stored.
        for (const key of Object.keys(patch))
          patch[key] =
            key === "messages" ? list(patch[key], "patch.messages") : data(patch[key], `patch.${key}`);
        flow.patch = patch;
      }
      break;
    case "rewriteArgs":
      flow.args = data(flow.args, "args");
      break;
    case "rewriteResult":
    case "skip":
      flow.result = data(flow.result, "result");
      break;
    case "repair":
      flow.call = data(flow.call, "call");
      break;
    case "inject":
      flow.messages = data(flow.messages, "messages");
      break;
    case "ask":
      if (typeof flow.request === "object" && flow.request !== null)
        flow.request = fields(flow.request, "request");
      break;
    case "editMessages": {
      const edits = list(flow.edits, "edits");
      if (Array.isArray(edits)) flow.edits = edits.map((edit, index) => copyEdit(edit, `edits[${index}]`));
      if (flow.append !== undefined) flow.append = data(flow.append, "append");
      break;
    }
  }
  return flow as unknown as Flow;
}

function copyEdit(edit: unknown, field: string): unknown {
  if (typeof edit !== "object" || edit === null) return edit;
  const out = fields(edit, field);
  // Messages are found by identity in the transcript (targets, and a replacement may move
  // one): the lists are copied, the messages are not.
  for (const key of ["targets", "remove", "messages", "replacement"])
    if (key in out) out[key] = list(out[key], `${field}.${key}`);
  return out;
}
