/**
 * The secrets of a process that answers a coding-agent harness's hook events. The harness
 * hands over what its agent typed — a shell command may quote an API key — and every event
 * is kept in the config's store (often a Redis the whole team reads), shown by `history`,
 * `trace` and `hookwise serve`, and printed by `log` actions. Registered here, before the
 * event is recorded: the values of the variables the config refers to as `${VAR}`, and of
 * every variable of the environment whose name says it holds a credential (`GITHUB_TOKEN`,
 * `ANTHROPIC_API_KEY`…). Decisions are taken on the call as it is; only what is kept,
 * printed or traced is masked.
 */
import { registerEnvironmentSecrets } from "../secrets/environment-secrets.js";
import { registerSecret } from "../secrets/secret-registry.js";
import { envReferences } from "../tools/expand-env.js";

export function registerHarnessSecrets(config: unknown, env: NodeJS.ProcessEnv = process.env): void {
  registerEnvironmentSecrets(env);
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      for (const name of envReferences(value)) {
        const found = env[name];
        if (found) registerSecret(found, name);
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  };
  visit(config);
}
