/**
 * Upstream MCP servers behind the gateway: their progress reaches a client that asked for
 * it; a client's cancellation reaches them; when their tool list changes the gateway lists it again, builds the agent with the
 * new tools, and tells its client (`notifications/tools/list_changed`); the new tool is then
 * listed and callable through the config.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { CLI, eventually, textOf } from "./gateway-fixture.js";

it("forwards upstream progress and cancellations, and tells the client when an upstream MCP server's tool list changed, and serves the new tool", async () => {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-gateway-changed-"));
  const server = join(import.meta.dirname, "fixtures/changing-server.mjs");
  const mark = join(dir, "hang-cancelled.txt");
  writeFileSync(
    join(dir, "gateway.yaml"),
    `toolsets:\n  dyn: { kind: mcp, command: node, args: [${JSON.stringify(server)}], env: { MARK_FILE: ${JSON.stringify(mark)} } }\nagents:\n  - id: gate\n    tools: [dyn.*]\n`,
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, "mcp", join(dir, "gateway.yaml")],
    cwd: dir,
    stderr: "pipe",
  });
  const client = new Client({ name: "changed-test", version: "1.0.0" });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++;
  });
  try {
    await client.connect(transport);
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const stepped = await client.callTool({ name: "dyn_steps", arguments: {} }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    expect(textOf(stepped)).toBe("done");
    expect(progress).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    // A cancelled call is cancelled upstream too.
    const controller = new AbortController();
    const hanging = client.callTool({ name: "dyn_hang", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort("enough"), 500);
    await expect(hanging).rejects.toThrow();
    await eventually(() => existsSync(mark), 10_000, "the upstream call's cancellation");
    expect(readFileSync(mark, "utf8")).toBe("cancelled");

    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "dyn_alpha",
      "dyn_grow",
      "dyn_hang",
      "dyn_steps",
    ]);
    expect(textOf(await client.callTool({ name: "dyn_grow", arguments: {} }))).toBe("grown");
    await eventually(() => changed > 0, 15_000, "notifications/tools/list_changed");
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "dyn_alpha",
      "dyn_beta",
      "dyn_grow",
      "dyn_hang",
      "dyn_steps",
    ]);
    const beta = await client.callTool({ name: "dyn_beta", arguments: {} });
    expect(beta.isError).toBeFalsy();
    expect(textOf(beta)).toBe("beta");
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
