/**
 * Parameter values to URL and header text, by the parameter's `style` and `explode`
 * (OpenAPI's style table; RFC 6570 where OpenAPI defers to it). Every value is
 * percent-encoded for its place: a path value can never add a `/` or a query value an `&`
 * (`allowReserved` included).
 * Values nested deeper than the styles describe (an object inside an array) travel as
 * JSON text.
 */
import type { ApiParameter } from "../api-description.js";

type Scalar = string | number | boolean | null;

function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/**
 * RFC 3986 reserved characters that `allowReserved` keeps as they are — except the query's
 * own separators (`&`, `=`, `;`, `+` read as a space, `#` ending the query), which stay
 * encoded: a value never adds a parameter, whatever the document allows.
 */
const RESERVED = /%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C)/gi;

function encode(value: unknown, allowReserved = false): string {
  const encoded = encodeURIComponent(text(value)).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return allowReserved ? encoded.replace(RESERVED, (sequence) => decodeURIComponent(sequence)) : encoded;
}

type Shape =
  | { kind: "scalar"; value: Scalar }
  | { kind: "array"; items: unknown[] }
  | { kind: "object"; entries: [string, unknown][] };

function shapeOf(parameter: ApiParameter, value: unknown): Shape {
  if (parameter.json) return { kind: "scalar", value: JSON.stringify(value) };
  if (Array.isArray(value)) return { kind: "array", items: value };
  if (typeof value === "object" && value !== null)
    return { kind: "object", entries: Object.entries(value).filter(([, item]) => item !== undefined) };
  return { kind: "scalar", value: value as Scalar };
}

/** The text replacing `{name}` in the path. */
export function serializePathParameter(parameter: ApiParameter, value: unknown): string {
  const shape = shapeOf(parameter, value);
  const { explode } = parameter;
  const name = encode(parameter.name);
  const pairs = (entries: [string, unknown][], join: string) =>
    entries.map(([key, item]) => `${encode(key)}=${encode(item)}`).join(join);
  const flat = (entries: [string, unknown][]) =>
    entries.flatMap(([key, item]) => [encode(key), encode(item)]).join(",");
  switch (parameter.style) {
    case "label":
      if (shape.kind === "scalar") return `.${encode(shape.value)}`;
      if (shape.kind === "array")
        return `.${shape.items.map((item) => encode(item)).join(explode ? "." : ",")}`;
      return `.${explode ? pairs(shape.entries, ".") : flat(shape.entries)}`;
    case "matrix":
      if (shape.kind === "scalar") return shape.value === "" ? `;${name}` : `;${name}=${encode(shape.value)}`;
      if (shape.kind === "array") {
        if (shape.items.length === 0) return `;${name}`;
        return explode
          ? shape.items.map((item) => `;${name}=${encode(item)}`).join("")
          : `;${name}=${shape.items.map((item) => encode(item)).join(",")}`;
      }
      return explode
        ? shape.entries.map(([key, item]) => `;${encode(key)}=${encode(item)}`).join("")
        : `;${name}=${flat(shape.entries)}`;
    default:
      if (shape.kind === "scalar") return encode(shape.value);
      if (shape.kind === "array") return shape.items.map((item) => encode(item)).join(",");
      return explode ? pairs(shape.entries, ",") : flat(shape.entries);
  }
}

/** `name=value` parts of the query string, already encoded. */
export function serializeQueryParameter(parameter: ApiParameter, value: unknown): string[] {
  const shape = shapeOf(parameter, value);
  const { explode, allowReserved } = parameter;
  const name = encode(parameter.name);
  const value_ = (item: unknown) => encode(item, allowReserved);
  if (shape.kind === "scalar") return [`${name}=${value_(shape.value)}`];
  const delimiter =
    parameter.style === "spaceDelimited" ? "%20" : parameter.style === "pipeDelimited" ? "|" : ",";
  if (shape.kind === "array") {
    if (explode) return shape.items.map((item) => `${name}=${value_(item)}`);
    return [`${name}=${shape.items.map(value_).join(delimiter)}`];
  }
  if (parameter.style === "deepObject")
    return shape.entries.map(([key, item]) => `${name}[${encode(key)}]=${value_(item)}`);
  if (explode && parameter.style === "form")
    return shape.entries.map(([key, item]) => `${encode(key)}=${value_(item)}`);
  return [`${name}=${shape.entries.flatMap(([key, item]) => [encode(key), value_(item)]).join(delimiter)}`];
}

/** A header's value (simple style, as the document describes it; not percent-encoded). */
export function serializeHeaderParameter(parameter: ApiParameter, value: unknown): string {
  const shape = shapeOf(parameter, value);
  if (shape.kind === "scalar") return text(shape.value);
  if (shape.kind === "array") return shape.items.map(text).join(",");
  return shape.entries
    .map(([key, item]) => (parameter.explode ? `${key}=${text(item)}` : `${key},${text(item)}`))
    .join(",");
}

/** `name=value` cookie pairs, values percent-encoded so a `;` cannot start another cookie. */
export function serializeCookieParameter(parameter: ApiParameter, value: unknown): string[] {
  const shape = shapeOf(parameter, value);
  const name = encode(parameter.name);
  if (shape.kind === "scalar") return [`${name}=${encode(shape.value)}`];
  if (shape.kind === "array")
    return parameter.explode
      ? shape.items.map((item) => `${name}=${encode(item)}`)
      : [`${name}=${shape.items.map((item) => encode(item)).join(",")}`];
  return parameter.explode
    ? shape.entries.map(([key, item]) => `${encode(key)}=${encode(item)}`)
    : [`${name}=${shape.entries.flatMap(([key, item]) => [encode(key), encode(item)]).join(",")}`];
}
