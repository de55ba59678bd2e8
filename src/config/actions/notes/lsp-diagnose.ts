/**
 * `lsp_diagnose`: after a write-shaped tool, asks a language server for the
 * file's diagnostics (src/lsp), injects them into the tool result so the model can correct
 * itself, and publishes them on the notification bus. `tool_result` only.
 *
 * - The path is the first of `path_field` present in the tool's arguments (dotted paths
 *   allowed), resolved against `root` (templated; default the config's folder) and kept
 *   inside it: `..`, an absolute path elsewhere or a symlink out is refused and logged,
 *   nothing is read (workspace-file.ts). The text is
 *   the first of `content_field`, or the file read from disk when `read_from_disk`.
 * - Files no server handles (by extension; default typescript-language-server for
 *   .ts/.tsx/.js/.jsx/.mts/.cts/.mjs/.cjs, or `server:`) are skipped, as are failed calls.
 * - `inject_result` (default true: a transform) adds the problems at `min_severity` or worse
 *   (default warning) to the result — a note in `hook_notes` for structured results, text
 *   after the result otherwise (append-note.ts) — and nothing when there are none.
 * - `publish` (default true) sends every outcome, clean ones too, as a notification tagged
 *   `diagnostics` with `data: { path, diagnostics }`.
 * - A server that fails or times out is logged; the tool result goes through unchanged.
 */
// node:fs/promises at first use (`fs.promises`): loading it loads the streams and readline.
import { promises as fs } from "node:fs";
import { resolve } from "node:path";
import { z } from "../../../deps/zod.js";
import { flow } from "../../../hooks/flow.js";
import { atLeast, formatDiagnostics, severityName } from "../../../lsp/format-diagnostics.js";
import type { LanguageServerSpec } from "../../../lsp/language-server-spec.js";
import { workspaceFile } from "../../../lsp/workspace-file.js";
import { renderTemplate, walkPath } from "../../build/templates.js";
import { defineAction } from "../action-module.js";
import { appendNote } from "./append-note.js";

const description =
  "Runs LSP diagnostics on the file a tool wrote and shows them to the model (self-correction).";

const fieldList = () =>
  z
    .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
    .transform((value) => (typeof value === "string" ? [value] : value));

function firstString(params: unknown, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const value = walkPath(params, field.split("."));
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

export const lspDiagnose = defineAction({
  type: "lsp_diagnose",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("lsp_diagnose"),
        path_field: fieldList().default(["path", "file_path"]).describe("Argument names tried in order"),
        content_field: fieldList().default(["content"]).describe("Argument names holding the new text"),
        publish: z.boolean().default(true).describe('Publish on the notification bus (tag "diagnostics")'),
        inject_result: z.boolean().default(true).describe("Add the problems to the tool result"),
        read_from_disk: z.boolean().default(true).describe("Read the file when no content argument"),
        root: z.string().optional().describe("Folder relative paths resolve against; default the config's"),
        min_severity: z.enum(["error", "warning", "info", "hint"]).default("warning"),
        timeout: z.number().positive().default(30).describe("Seconds to wait for the diagnostics"),
        server: z
          .strictObject({
            command: z.string().min(1),
            args: z.array(z.string()).default([]),
            extensions: z.array(z.string().regex(/^\.\w+$/, 'an extension with its dot, e.g. ".py"')).min(1),
            language_id: z.string().optional(),
          })
          .optional()
          .describe("A stdio language server for these extensions (default: typescript-language-server)"),
      })
      .describe(description),
  events: ["tool_result"],
  kind: (config) => (config.inject_result ? "transform" : "inspect"),
  compile: (config, services) => {
    const server: LanguageServerSpec | undefined = config.server && {
      id: [config.server.command, ...config.server.args].join(" "),
      command: config.server.command,
      args: config.server.args,
      extensions: config.server.extensions,
      ...(config.server.language_id
        ? {
            languageIds: Object.fromEntries(
              config.server.extensions.map((extension) => [extension, config.server!.language_id!]),
            ),
          }
        : {}),
    };
    return async (evaluation) => {
      const hook = evaluation.hookId;
      const tool = evaluation.tool;
      if (!tool || tool.error !== undefined) return undefined;
      const path = firstString(tool.params, config.path_field);
      if (path === undefined) {
        services.log.debug(`hook "${hook}": no ${config.path_field.join(" / ")} argument; nothing to check`);
        return undefined;
      }
      const root = resolve(
        services.workspace,
        renderTemplate(config.root ?? ".", evaluation, services.workspace),
      );
      let text = firstString(tool.params, config.content_field);
      const servers = services.languageServers;
      try {
        if (!servers) throw new Error("no language servers are available (loadConfig provides them)");
        // Inside the root, or refused (and logged): the path is the model's choice.
        const file = await workspaceFile(root, path);
        if (!servers.specFor(file, server ? [server] : [])) {
          services.log.debug(`hook "${hook}": no language server for ${path}`);
          return undefined;
        }
        if (text === undefined && config.read_from_disk) text = await fs.readFile(file, "utf8");
        if (text === undefined) return undefined;
        const answer = await servers.diagnose(file, text, {
          timeoutMs: config.timeout * 1000,
          ...(server ? { server } : {}),
        });
        if (!answer) return undefined;
        const problems = atLeast(answer.diagnostics, config.min_severity);
        const summary = formatDiagnostics(path, problems);
        if (config.publish) {
          const worst = problems.map(severityName);
          services.notifications.publish({
            title: `diagnostics: ${path}`,
            message: summary,
            level: worst.includes("error") ? "error" : worst.includes("warning") ? "warning" : "info",
            tag: "diagnostics",
            hook,
            sessionId: evaluation.context.sessionId,
            runId: evaluation.context.runId,
            at: Date.now(),
            data: { path, server: answer.server, diagnostics: problems },
          });
        }
        if (!config.inject_result || problems.length === 0) return undefined;
        return flow.rewriteResult(appendNote(tool.result, `[LSP] ${summary}`));
      } catch (error) {
        services.log.warn(`hook "${hook}": diagnostics for ${path} failed: ${(error as Error).message}`, {
          hook,
        });
        return undefined;
      }
    };
  },
  example: {
    type: "lsp_diagnose",
    path_field: ["path", "file_path"],
    content_field: ["content"],
    publish: true,
    inject_result: true,
    read_from_disk: true,
    min_severity: "warning",
    timeout: 30,
  },
});
