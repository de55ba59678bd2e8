/**
 * The `lsp` toolset: language-server diagnostics as tools, so
 * `module_action_inject { module: lsp, action: diagnostics }` and `pipe { to:
 * lsp.notify_change }` work as written. Config actions reach it through `callTool` unless
 * the config declares its own toolset named `lsp`; agents do not get it as a tool.
 *
 * Both tools take `{ path, content?, min_severity? }` (no content: the file on disk; the
 * path stays inside the root, see workspace-file.ts) and
 * answer `{ path, diagnostics, summary }`: `diagnostics` lists problems at `min_severity`
 * (default warning) or worse; `summary` is the text a model reads.
 */
import { readFile } from "node:fs/promises";
import { z } from "../deps/zod.js";
import { resolveTool } from "../tools/resolved-tool.js";
import { tool } from "../tools/tool.js";
import type { Toolset } from "../tools/toolset.js";
import { atLeast, formatDiagnostics } from "./format-diagnostics.js";
import type { LanguageServers } from "./language-servers.js";
import { workspaceFile } from "./workspace-file.js";

export function lspToolset(servers: LanguageServers, name = "lsp"): Toolset {
  const diagnose = tool({
    description: "Language-server diagnostics (errors, warnings) for a file, with new content or as on disk.",
    inputSchema: z.object({
      path: z.string().min(1),
      content: z.string().optional(),
      min_severity: z.enum(["error", "warning", "info", "hint"]).default("warning"),
    }),
    async execute({ path, content, min_severity: minimum }) {
      const file = await workspaceFile(servers.root, path);
      const none = { path, diagnostics: [], summary: `no language server handles ${path}` };
      // Only a file some server handles is read: a path to notes.env is never opened.
      if (!servers.specFor(file)) return none;
      const text = content ?? (await readFile(file, "utf8"));
      const answer = await servers.diagnose(file, text);
      if (!answer) return none;
      const diagnostics = atLeast(answer.diagnostics, minimum);
      return { path, diagnostics, summary: formatDiagnostics(path, diagnostics) };
    },
  });
  return {
    name,
    tools: [
      resolveTool("diagnostics", diagnose, { toolset: name }),
      resolveTool("notify_change", diagnose, { toolset: name }),
    ],
    close: async () => {},
  };
}
