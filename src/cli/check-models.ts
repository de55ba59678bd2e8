/**
 * What `validate` says of a config's models that `run` would refuse before any request: a
 * provider whose package is not installed. A missing API key is not checked here:
 * validation often runs where the keys are not (CI); `run` refuses it when the model is built.
 */

import type { ConfigFile } from "../config/schema/schema.js";
import type { ConfigIssue, ConfigPath } from "../config/source/config-error.js";
import { assertInstalled, MissingPackageError } from "../errors/optional-package.js";
import { getProvider } from "../models/providers/index.js";

export function checkModels(
  models: ConfigFile["models"],
  source: { file: string; positionOf(path: ConfigPath): { line: number; column: number } },
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const [name, entry] of Object.entries(models)) {
    const providerName = typeof entry === "string" ? entry.slice(0, entry.indexOf(":")) : entry.provider;
    const provider = getProvider(providerName);
    if (!provider || provider.package === "hookwise") continue;
    const path: ConfigPath = ["models", name];
    const at = { file: source.file, ...source.positionOf(path), path };
    try {
      assertInstalled(provider.package, `The ${provider.name} provider`);
    } catch (error) {
      if (!MissingPackageError.isInstance(error)) throw error;
      issues.push({
        ...at,
        severity: "error",
        message: `the ${provider.name} provider needs the package ${provider.package}, which is not installed`,
        expected: `npm install ${provider.package}`,
      });
    }
  }
  return issues;
}
