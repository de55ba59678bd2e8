/**
 * examples/mcp-gateway as docs/mcp.md describes it: an MCP client lists the filesystem
 * server's tools through the gateway, a write inside notes/ runs (stamped by the hook), one
 * outside is refused with the reason and never reaches the server. The MCP Inspector's
 * command line does the same with the example's policies in front of the real
 * `@modelcontextprotocol/server-filesystem`: the pinned Inspector, run on the Node 22 it needs,
 * and the pinned server, all installed from npm by `scripts/install-harnesses.mjs` (required
 * under `HOOKWISE_CI=1`).
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspector } from "../support/harnesses/inspector.js";
import { filesystemServer, realFilesystemGateway } from "../support/harnesses/mcp-servers.js";
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
    expect(names).toEqual([
      "fs_create_directory",
      "fs_edit_file",
      "fs_list_directory",
      "fs_move_file",
      "fs_read_file",
      "fs_write_file",
    ]);
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

  it("refuses the other writing tools outside notes/: an edit, a new folder, a move out", async () => {
    writeFileSync(join(dir, "hookwise.test.yaml.bak"), "keep me");
    const edit = await client.callTool({
      name: "fs_edit_file",
      arguments: { path: "hookwise.test.yaml.bak", edits: [{ oldText: "keep", newText: "lose" }] },
    });
    expect(edit.isError).toBe(true);
    expect(textOf(edit)).toContain("writes are allowed only inside notes/");
    expect(readFileSync(join(dir, "hookwise.test.yaml.bak"), "utf8")).toBe("keep me");

    const folder = await client.callTool({ name: "fs_create_directory", arguments: { path: "elsewhere" } });
    expect(folder.isError).toBe(true);
    expect(existsSync(join(dir, "elsewhere"))).toBe(false);

    const move = await client.callTool({
      name: "fs_move_file",
      arguments: { source: "notes/plan.md", destination: "plan.md" },
    });
    expect(move.isError).toBe(true);
    expect(textOf(move)).toContain("files move only inside notes/");
    expect(existsSync(join(dir, "notes/plan.md"))).toBe(true);
    expect(existsSync(join(dir, "plan.md"))).toBe(false);

    const inside = await client.callTool({
      name: "fs_move_file",
      arguments: { source: "notes/plan.md", destination: "notes/friday.md" },
    });
    expect(inside.isError).toBeFalsy();
    expect(existsSync(join(dir, "notes/friday.md"))).toBe(true);
  });
});

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the Inspector's command line, on the Node it needs, in `cwd`. It and everything it starts
 * (the gateway, the gateway's upstream server) share a process group, which is killed when the
 * Inspector exits or after 90 s, so nothing outlives the test.
 */
function runInspector(cwd: string, args: readonly string[]): Promise<Ran> {
  return new Promise((done, fail) => {
    // A busy machine may take longer than the Inspector's default to start the gateway and its server.
    const child = spawn(inspector.node, [inspector.cli, "--cli", ...args, "--connect-timeout", "60000"], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The group is already gone.
      }
    };
    const timer = setTimeout(killGroup, 90_000);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      killGroup();
      done({ status, stdout, stderr });
    });
  });
}

/** The real filesystem server's tools, by the names the gateway gives them. */
const REAL_FILESYSTEM_TOOLS = [
  "fs_create_directory",
  "fs_directory_tree",
  "fs_edit_file",
  "fs_get_file_info",
  "fs_list_allowed_directories",
  "fs_list_directory",
  "fs_list_directory_with_sizes",
  "fs_move_file",
  "fs_read_file",
  "fs_read_media_file",
  "fs_read_multiple_files",
  "fs_read_text_file",
  "fs_search_files",
  "fs_write_file",
];

describe.skipIf(!inspector.available || !filesystemServer.available)(
  `the MCP Inspector's command line (${inspector.version}) against hookwise mcp in front of @modelcontextprotocol/server-filesystem ${filesystemServer.version}`,
  () => {
    let dir: string;
    // The gateway runs on this repository's Node; only the Inspector needs a newer one.
    const gateway = [process.execPath, ...CLI, "mcp", "hookwise.yaml"];

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "hookwise-example-inspector-"));
      realFilesystemGateway(dir);
    });

    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    it("lists the real server's tools under the gateway's names", async () => {
      const listed = await runInspector(dir, [...gateway, "--method", "tools/list"]);
      expect(listed.stderr).not.toContain('"error"');
      expect(listed.status).toBe(0);
      const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map(
        (tool) => tool.name,
      );
      expect(names.sort()).toEqual(REAL_FILESYSTEM_TOOLS);
    }, 120_000);

    it("writes inside notes/ through the stamp hook, by the real server", async () => {
      const written = await runInspector(dir, [
        ...gateway,
        ...["--method", "tools/call", "--tool-name", "fs_write_file"],
        ...["--tool-arg", "path=notes/plan.md", "--tool-arg", "content=hi"],
      ]);
      expect(written.status, written.stderr).toBe(0);
      expect(written.stdout).toContain("Successfully wrote to notes/plan.md");
      expect(readFileSync(join(dir, "notes/plan.md"), "utf8")).toBe("hi\n(written through hookwise)");
    }, 120_000);

    it("is refused a write outside notes/ with the reason, and the server never sees it", async () => {
      const refused = await runInspector(dir, [
        ...gateway,
        ...["--method", "tools/call", "--tool-name", "fs_write_file"],
        ...["--tool-arg", "path=plan.md", "--tool-arg", "content=hi"],
      ]);
      expect(refused.stdout, `status ${refused.status}; stderr: ${refused.stderr}`).not.toBe("");
      const result = JSON.parse(refused.stdout) as { isError?: boolean };
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'tool "fs.write_file" was denied by hook "policy": writes are allowed only inside notes/',
      );
      // The Inspector reports a tool error by its exit status and an error line.
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain('"tool_is_error"');
      // The real server would have written it (plan.md is inside the folder it may write): only the gateway refused.
      expect(existsSync(join(dir, "plan.md"))).toBe(false);
    }, 120_000);

    it("is refused the real server's other writes outside notes/: a new folder, a move out", async () => {
      const call = (tool: string, ...args: string[]) =>
        runInspector(dir, [
          ...gateway,
          ...["--method", "tools/call", "--tool-name", tool],
          ...args.flatMap((arg) => ["--tool-arg", arg]),
        ]);
      const folder = await call("fs_create_directory", "path=elsewhere");
      expect(folder.status).not.toBe(0);
      expect(textOf(JSON.parse(folder.stdout))).toContain("writes are allowed only inside notes/");
      expect(existsSync(join(dir, "elsewhere"))).toBe(false);

      writeFileSync(join(dir, "notes/draft.md"), "draft");
      const moved = await call("fs_move_file", "source=notes/draft.md", "destination=draft.md");
      expect(moved.status).not.toBe(0);
      expect(textOf(JSON.parse(moved.stdout))).toContain("files move only inside notes/");
      expect(existsSync(join(dir, "notes/draft.md"))).toBe(true);
      expect(existsSync(join(dir, "draft.md"))).toBe(false);
    }, 240_000);
  },
);
