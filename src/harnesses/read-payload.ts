/**
 * Reading a harness's event: each field checked for the type the harness documents, and a
 * missing or mistyped field named in one line (the hook then blocks with that reason).
 */
import { nearest } from "../errors/nearest.js";
import { HarnessInputError } from "./harness-input-error.js";

export type Payload = Readonly<Record<string, unknown>>;

/** A string field; `required` fields that are absent or not strings are an error. */
export function text(payload: Payload, key: string, required: true): string;
export function text(payload: Payload, key: string, required?: false): string | undefined;
export function text(payload: Payload, key: string, required = false): string | undefined {
  const value = payload[key];
  if (value === undefined || value === null) {
    if (required) throw new HarnessInputError(`the event has no "${key}" (a string was expected)`);
    return undefined;
  }
  if (typeof value !== "string")
    throw new HarnessInputError(`the event's "${key}" is ${describe(value)}, not a string`);
  return value;
}

/** The first of `keys` the payload has as a string. */
export function firstText(payload: Payload, keys: readonly string[], required: true): string;
export function firstText(payload: Payload, keys: readonly string[], required?: false): string | undefined;
export function firstText(payload: Payload, keys: readonly string[], required = false): string | undefined {
  for (const key of keys) {
    const value = text(payload, key);
    if (value !== undefined) return value;
  }
  if (required)
    throw new HarnessInputError(`the event has none of ${keys.map((key) => `"${key}"`).join(", ")}`);
  return undefined;
}

export function flag(payload: Payload, key: string): boolean | undefined {
  const value = payload[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean")
    throw new HarnessInputError(`the event's "${key}" is ${describe(value)}, not true or false`);
  return value;
}

/** A tool's input: an object (a JSON text of one is read too: Cursor sends MCP input as text). */
export function toolInput(payload: Payload, key: string): Record<string, unknown> {
  let value = payload[key];
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      throw new HarnessInputError(`the event's "${key}" is text that is not JSON`);
    }
  }
  if (value === undefined || value === null) throw new HarnessInputError(`the event has no "${key}"`);
  if (typeof value !== "object" || Array.isArray(value))
    throw new HarnessInputError(`the event's "${key}" is ${describe(value)}, not an object`);
  return value as Record<string, unknown>;
}

/** The event's name field, checked against the names the harness sends. */
export function eventName<K extends string>(
  payload: Payload,
  key: string,
  events: Readonly<Record<K, unknown>>,
  label: string,
): K {
  const name = text(payload, key, true);
  if (!Object.hasOwn(events, name)) {
    const near = nearest(name, Object.keys(events));
    throw new HarnessInputError(
      `"${name}" is not a ${label} hook event hookwise answers (${Object.keys(events).join(", ")})${near ? `; did you mean "${near}"?` : ""}`,
    );
  }
  return name as K;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}
