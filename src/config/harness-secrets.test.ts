import { describe, expect, it } from "vitest";
import { harnessSecretMask } from "./harness-secrets.js";

describe("harnessSecretMask", () => {
  const env = {
    DEPLOY_HOOK_URL: "https://hooks.example.test/abc123def456",
    GITHUB_TOKEN: "ghp_0123456789abcdefghij",
    HOME_PAGE: "https://example.test/not-referenced-here",
  };
  const config = {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
    runtime: { notify: [{ url: "${DEPLOY_HOOK_URL}", text: "plain text, no variable" }] },
    note: "$DEPLOY_HOOK_URL is written without braces here",
  };

  it("masks the variables the config refers to and credential-named variables, nothing else", () => {
    const mask = harnessSecretMask(config, env);
    const kept = JSON.stringify(
      mask({ command: `curl ${env.DEPLOY_HOOK_URL} -H "token ${env.GITHUB_TOKEN}" ${env.HOME_PAGE}` }),
    );
    expect(kept).not.toContain(env.DEPLOY_HOOK_URL);
    expect(kept).not.toContain(env.GITHUB_TOKEN);
    expect(kept).toContain(env.HOME_PAGE);
  });

  it("masks a variable referred to in a string among others (a list, a nested value)", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${VAR} is the config syntax under test
    const mask = harnessSecretMask({ a: [1, null, { b: ["x", "Bearer ${HOME_PAGE}"] }] }, env);
    expect(JSON.stringify(mask({ text: env.HOME_PAGE }))).not.toContain(env.HOME_PAGE);
  });
});
