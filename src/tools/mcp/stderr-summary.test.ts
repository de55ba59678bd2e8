import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpConnection } from "./mcp-connection.js";
import { stderrSummary } from "./stderr-summary.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("an MCP server that cannot start", () => {
  it("shows the line of its stderr that says why, before its stack, and its last lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-mcp-fail-"));
    dirs.push(dir);
    // A server whose dependency is not installed: Node prints the reason, then a long stack.
    writeFileSync(join(dir, "server.mjs"), 'import "@acme/no-such-mcp-helper";\n');
    const connection = new McpConnection(
      { command: process.execPath, args: ["server.mjs"], cwd: dir },
      { label: "acme" },
    );
    const error = await connection.client().catch((caught: Error) => caught);
    await connection.close();
    expect((error as Error).message).toMatch(
      /MCP server acme .* could not start: .*; its stderr: .*Cannot find package '@acme\/no-such-mcp-helper'/,
    );
    expect((error as Error).message).not.toMatch(/\n\s+at /);
  });

  it("keeps the first line that says why and the last lines, without stack frames", () => {
    const stack = Array.from(
      { length: 60 },
      (_, index) => `    at frame${index} (file:///x.js:${index}:1)`,
    ).join("\n");
    const text = `node:internal/modules/esm/resolve:873\n  throw new ERR_MODULE_NOT_FOUND(packageName);\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'x' imported from /s.mjs\n${stack}\n\nNode.js v20.20.2\n`;
    const summary = stderrSummary(text, text.slice(-300), true);
    expect(summary).toBe(
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x' imported from /s.mjs … Node.js v20.20.2",
    );
  });
});
