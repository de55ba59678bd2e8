#!/usr/bin/env node
/**
 * A small filesystem MCP server (official SDK, stdio) with the tool names and arguments of
 * @modelcontextprotocol/server-filesystem (read_file, write_file, edit_file,
 * create_directory, move_file, list_directory), confined to the folder given as its
 * argument — so this example runs offline. Put the real server
 * in its place with `command: npx`, `args: [-y, "@modelcontextprotocol/server-filesystem", "."]`.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const root = resolve(process.argv[2] ?? ".");
const server = new McpServer({ name: "demo-filesystem", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });

/** A path inside the root, or an error result. */
function inside(path) {
  const full = resolve(root, path);
  const rest = relative(root, full);
  if (rest.startsWith("..") || resolve(root, rest) !== full) throw new Error(`${path} is outside ${root}`);
  return full;
}

server.registerTool(
  "read_file",
  { description: "Read a file's text", inputSchema: { path: z.string() } },
  async ({ path }) => text(readFileSync(inside(path), "utf8")),
);
server.registerTool(
  "write_file",
  { description: "Create or overwrite a file", inputSchema: { path: z.string(), content: z.string() } },
  async ({ path, content }) => {
    const full = inside(path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    return text(`Successfully wrote to ${path}`);
  },
);
server.registerTool(
  "edit_file",
  {
    description: "Replace text in a file",
    inputSchema: { path: z.string(), edits: z.array(z.object({ oldText: z.string(), newText: z.string() })) },
  },
  async ({ path, edits }) => {
    const full = inside(path);
    let content = readFileSync(full, "utf8");
    for (const { oldText, newText } of edits) {
      if (!content.includes(oldText)) throw new Error(`${path} does not contain ${JSON.stringify(oldText)}`);
      content = content.replace(oldText, newText);
    }
    writeFileSync(full, content);
    return text(`Edited ${path}`);
  },
);
server.registerTool(
  "create_directory",
  { description: "Create a folder", inputSchema: { path: z.string() } },
  async ({ path }) => {
    mkdirSync(inside(path), { recursive: true });
    return text(`Successfully created directory ${path}`);
  },
);
server.registerTool(
  "move_file",
  { description: "Move or rename a file", inputSchema: { source: z.string(), destination: z.string() } },
  async ({ source, destination }) => {
    renameSync(inside(source), inside(destination));
    return text(`Successfully moved ${source} to ${destination}`);
  },
);
server.registerTool(
  "list_directory",
  { description: "List a folder", inputSchema: { path: z.string() } },
  async ({ path }) =>
    text(
      readdirSync(inside(path), { withFileTypes: true })
        .map((entry) => `${entry.isDirectory() ? "[DIR]" : "[FILE]"} ${entry.name}`)
        .join("\n"),
    ),
);
await server.connect(new StdioServerTransport());
