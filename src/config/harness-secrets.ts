/**
 * What a process answering a coding-agent harness's hook events masks before it keeps an
 * event. The harness hands over what its agent typed — a shell command may quote an API key
 * — and every event is kept in the config's store (often a Redis the whole team reads),
 * shown by `history`, `trace` and `hookwise serve`, and posted to the approval inbox. Masked:
 * the values of the variables the config refers to as `${VAR}`, of every variable of the
 * environment whose name says it holds a credential (`GITHUB_TOKEN`, `ANTHROPIC_API_KEY`…),
 * the password of `HOOKWISE_STATE_URL`, and the secrets registered in the process. Only what is kept:
 * decisions are taken, and answers given (a rewritten command the harness runs), on the
 * call as it is.
 */
import { environmentSecrets } from "../secrets/environment-secrets.js";
import { type Secret, secretMasker } from "../secrets/secret-masker.js";
import { maskSecretsIn, SHORTEST_SECRET } from "../secrets/secret-registry.js";
import { envReferences } from "../tools/expand-env.js";

export type ValueMask = <T>(value: T) => T;

export function harnessSecretMask(config: unknown, env: NodeJS.ProcessEnv = process.env): ValueMask {
  const secrets: Secret[] = environmentSecrets(env);
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      // Most of a config's strings refer to no variable (every reference holds "${").
      if (!value.includes("${")) return;
      for (const name of envReferences(value)) {
        const found = env[name];
        if (found !== undefined && found.length >= SHORTEST_SECRET) secrets.push({ value: found, name });
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  };
  visit(config);
  const password = urlPassword(env.HOOKWISE_STATE_URL);
  if (password.length >= SHORTEST_SECRET) secrets.push({ value: password, name: "Redis password" });
  // Built at the first value masked: an event that keeps nothing pays nothing.
  let masker: ReturnType<typeof secretMasker> | undefined;
  return <T>(value: T): T => {
    masker ??= secretMasker(secrets);
    return maskSecretsIn(masker.value(value));
  };
}

/** The password a state URL holds, decoded ("" when none). */
function urlPassword(url: string | undefined): string {
  if (!url) return "";
  try {
    return decodeURIComponent(new URL(url.trim()).password);
  } catch {
    return "";
  }
}
