/**
 * Removes credentials from what an OpenAPI toolset returns or throws: a server that echoes
 * the Authorization header (or the API key of the query) in its body must not put the
 * secret into the transcript, the trace, a log or `--json` output. Each secret is replaced
 * in every spelling (as sent, percent-encoded, JSON-escaped, base64, in any case), and so is
 * every secret registered for the process (secrets/secret-registry.ts).
 */
import { secretMasker } from "../../../secrets/secret-masker.js";
import { maskSecrets, maskSecretsIn } from "../../../secrets/secret-registry.js";

export interface Redactor {
  text(value: string): string;
  /** A parsed JSON value with every string (keys included) redacted. */
  value(value: unknown): unknown;
}

export const REDACTED = "[redacted]";

export function secretRedactor(secrets: readonly string[]): Redactor {
  const masker = secretMasker(secrets.map((value) => ({ value })));
  return {
    text: (value) => maskSecrets(masker.text(value)),
    value: (value) => maskSecretsIn(masker.value(value)),
  };
}
