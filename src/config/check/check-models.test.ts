/** `models:` mistakes found at validation (before any key is read or request sent). */
import { describe, expect, it } from "vitest";
import { formatIssue } from "../source/config-error.js";
import { validateConfigText } from "./validate-config.js";

function errors(yaml: string): string[] {
  return validateConfigText(yaml, "m.yaml")
    .issues.filter((issue) => issue.severity === "error")
    .map(formatIssue);
}

describe("models: validation", () => {
  it.each([
    [
      "an unknown provider in a string",
      "models:\n  default: opnai:gpt-4.1\n",
      'm.yaml:2:12: models.default: unknown model provider "opnai"; expected one of openai, openai-chat, anthropic, google, openai-compatible, ollama, scripted; did you mean "openai"?',
    ],
    [
      "an unknown provider in an object",
      "models:\n  default: { provider: antropic, model: claude }\n",
      'm.yaml:2:24: models.default.provider: unknown model provider "antropic"; expected one of openai, openai-chat, anthropic, google, openai-compatible, ollama, scripted; did you mean "anthropic"?',
    ],
    [
      "openai-compatible without base_url",
      "models:\n  local: { provider: openai-compatible, model: qwen }\n",
      "m.yaml:2:10: models.local: provider openai-compatible needs base_url, the server's address; expected base_url: http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM)…",
    ],
    [
      "a key in options",
      "models:\n  default:\n    provider: openai\n    model: gpt\n    options: { apiKey: sk-123 }\n",
      "m.yaml:5:16: models.default.options.apiKey: options.apiKey is not accepted here; expected the key in an environment variable, named by api_key_env",
    ],
    [
      "a credential header in options",
      'models:\n  default: { provider: openai, model: gpt-4.1-mini, options: { headers: { Authorization: "Bearer sk-hdr-secret-777" } } }\n',
      "m.yaml:2:75: models.default.options.headers.Authorization: options.headers.Authorization holds a credential, which is not written in the config; expected the key in an environment variable, named by api_key_env (e.g. api_key_env: OPENAI_API_KEY): openai sends it in its own authentication header",
    ],
    [
      "an API key header in options, by its name",
      "models:\n  default:\n    provider: anthropic\n    model: claude\n    options:\n      headers: { x-api-key: abc, OpenAI-Beta: assistants=v2 }\n",
      "m.yaml:6:18: models.default.options.headers.x-api-key: options.headers.x-api-key holds a credential, which is not written in the config; expected the key in an environment variable, named by api_key_env (e.g. api_key_env: ANTHROPIC_API_KEY): anthropic sends it in its own authentication header",
    ],
    [
      "a bearer token under another header's name",
      'models:\n  local: { provider: openai-compatible, model: q, base_url: "http://127.0.0.1:8000/v1", options: { headers: { X-Gateway: "Bearer gw-123" } } }\n',
      "m.yaml:2:111: models.local.options.headers.X-Gateway: options.headers.X-Gateway holds a credential, which is not written in the config; expected the key in an environment variable, named by api_key_env (e.g. api_key_env: MY_API_KEY): openai-compatible sends it in its own authentication header",
    ],
    [
      "a key pasted into api_key_env",
      "models:\n  default: { provider: openai, model: gpt, api_key_env: sk-proj-123 }\n",
      "m.yaml:2:57: models.default.api_key_env: api_key_env is the NAME of an environment variable (e.g. MY_OPENAI_KEY), never the key itself",
    ],
    [
      "an unknown fallback",
      "models:\n  a: { provider: openai, model: gpt, fallback: bakup }\n  backup: openai:gpt-4.1-mini\n",
      'm.yaml:2:48: models.a.fallback: unknown fallback model "bakup"; expected a model declared under models: (a, backup); did you mean "backup"?',
    ],
    [
      "fallbacks that loop",
      "models:\n  a: { provider: openai, model: gpt, fallback: b }\n  b: { provider: openai, model: gpt, fallback: a }\n",
      "m.yaml:2:48: models.a.fallback: fallbacks loop: a → b → a; expected a chain of fallbacks that ends",
    ],
    [
      "a base_url that is not a URL",
      "models:\n  local: { provider: openai-compatible, model: q, base_url: localhost:8000 }\n",
      "m.yaml:2:61: models.local.base_url: base_url is an http(s) URL, e.g. http://127.0.0.1:11434/v1",
    ],
    [
      "an inline agent model with an unknown provider",
      "agents:\n  - id: a\n    model: gemini:flash\n",
      'm.yaml:3:12: agents[0].model: unknown model provider "gemini"; expected one of openai, openai-chat, anthropic, google, openai-compatible, ollama, scripted',
    ],
  ])("%s", (_name, yaml, message) => {
    expect(errors(yaml)).toEqual([message]);
  });

  it("accepts the good siblings, without reading any key", () => {
    const yaml = `models:
  default: { provider: openai, model: gpt-4.1-mini, max_retries: 3, fallback: local, options: { organization: org-1 } }
  local: { provider: openai-compatible, model: qwen2.5, base_url: "http://127.0.0.1:8000/v1", api_key_env: VLLM_KEY }
  claude: anthropic:claude-sonnet-4-5
agents:
  - id: a
    model: google:gemini-2.5-flash
`;
    expect(errors(yaml)).toEqual([]);
  });

  it("never echoes a credential header's value, and leaves other headers alone", () => {
    const { issues } = validateConfigText(
      'models:\n  default: { provider: openai, model: gpt-4.1-mini, options: { headers: { Authorization: "Bearer sk-hdr-secret-777", OpenAI-Beta: "assistants=v2" } } }\n',
      "m.yaml",
    );
    expect(issues).toHaveLength(1);
    expect(JSON.stringify(issues)).not.toContain("sk-hdr-secret-777");
    expect(
      errors(
        'models:\n  default: { provider: openai, model: gpt, options: { headers: { OpenAI-Beta: "v2" } } }\n',
      ),
    ).toEqual([]);
  });
});
