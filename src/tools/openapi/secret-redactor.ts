/**
 * Removes credentials from what an OpenAPI toolset returns or throws: a server that echoes
 * the Authorization header (or the API key of the query) in its body must not put the
 * secret into the transcript, the trace, a log or `--json` output. Each secret is replaced
 * as sent, percent-encoded and JSON-escaped, longest first.
 */
export interface Redactor {
  text(value: string): string;
  /** A parsed JSON value with every string (keys included) redacted. */
  value(value: unknown): unknown;
}

export const REDACTED = "[redacted]";

export function secretRedactor(secrets: readonly string[]): Redactor {
  const forms = [
    ...new Set(
      secrets
        .filter((secret) => secret.length > 0)
        .flatMap((secret) => [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]),
    ),
  ].sort((a, b) => b.length - a.length);
  const text = (value: string): string => {
    let out = value;
    for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [text(key), walk(item)]));
    return value;
  };
  return { text: forms.length ? text : (value) => value, value: forms.length ? walk : (value) => value };
}
