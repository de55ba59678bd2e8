/**
 * `hookwise validate <file>`: exit 0, or 2 listing every error; warnings never fail. The
 * toolsets it can build without starting anything (OpenAPI documents) are built too, and
 * their tools listed. A config guarding harnesses is checked against the entries `hookwise setup`
 * wrote for it: events it now needs and they miss are warned of.
 */
import { dirname, resolve } from "node:path";
import { checkReferences, toolCatalogue } from "../../config/check/check-references.js";
import { checkToolsets, type ToolsetListing } from "../../config/check/check-toolsets.js";
import { harnessesOf } from "../../config/check/harness-tools-of.js";
import { validateConfigText } from "../../config/check/validate-config.js";
import { type ConfigIssue, type ConfigPath, formatIssue } from "../../config/source/config-error.js";
import { readConfigFile } from "../../config/source/read-config-file.js";
import { positionOf } from "../../config/source/source-map.js";
import { checkClaudeMatchers } from "../../harnesses/claude/hooks/settings/check-claude-matchers.js";
import { LanguageServers } from "../../lsp/language-servers.js";
import { lspToolset } from "../../lsp/lsp-toolset.js";
import { checkModels } from "../check-models.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";

export interface ValidateCommandOptions {
  /** `--model` (or `HOOKWISE_MODEL`): the model `run --model` would give agents that name none. */
  model?: string;
}

export async function validateCommand(
  path: string,
  io: CliIO,
  options: ValidateCommandOptions = {},
): Promise<number> {
  const text = readConfigFile(path);
  const { issues, validated, source } = validateConfigText(text, path);
  let listings: ToolsetListing[] = [];
  if (validated) {
    const dir = dirname(resolve(path));
    const configSource = { file: path, positionOf: (at: ConfigPath) => positionOf(source, at) };
    const checked = await checkToolsets(validated.config, dir, configSource);
    issues.push(...checked.issues);
    listings = checked.listings;
    // What `run` would refuse: references to tools that do not exist, an agent without a model.
    const implicitLsp = validated.config.toolsets.lsp
      ? []
      : lspToolset(new LanguageServers({ root: dir })).tools;
    const catalogue = toolCatalogue(validated.config, checked.tools, checked.pending, implicitLsp);
    // An empty HOOKWISE_MODEL gives no model, as for run.
    const model = options.model || undefined;
    if (model !== undefined) {
      // The model run would use, checked as run checks it (a mistake in it is a usage error).
      const { overrideModel } = await import("../model-override.js");
      try {
        overrideModel(validated.config.models, dir, model);
      } catch (error) {
        if (error instanceof UsageError) throw error;
        const message = (error as Error).message;
        throw new UsageError(message.startsWith("--model:") ? message : `--model: ${message}`);
      }
    }
    issues.push(...checkModels(validated.config.models, configSource));
    issues.push(
      ...checkReferences(validated.config, dir, configSource, catalogue, {
        modelGiven: model !== undefined,
      }),
    );
    if (checked.pending.length === 0)
      issues.push(...checkClaudeMatchers(validated.claudeSettings, dir, catalogue.tools));
    // Harness settings files whose setup entries miss events the config now needs.
    const harnesses = harnessesOf(validated.config);
    if (harnesses.length && !issues.some((issue) => issue.severity === "error")) {
      const { checkSetup } = await import("../check-setup.js");
      issues.push(...(await checkSetup(harnesses, configSource)));
    }
    issues.sort(
      (a, b) => Number(a.file !== path) - Number(b.file !== path) || a.line - b.line || a.column - b.column,
    );
  }
  return report(path, issues, listings, io);
}

function report(
  path: string,
  issues: readonly ConfigIssue[],
  listings: readonly ToolsetListing[],
  io: CliIO,
): number {
  const errors = issues.filter((issue) => issue.severity === "error");
  for (const issue of issues) (issue.severity === "error" ? io.stderr : io.stdout).line(formatIssue(issue));
  if (errors.length) {
    io.stderr.line(`${path}: ${errors.length} error${errors.length === 1 ? "" : "s"}`);
    return 2;
  }
  for (const listing of listings) {
    io.stdout.line(
      `toolsets.${listing.toolset} (${listing.kind}): ${listing.tools.length} tool${listing.tools.length === 1 ? "" : "s"}`,
    );
    const width = Math.max(0, ...listing.tools.map((tool) => tool.qualifiedName.length));
    for (const tool of listing.tools) {
      const detail = [tool.endpoint, tool.description].filter(Boolean).join("  ");
      io.stdout.line(`  ${tool.qualifiedName.padEnd(width)}  ${detail}`.trimEnd());
    }
  }
  const warnings = issues.length - errors.length;
  io.stdout.line(`${path}: valid${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`);
  return 0;
}
