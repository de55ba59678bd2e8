/**
 * examples/mcp-gateway as docs/mcp.md describes it: an MCP client lists the filesystem
 * server's tools through the gateway, a write inside notes/ runs (stamped by the hook), one
 * outside is refused with the reason and never reaches the server. The MCP Inspector's
 * command line does the same when one is at hand (`HOOKWISE_INSPECTOR_CLI`: the path of
 * its cli.js; the current Inspector needs Node 22.19 or later).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, textOf } from "./gateway-fixture.js";

const ROOT = resolve(import.meta.dirname, "../..");

describe("examples/mcp-gateway behind hookwise mcp", () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "hookwise-example-gateway-"));
    cpSync(join(ROOT, "examples/mcp-gateway"), dir, { recursive: true });
    // The example's server imports the MCP SDK, as it would from the user's project.
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
    client = new Client({ name: "example-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...CLI, "mcp", "hookwise.yaml"],
        cwd: dir,
        stderr: "pipe",
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the filesystem tools by the names the docs give", async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(["fs_list_directory", "fs_read_file", "fs_write_file"]);
  });

  it("runs a write inside notes/, through the stamp hook", async () => {
    const result = await client.callTool({
      name: "fs_write_file",
      arguments: { path: "notes/plan.md", content: "Ship on Friday." },
    });
    expect(result.isError).toBeFalsy();
    expect(readFileSync(join(dir, "notes/plan.md"), "utf8")).toBe(
      "Ship on Friday.\n(written through hookwise)",
    );
  });

  it("refuses a write outside notes/ with the reason, and the server never sees it", async () => {
    const result = await client.callTool({
      name: "fs_write_file",
      arguments: { path: "plan.md", content: "Ship on Friday." },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'tool "fs.write_file" was denied by hook "policy": writes are allowed only inside notes/',
    );
    expect(existsSync(join(dir, "plan.md"))).toBe(false);
  });
});

const inspector = process.env.HOOKWISE_INSPECTOR_CLI;

describe.skipIf(!inspector)("the MCP Inspector's command line against hookwise mcp", () => {
  it("lists the tools and is refused a write outside notes/", () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-example-inspector-"));
    try {
      cpSync(join(ROOT, "examples/mcp-gateway"), dir, { recursive: true });
      symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
      const gateway = [process.execPath, ...CLI, "mcp", join(dir, "hookwise.yaml")];
      // The Inspector finds its own package.json from its folder.
      const run = (...args: string[]) =>
        spawnSync(process.execPath, [inspector!, "--cli", ...gateway, ...args], {
          cwd: dirname(inspector!),
          encoding: "utf8",
          timeout: 60_000,
        });
      const listed = run("--method", "tools/list");
      expect(listed.status).toBe(0);
      expect(listed.stdout).toContain('"fs_write_file"');
      const refused = run(
        "--method",
        "tools/call",
        "--tool-name",
        "fs_write_file",
        "--tool-arg",
        "path=plan.md",
        "--tool-arg",
        "content=hi",
      );
      expect(refused.stdout).toContain("writes are allowed only inside notes/");
      expect(refused.stdout).toContain('"isError": true');
      expect(existsSync(join(dir, "plan.md"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
