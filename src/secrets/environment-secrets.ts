/**
 * Credentials a process holds by the name of the variable they are in (`GITHUB_TOKEN`,
 * `OPENAI_API_KEY`, `DB_PASSWORD`…): what a process that keeps what it is handed from
 * outside — a harness's hook events, whose commands may quote a key — masks before it keeps
 * it, and what the server holds back from every response.
 */
import type { Secret } from "./secret-masker.js";
import { SHORTEST_SECRET } from "./secret-registry.js";

/** A variable whose name says it holds a credential. */
export const SECRET_VARIABLE = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_?KEY|ACCESS_?KEY)/i;

/** The value of every variable of `env` whose name says it holds a credential, named by it. */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): Secret[] {
  const found: Secret[] = [];
  // Names first: reading a value of process.env is a call into the process's environment,
  // paid here only for the few names that say they hold a credential.
  for (const name of Object.keys(env)) {
    if (!SECRET_VARIABLE.test(name)) continue;
    const value = env[name];
    if (value !== undefined && value.length >= SHORTEST_SECRET) found.push({ value, name });
  }
  return found;
}
