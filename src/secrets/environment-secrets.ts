/**
 * Credentials a process holds by the name of the variable they are in (`GITHUB_TOKEN`,
 * `OPENAI_API_KEY`, `DB_PASSWORD`…). A process that keeps what it is handed from outside —
 * a coding-agent harness's hook events, whose commands may quote a key — registers them as
 * secrets, so they are masked before anything is stored, printed or traced.
 */
import { registerSecret } from "./secret-registry.js";

/** A variable whose name says it holds a credential. */
export const SECRET_VARIABLE = /(API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_?KEY|ACCESS_?KEY)/i;

/** Registers the value of every variable of `env` whose name says it holds a credential. */
export function registerEnvironmentSecrets(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && SECRET_VARIABLE.test(name)) registerSecret(value, name);
  }
}
