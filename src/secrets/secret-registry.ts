/**
 * The values hookwise was given as secrets, for the whole process: the API keys models
 * read, and every value a toolset's settings took from the environment as `${VAR}` (MCP
 * commands, arguments, env, URLs and headers; OpenAPI credentials and headers). They are
 * registered where they are read, and masked — in every spelling (secret-forms.ts) — where
 * anything enters a run from outside (a model's answer, a tool's result or error) and where
 * anything leaves the process (the CLI's output, the server's responses). Whatever is stored,
 * traced, printed or returned was masked on its way in.
 */
import { type SecretMasker, secretMasker } from "./secret-masker.js";

/**
 * Below this length a value is nobody's key (theirs run to dozens of characters), and
 * masking it would garble every text that happens to contain those letters (a port, "true").
 */
export const SHORTEST_SECRET = 8;

const SECRETS = new Map<string, string | undefined>();
let masker: SecretMasker | undefined;

/** Remembers a value to mask from now on, named in its marker (`[redacted NAME]`). */
export function registerSecret(value: string, name?: string): void {
  if (value.length < SHORTEST_SECRET || SECRETS.has(value)) return;
  SECRETS.set(value, name);
  masker = undefined;
}

/** Whether any secret is registered (masking is skipped while none is). */
export function hasSecrets(): boolean {
  return SECRETS.size > 0;
}

function current(): SecretMasker {
  masker ??= secretMasker([...SECRETS].map(([value, name]) => ({ value, name })));
  return masker;
}

/** Every registered spelling, lower-cased (a streamed text holds back what could begin one). */
export function registeredSecrets(): readonly string[] {
  return SECRETS.size === 0 ? [] : current().forms;
}

/** `text` with every registered secret, in every spelling, replaced by `[redacted NAME]`. */
export function maskSecrets(text: string): string {
  return SECRETS.size === 0 ? text : current().text(text);
}

/**
 * `value` with every registered secret masked in every string it holds, object keys too:
 * a copy where something changed, the value itself otherwise; an error is masked in place.
 */
export function maskSecretsIn<T>(value: T): T {
  return SECRETS.size === 0 ? value : current().value(value);
}
