/**
 * `hookwise serve` as a user runs it: a child process on the quickstart config that prints
 * its URL, answers, runs the quickstart's message, and stops cleanly (exit 0) on SIGTERM; a
 * bind beyond loopback without a token is refused before anything listens (exit 2), and so is
 * a config whose MCP server cannot start (exit 1, as `hookwise run` does).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliProcess, copyExample } from "../support/cli.js";

const ROOT = resolve(import.meta.dirname, "../..");
const cleanups: (() => void)[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe("hookwise serve", () => {
  it("serves the quickstart, answers a message, and stops on SIGTERM with exit 0", async () => {
    const example = copyExample("quickstart");
    cleanups.push(example.cleanup);
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        join(ROOT, "src/cli/main.ts"),
        "serve",
        join(example.dir, "hookwise.yaml"),
        "--port",
        "0",
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HOOKWISE_SERVER_TOKEN: "" } },
    );
    children.push(child);
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL after 30 s: ${stdout} ${stderr}`)), 30_000);
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]!);
        }
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
    expect(stdout).toContain("agents: main");
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
    const { id } = (await (await fetch(`${url}/sessions`, { method: "POST" })).json()) as { id: string };
    const result = (await (
      await fetch(`${url}/sessions/${id}/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ text: "What is 17 + 25, and what is the weather in Paris?" }),
      })
    ).json()) as { outcome: string; text: string };
    expect(result.outcome).toBe("completed");
    expect(result.text).toContain("42");
    const exited = new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toContain("stopping");
  });

  it("refuses a bind beyond loopback without HOOKWISE_SERVER_TOKEN (exit 2), listening nowhere", async () => {
    const example = copyExample("quickstart");
    cleanups.push(example.cleanup);
    const out = await cliProcess(
      ["serve", join(example.dir, "hookwise.yaml"), "--host", "0.0.0.0", "--port", "0"],
      {
        env: { HOOKWISE_SERVER_TOKEN: "" },
      },
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("refusing to listen on 0.0.0.0 without HOOKWISE_SERVER_TOKEN");
    expect(out.stdout).not.toContain("http://");
  });

  it("stops before listening when a toolset cannot start, naming it (exit 1, as run does)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-serve-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, "script.yaml"), "- text: hello\n");
    writeFileSync(
      join(dir, "hookwise.yaml"),
      [
        'models: { default: "scripted:./script.yaml" }',
        "toolsets:",
        "  tickets: { kind: mcp, command: node, args: [-e, process.exit(3)] }",
        "agents:",
        '  - { id: main, instructions: Say hello., tools: ["tickets.*"] }',
        "",
      ].join("\n"),
    );
    const out = await cliProcess(["serve", join(dir, "hookwise.yaml"), "--port", "0"], {
      env: { HOOKWISE_SERVER_TOKEN: "" },
    });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('MCP server "tickets"');
    expect(out.stderr).toContain("could not start");
    expect(out.stdout).not.toContain("http://");
  });

  it("says what a bad --port is", async () => {
    const out = await cliProcess(["serve", "examples/quickstart/hookwise.yaml", "--port", "http"]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--port must be a number from 0 to 65535 (0: any free port), got "http"');
  });
});
