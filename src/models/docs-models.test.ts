/** docs/models.md stays true: its YAML validates, its quoted messages are the real ones. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfigText } from "../config/check/validate-config.js";
import { formatIssue } from "../config/source/config-error.js";
import { createModel } from "./create-model.js";
import { ModelError } from "./model-error.js";
import { providerNames } from "./providers/index.js";

const doc = readFileSync(join(import.meta.dirname, "../../docs/models.md"), "utf8");
// Blocks marked `<!-- fragment -->` (a model script, not a config) are not configs.
const yamlBlocks = [...doc.matchAll(/(<!-- fragment -->\n)?```yaml\n([\s\S]*?)```/g)]
  .filter((match) => match[1] === undefined)
  .map((match) => match[2]!);

describe("docs/models.md", () => {
  it("has YAML examples, and each one validates", () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(3);
    for (const yaml of yamlBlocks) {
      const errors = validateConfigText(yaml, "docs/models.md")
        .issues.filter((issue) => issue.severity === "error")
        .map(formatIssue);
      expect(errors).toEqual([]);
    }
  });

  it("lists every registered provider", () => {
    for (const name of providerNames()) expect(doc).toContain(`| \`${name}\` |`);
  });

  it("quotes the real missing-key and model-error messages", () => {
    let missing = "";
    try {
      createModel("openai:gpt-4.1-mini", { env: {}, where: "models.default" });
    } catch (error) {
      missing = (error as Error).message;
    }
    expect(doc).toContain(`hookwise: ${missing}\n`);
    const failed = new ModelError({
      provider: "openai.chat",
      modelId: "gpt-4.1-mini",
      errorType: "auth",
      status: 401,
      code: "invalid_api_key",
      attempts: 1,
      message: "Incorrect API key provided",
    });
    expect(doc).toContain(`\`${failed.message}\``);
  });
});
