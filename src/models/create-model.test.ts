import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  createModel,
  HookwiseError,
  MissingApiKeyError,
  ModelSpecError,
  modelSettings,
  parseModelString,
  providerNames,
  registerProvider,
  scriptedModel,
  withModelSettings,
} from "../index.js";
import { ollamaBaseUrl } from "./providers/ollama.js";

const env = {
  OPENAI_API_KEY: "sk-openai",
  ANTHROPIC_API_KEY: "sk-ant",
  GOOGLE_GENERATIVE_AI_API_KEY: "g-key",
};

const dir = mkdtempSync(join(tmpdir(), "hookwise-models-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("createModel: strings and objects", () => {
  it.each([
    ["openai:gpt-4.1-mini", "openai.responses", "gpt-4.1-mini"],
    ["openai-chat:gpt-4.1-mini", "openai.chat", "gpt-4.1-mini"],
    ["anthropic:claude-sonnet-4-5", "anthropic.messages", "claude-sonnet-4-5"],
    ["google:gemini-2.5-flash", "google.generative-ai", "gemini-2.5-flash"],
    ["ollama:llama3.2", "ollama.chat", "llama3.2"],
    // Only the first colon splits: model ids may hold colons (Ollama tags).
    ["ollama:qwen2.5:7b", "ollama.chat", "qwen2.5:7b"],
  ])("%s → a %s model", (spec, provider, modelId) => {
    const model = createModel(spec, { env });
    expect(model.specificationVersion).toBe("v3");
    expect(model.provider).toBe(provider);
    expect(model.modelId).toBe(modelId);
  });

  it("an openai-compatible object needs base_url; it needs no key unless apiKeyEnv names one", () => {
    const model = createModel(
      { provider: "openai-compatible", model: "qwen", baseUrl: "http://127.0.0.1:8000/v1" },
      { env: {} },
    );
    expect(model.provider).toBe("openai-compatible.chat");
    expect(
      thrown(() => createModel({ provider: "openai-compatible", model: "qwen" }, { where: "models.local" }))
        .message,
    ).toBe(
      "models.local: provider openai-compatible needs base_url, the server's address (e.g. http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8000/v1 for vLLM)",
    );
    const keyed = thrown(() =>
      createModel(
        {
          provider: "openai-compatible",
          model: "qwen",
          baseUrl: "http://127.0.0.1:8000/v1",
          apiKeyEnv: "VLLM_KEY",
        },
        { env: {} },
      ),
    );
    expect(MissingApiKeyError.isInstance(keyed)).toBe(true);
    expect(keyed.message).toBe(
      "openai-compatible needs an API key: set the environment variable VLLM_KEY (named by api_key_env)",
    );
  });

  it("scripted:<file> resolves against baseDir", () => {
    writeFileSync(join(dir, "s.yaml"), "- text: hi\n");
    const model = createModel("scripted:./s.yaml", { baseDir: dir });
    expect(model.provider).toBe("scripted");
  });

  it("ollama's address: base_url, else OLLAMA_HOST (host:port or URL), else 127.0.0.1:11434", () => {
    expect(ollamaBaseUrl(undefined)).toBe("http://127.0.0.1:11434/v1");
    expect(ollamaBaseUrl("0.0.0.0:11500")).toBe("http://0.0.0.0:11500/v1");
    expect(ollamaBaseUrl("https://ollama.internal/")).toBe("https://ollama.internal/v1");
  });
});

describe("createModel: keys come only from the environment", () => {
  it.each([
    ["openai:gpt-4.1-mini", "OPENAI_API_KEY"],
    ["openai-chat:gpt-4.1-mini", "OPENAI_API_KEY"],
    ["anthropic:claude-sonnet-4-5", "ANTHROPIC_API_KEY"],
    ["google:gemini-2.5-flash", "GOOGLE_GENERATIVE_AI_API_KEY"],
  ])("%s without %s: MissingApiKeyError naming the variable", (spec, variable) => {
    const error = thrown(() => createModel(spec, { env: { [variable]: "   " }, where: "models.default" }));
    expect(error).toBeInstanceOf(MissingApiKeyError);
    expect(HookwiseError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ variable, provider: spec.slice(0, spec.indexOf(":")) });
    expect(error.message).toBe(
      `models.default: ${spec.slice(0, spec.indexOf(":"))} needs an API key: set the environment variable ${variable} (or name another variable with api_key_env)`,
    );
  });

  it("api_key_env names another variable", () => {
    expect(() =>
      createModel(
        { provider: "anthropic", model: "claude", apiKeyEnv: "TEAM_ANTHROPIC_KEY" },
        { env: { TEAM_ANTHROPIC_KEY: "k" } },
      ),
    ).not.toThrow();
    expect(() =>
      createModel({ provider: "anthropic", model: "claude", apiKeyEnv: "TEAM_ANTHROPIC_KEY" }, { env }),
    ).toThrow("set the environment variable TEAM_ANTHROPIC_KEY (named by api_key_env)");
  });

  it("a key pasted into api_key_env or options is refused without echoing it", () => {
    const pasted = thrown(() =>
      createModel({ provider: "openai", model: "gpt", apiKeyEnv: "sk-proj-secret123" }, { env }),
    );
    expect(pasted.message).toContain("api_key_env must name an environment variable");
    expect(pasted.message).not.toContain("secret123");
    const inOptions = thrown(() =>
      createModel({ provider: "openai", model: "gpt", options: { apiKey: "sk-proj-secret123" } }, { env }),
    );
    expect(ModelSpecError.isInstance(inOptions)).toBe(true);
    expect(inOptions.message).toBe(
      "options.apiKey is not accepted: put the key in an environment variable and name it with api_key_env",
    );
    expect(inOptions.message).not.toContain("secret123");
  });
});

describe("createModel: mistakes", () => {
  it("an unknown provider lists the providers and the nearest one", () => {
    expect(thrown(() => createModel("antropic:claude", { env })).message).toBe(
      `unknown model provider "antropic" (providers: ${providerNames().join(", ")}); did you mean "anthropic"?`,
    );
  });

  it("a string without provider or model id", () => {
    expect(() => parseModelString("gpt-4")).toThrow(/a model string is "provider:model-id"/);
    expect(() => parseModelString("openai:")).toThrow(ModelSpecError);
    expect(() => parseModelString(":gpt")).toThrow(ModelSpecError);
  });
});

describe("model settings and the registry", () => {
  it("maxRetries and fallback travel with the model; a fallback spec is built now (its key checked now)", () => {
    const model = createModel(
      {
        provider: "openai",
        model: "gpt-4.1",
        maxRetries: 4,
        fallback: "anthropic:claude-haiku-4-5",
        contextWindow: 1000,
      },
      { env },
    );
    const settings = modelSettings(model);
    expect(settings.maxRetries).toBe(4);
    expect(settings.contextWindow).toBe(1000);
    expect(settings.fallback).toMatchObject({ provider: "anthropic.messages", modelId: "claude-haiku-4-5" });
    expect(() =>
      createModel(
        { provider: "openai", model: "gpt-4.1", fallback: "anthropic:claude" },
        { env: { OPENAI_API_KEY: "k" } },
      ),
    ).toThrow("model.fallback: anthropic needs an API key: set the environment variable ANTHROPIC_API_KEY");
  });

  it("withModelSettings merges, keeps the model object, and checks maxRetries", () => {
    const model = scriptedModel([]);
    expect(withModelSettings(model, { maxRetries: 0 })).toBe(model);
    withModelSettings(model, { fallback: "backup" });
    expect(modelSettings(model)).toEqual({ maxRetries: 0, fallback: "backup" });
    expect(() => withModelSettings(model, { maxRetries: -1 })).toThrow(/maxRetries must be an integer ≥ 0/);
    expect(modelSettings(scriptedModel([]))).toEqual({});
  });

  it("registerProvider adds a provider; its disposer removes it", () => {
    const dispose = registerProvider({
      name: "echo",
      description: "test provider",
      package: "test",
      create: ({ modelId }) => scriptedModel([{ text: modelId }], { modelId }),
    });
    expect(createModel("echo:hello").modelId).toBe("hello");
    dispose();
    expect(() => createModel("echo:hello")).toThrow(/unknown model provider "echo"/);
  });
});
