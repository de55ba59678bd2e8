#!/usr/bin/env node
/**
 * A demo MCP server (official SDK, stdio) standing in for GitHub, Slack, a search engine,
 * Notion, an archive and a CI, so the tool-chaining examples run offline:
 *
 *   node demo-server.mjs <github|slack|search|notion|archive|ci>
 *
 * When DEMO_RECORD names a file, every call is appended to it as a JSON line
 * { server, tool, args } — how the tests see what reached each downstream tool.
 */
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const profile = process.argv[2] ?? "";
const server = new McpServer({ name: `demo-${profile}`, version: "1.0.0" });

function record(tool, args) {
  if (process.env.DEMO_RECORD) {
    appendFileSync(process.env.DEMO_RECORD, `${JSON.stringify({ server: profile, tool, args })}\n`);
  }
}

/** A tool whose answer is structured content (and the same as JSON text). */
function structured(value) {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

const profiles = {
  github() {
    server.registerTool(
      "create_or_update_file",
      {
        description: "Creates or updates a file in a repository and commits it",
        inputSchema: {
          owner: z.string(),
          repo: z.string(),
          path: z.string(),
          content: z.string(),
          message: z.string().optional(),
          dry_run: z.boolean().optional(),
        },
      },
      async (args) => {
        record("create_or_update_file", args);
        if (args.dry_run) return structured({ commit: null, dry_run: true, path: args.path });
        const sha = createHash("sha1").update(`${args.path}\n${args.content}`).digest("hex").slice(0, 12);
        return structured({
          commit: { sha, message: args.message ?? `update ${args.path}` },
          path: args.path,
        });
      },
    );
  },
  slack() {
    server.registerTool(
      "send_message",
      { description: "Posts a message to a channel", inputSchema: { channel: z.string(), text: z.string() } },
      async (args) => {
        record("send_message", args);
        return structured({ ok: true, channel: args.channel });
      },
    );
  },
  search() {
    server.registerTool(
      "elastic",
      { description: "Full-text search", inputSchema: { query: z.string() } },
      async (args) => {
        record("elastic", args);
        // Text content only: templates still walk into JSON text.
        const hits = [
          {
            title: `Hooks in depth: ${args.query}`,
            url: "https://docs.example/hooks",
            metadata: { tags: ["hooks", "agents"] },
          },
          { title: "Older post", url: "https://docs.example/old", metadata: { tags: [] } },
        ];
        return { content: [{ type: "text", text: JSON.stringify({ total: hits.length, hits }) }] };
      },
    );
  },
  notion() {
    server.registerTool(
      "page.create",
      {
        description: "Creates a page",
        inputSchema: { title: z.string(), url: z.string(), tags: z.string() },
      },
      async (args) => {
        record("page.create", args);
        return structured({ id: "page-1" });
      },
    );
  },
  archive() {
    server.registerTool(
      "log",
      {
        description: "Archives a record",
        inputSchema: { message: z.string(), payload: z.string(), note: z.string().optional() },
      },
      async (args) => {
        record("log", args);
        return structured({ archived: true });
      },
    );
  },
  ci() {
    server.registerTool(
      "trigger_build",
      { description: "Starts a build of a commit", inputSchema: { commit_sha: z.string() } },
      async (args) => {
        record("trigger_build", args);
        if (!args.commit_sha)
          return { isError: true, content: [{ type: "text", text: "no commit to build" }] };
        return structured({ build: 17, commit_sha: args.commit_sha });
      },
    );
  },
};

if (!profiles[profile]) {
  console.error(`usage: demo-server.mjs <${Object.keys(profiles).join("|")}>`);
  process.exit(2);
}
profiles[profile]();
await server.connect(new StdioServerTransport());
