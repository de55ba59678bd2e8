/**
 * Cross checks of `models:` the schema cannot express: the provider exists in the registry,
 * `openai-compatible` has a base_url, `options` holds no credentials (no key option, no
 * credential header), a `fallback` names a declared model and fallbacks do not loop. API
 * keys are not checked here: `validate` runs where keys may be absent; a missing key is
 * reported when the model is built.
 */
import { nearest } from "../../errors/nearest.js";
import { getProvider, providerNames } from "../../models/providers/index.js";
import type { ConfigFile } from "../schema/schema.js";
import { type IssueSink, report } from "./validate-hooks.js";

const CREDENTIAL_OPTIONS = new Set(["apiKey", "api_key", "authToken", "baseURL", "baseUrl", "base_url"]);

export function checkModels(sink: IssueSink, config: ConfigFile): void {
  const names = Object.keys(config.models);
  for (const [name, entry] of Object.entries(config.models)) {
    const provider = typeof entry === "string" ? entry.slice(0, entry.indexOf(":")) : entry.provider;
    const providerPath = typeof entry === "string" ? ["models", name] : ["models", name, "provider"];
    checkProvider(sink, provider, providerPath);
    if (typeof entry === "string") continue;
    if (getProvider(provider)?.requiresBaseUrl && entry.base_url === undefined) {
      report(sink, ["models", name], `provider ${provider} needs base_url, the server's address`, {
        expected: "base_url: http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM)…",
      });
    }
    for (const key of Object.keys(entry.options ?? {})) {
      if (!CREDENTIAL_OPTIONS.has(key)) continue;
      report(sink, ["models", name, "options", key], `options.${key} is not accepted here`, {
        expected: key.toLowerCase().includes("url")
          ? "base_url beside options"
          : "the key in an environment variable, named by api_key_env",
        key: true,
      });
    }
    checkCredentialHeaders(sink, name, provider, entry.options?.headers);
    if (entry.fallback !== undefined && !names.includes(entry.fallback)) {
      report(sink, ["models", name, "fallback"], `unknown fallback model "${entry.fallback}"`, {
        expected: `a model declared under models: (${names.join(", ")})`,
        suggestion: nearest(entry.fallback, names),
      });
    }
  }
  checkFallbackLoops(sink, config);
  config.agents.forEach((agent, index) => {
    const model = agent.model;
    if (model?.includes(":") && !names.includes(model)) {
      checkProvider(sink, model.slice(0, model.indexOf(":")), ["agents", index, "model"]);
    }
  });
}

/**
 * `options.headers` go to the provider as written: a credential there would sit in the file
 * (and in everything that prints the config). The key comes from the variable `api_key_env`
 * names, and the provider sends it in its own header. The value is never echoed.
 */
function checkCredentialHeaders(sink: IssueSink, model: string, provider: string, headers: unknown): void {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) return;
  const variable = getProvider(provider)?.apiKeyEnv ?? "MY_API_KEY";
  for (const [header, value] of Object.entries(headers)) {
    if (!isCredentialHeader(header, value)) continue;
    report(
      sink,
      ["models", model, "options", "headers", header],
      `options.headers.${header} holds a credential, which is not written in the config`,
      {
        expected: `the key in an environment variable, named by api_key_env (e.g. api_key_env: ${variable}): ${provider} sends it in its own authentication header`,
        key: true,
      },
    );
  }
}

/** Headers that carry credentials by name (`Authorization`, `x-api-key`, `x-auth-token`…) or by value (`Bearer …`). */
function isCredentialHeader(name: string, value: unknown): boolean {
  const lower = name.toLowerCase();
  if (CREDENTIAL_HEADERS.has(lower) || /api[-_]?key|token|secret|password|auth/.test(lower)) return true;
  return typeof value === "string" && /^\s*(bearer|basic)\s+\S/i.test(value);
}

const CREDENTIAL_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "x-api-key",
  "api-key",
]);

function checkProvider(sink: IssueSink, provider: string, path: (string | number)[]): void {
  if (getProvider(provider)) return;
  report(sink, path, `unknown model provider "${provider}"`, {
    expected: `one of ${providerNames().join(", ")}`,
    suggestion: nearest(provider, providerNames()),
  });
}

function checkFallbackLoops(sink: IssueSink, config: ConfigFile): void {
  const fallbackOf = (name: string) => {
    const entry = config.models[name];
    return typeof entry === "object" ? entry.fallback : undefined;
  };
  const reported = new Set<string>();
  for (const start of Object.keys(config.models)) {
    const chain = [start];
    let next = fallbackOf(start);
    while (next !== undefined && config.models[next] !== undefined) {
      if (chain.includes(next)) {
        if (!reported.has(next)) {
          chain.forEach((name) => void reported.add(name));
          report(sink, ["models", start, "fallback"], `fallbacks loop: ${[...chain, next].join(" → ")}`, {
            expected: "a chain of fallbacks that ends",
          });
        }
        break;
      }
      chain.push(next);
      next = fallbackOf(next);
    }
  }
}
