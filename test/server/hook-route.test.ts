/**
 * `hookwise serve` answering harness hooks (`POST /hooks/:harness`), and the command
 * `hookwise setup --server` writes: it asks the running server first and decides itself when
 * the server does not answer — not running, another config, a config changed since it loaded.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createServer as createTcpServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type HookwiseServer, serve } from "../../src/server/serve.js";
import { cliProcess } from "../support/cli.js";

/**
 * The command asks a server on this machine with bash, any other with curl; without them
 * every call is the fallback's (CI installs both).
 */
const curl = spawnSync("curl", ["--version"]).status === 0 || process.env.HOOKWISE_CI === "1";
const bash = spawnSync("bash", ["--version"]).status === 0 || process.env.HOOKWISE_CI === "1";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
const servers: HookwiseServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const CONFIG = `harness: claude
runtime:
  policies:
    - { decision: deny, tool: shell, when: 'args.command.contains("rm -rf")', reason: "no recursive deletes" }
`;

const pre = (command: string) =>
  JSON.stringify({
    session_id: "served",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/tmp",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  });

/** Runs a settings file's command as the harness does: `sh -c`, the event on stdin. */
function runCommand(
  command: string,
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runArgs(["/bin/sh", "-c", command], input, env);
}

function runArgs(
  [file, ...args]: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file!, args, {
      stdio: ["pipe", "pipe", "pipe"],
      cwd: tmpdir(),
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
    // A command that ends before reading its input (a bash that does not start) closes the pipe.
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

async function hookRequests(server: HookwiseServer, token?: string): Promise<number> {
  const headers = token === undefined ? undefined : { authorization: `Bearer ${token}` };
  const text = await (await fetch(`${server.url}/metrics`, { headers })).text();
  return [
    ...text.matchAll(
      /hookwise_http_requests_total\{[^}]*route="\/hooks\/:harness"[^}]*status="200"[^}]*\} (\d+)/g,
    ),
  ]
    .map((match) => Number(match[1]))
    .reduce((a, b) => a + b, 0);
}

async function setUp(
  options: {
    host?: string;
    config?: string;
    configName?: string;
    setupArgs?: string[];
    serveConfig?: string;
    serveEnv?: NodeJS.ProcessEnv;
  } = {},
): Promise<{ dir: string; config: string; server: HookwiseServer; command: string }> {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-hook-route-"));
  dirs.push(dir);
  const config = join(dir, options.configName ?? "hookwise.yaml");
  writeFileSync(config, options.config ?? CONFIG);
  // A config for harnesses alone has no model: serve answers their hooks and runs no agent.
  const server = await serve({
    config: options.serveConfig ? join(dir, options.serveConfig) : config,
    host: options.host ?? "127.0.0.1",
    port: 0,
    log: () => {},
    ...(options.serveEnv ? { env: options.serveEnv } : {}),
  });
  servers.push(server);
  const setup = await cliProcess(
    ["setup", "claude", config, "--project", dir, "--server", server.url, ...(options.setupArgs ?? [])],
    { timeoutMs: 60_000 },
  );
  expect(setup.code, setup.stderr).toBe(0);
  const settings = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8"));
  return { dir, config, server, command: settings.hooks.PreToolUse[0].hooks[0].command };
}

/** A server on `port` of 127.0.0.1 (or `host`) answering every request with `answer`. */
async function fakeServer(
  answer: (response: import("node:http").ServerResponse) => void,
  port = 0,
  host = "127.0.0.1",
): Promise<{ port: number; answers: () => number; close: () => Promise<void> }> {
  let answers = 0;
  const fake = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      answers++;
      answer(response);
    });
  });
  await new Promise<void>((resolve) => fake.listen(port, host, resolve));
  return {
    port: (fake.address() as { port: number }).port,
    answers: () => answers,
    close: () => new Promise((resolve) => fake.close(() => resolve())),
  };
}

const deniedBy = (stdout: string) => JSON.parse(stdout).hookSpecificOutput.permissionDecisionReason;

describe("POST /hooks/:harness and hookwise setup --server", { timeout: 120_000 }, () => {
  it.skipIf(!bash)(
    "answers through the running server: a deny in Claude Code's format, nothing for an allowed call",
    async () => {
      const { server, command } = await setUp();
      // A server on this machine is asked without starting curl.
      expect(command).toContain(`hookwise-post.bash 127.0.0.1 ${server.port} claude `);
      expect(command).not.toContain("curl");
      const denied = await runCommand(command, pre("rm -rf /"));
      expect(denied.code).toBe(0);
      expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({
        permissionDecision: "deny",
        permissionDecisionReason: "no recursive deletes",
      });
      const allowed = await runCommand(command, pre("ls"));
      expect(allowed).toMatchObject({ code: 0, stdout: "" });
      // Both were the server's answers, not the fallback's.
      expect(await hookRequests(server)).toBe(2);
      // The session is listed with its events and decisions, as hookwise history shows it.
      const listed = (await (await fetch(`${server.url}/hooks/sessions`)).json()) as { sessions: unknown[] };
      expect(listed.sessions).toEqual([
        expect.objectContaining({
          id: "served",
          harness: "claude",
          events: 2,
          lastEvent: "PreToolUse",
          lastDecision: "none",
        }),
      ]);
      const session = (await (await fetch(`${server.url}/hooks/sessions/served`)).json()) as {
        events: { decision: string; reason?: string }[];
      };
      expect(session.events.map((event) => event.decision)).toEqual(["deny", "none"]);
      expect(session.events[0]!.reason).toBe("no recursive deletes");
      expect((await fetch(`${server.url}/hooks/sessions/nobody`)).status).toBe(404);
    },
  );

  it.skipIf(!bash)("in a project that installed hookwise, names it through $CLAUDE_PROJECT_DIR", async () => {
    const { dir, config, server } = await setUp();
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules", "hookwise"));
    const setup = await cliProcess(
      ["setup", "claude", config, "--project", dir, "--server", server.url, "--scope", "local"],
      { timeoutMs: 60_000 },
    );
    expect(setup.code, setup.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, ".claude", "settings.local.json"), "utf8"));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    expect(command).toContain(
      `BASH_ENV= LC_ALL=C HOOKWISE_GATE=1 exec bash "$CLAUDE_PROJECT_DIR"/node_modules/hookwise/bin/hookwise-post.bash 127.0.0.1 ${server.port} claude "$CLAUDE_PROJECT_DIR"/hookwise.yaml '' node "$CLAUDE_PROJECT_DIR"/node_modules/hookwise/bin/hookwise.js hook`,
    );
    const denied = await runCommand(command, pre("rm -rf /"), { CLAUDE_PROJECT_DIR: dir });
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason).toBe(
      "no recursive deletes",
    );
    expect(await hookRequests(server)).toBe(1);
  });

  it.skipIf(!curl)("asks a server elsewhere with curl, with the same answers", async () => {
    // 127.0.0.2 stands for another host: it is not one the command asks with bash.
    const { server, command } = await setUp({ host: "127.0.0.2" });
    expect(command).toContain(`curl -s --max-redirs 0`);
    expect(command).toContain(`http://127.0.0.2:${server.port}/hooks/claude`);
    const denied = await runCommand(command, pre("rm -rf /"));
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecisionReason).toBe(
      "no recursive deletes",
    );
    expect(await runCommand(command, pre("ls"))).toMatchObject({ code: 0, stdout: "" });
    expect(await hookRequests(server)).toBe(2);
    // The server's answers were taken: the command did not decide again (one record each).
    const session = (await (await fetch(`${server.url}/hooks/sessions/served`)).json()) as {
      events: unknown[];
    };
    expect(session.events).toHaveLength(2);
  });

  it.skipIf(!curl)(
    "with curl, sends the server's token without putting it on a command line other users can read",
    async () => {
      const token = "tok-never-in-argv-4f1c";
      const { dir, server, command } = await setUp({
        host: "127.0.0.2",
        serveEnv: { ...process.env, HOOKWISE_SERVER_TOKEN: token },
      });
      // A process's arguments are readable by every user of the machine (ps, /proc/<pid>/cmdline).
      const bin = join(dir, "bin");
      mkdirSync(bin);
      const argv = join(dir, "curl-argv.txt");
      writeFileSync(
        join(bin, "curl"),
        `#!/bin/sh\nprintf '%s\\n' "$@" >> '${argv}'\ncat > /dev/null\nexit 7\n`,
        {
          mode: 0o755,
        },
      );
      const recorded = await runCommand(command, pre("rm -rf /"), {
        HOOKWISE_SERVER_TOKEN: token,
        PATH: `${bin}:${process.env.PATH}`,
      });
      expect(deniedBy(recorded.stdout)).toBe("no recursive deletes");
      expect(readFileSync(argv, "utf8")).toContain(`127.0.0.2:${server.port}/hooks/claude`);
      expect(readFileSync(argv, "utf8")).not.toContain(token);
      // The real curl still reaches the server with it: the server answers.
      const denied = await runCommand(command, pre("rm -rf /"), { HOOKWISE_SERVER_TOKEN: token });
      expect(deniedBy(denied.stdout)).toBe("no recursive deletes");
      expect(await hookRequests(server, token)).toBe(1);
    },
  );

  it.skipIf(!bash)(
    "decides itself when an answer is cut short, is not a 200, or a header value would end its line",
    async () => {
      const { server, command } = await setUp();
      const port = String(server.port);
      await server.close();
      // A server on the same port that answers badly: each answer is the fallback's.
      let answers = 0;
      const bad = createServer((request, response) => {
        request.resume();
        request.on("end", () => {
          answers++;
          if (answers === 1) {
            // A 200 promising more than it sends, then closing.
            response.writeHead(200, {
              "content-type": "application/json",
              "content-length": "500",
              "x-hookwise-answer": "1",
            });
            response.write('{"hookSpecificOutput":{"permissionDecision":"allow"');
            // Closed once the part is on its way: the client reads a part of the promised body.
            setTimeout(() => response.socket?.destroy(), 200);
          } else {
            response.writeHead(503, { "content-type": "application/json" });
            response.end('{"hookSpecificOutput":{"permissionDecision":"allow"}}');
          }
        });
      });
      await new Promise<void>((resolve) => bad.listen(Number(port), "127.0.0.1", resolve));
      try {
        for (let round = 0; round < 2; round++) {
          const denied = await runCommand(command, pre("rm -rf /"));
          expect(JSON.parse(denied.stdout).hookSpecificOutput).toMatchObject({
            permissionDecision: "deny",
            permissionDecisionReason: "no recursive deletes",
          });
        }
        expect(answers).toBe(2);
        // A token that would end the authorization header is never sent.
        const denied = await runCommand(command, pre("rm -rf /"), {
          HOOKWISE_SERVER_TOKEN: "secret\r\nx-injected: 1",
        });
        expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
        expect(answers).toBe(2);
      } finally {
        await new Promise((resolve) => bad.close(resolve));
      }
    },
  );

  it.skipIf(!curl)(
    "with curl, takes only a whole 200 that is hookwise's answer: not a redirect, an empty 204 or a page",
    async () => {
      const { server, command } = await setUp({ host: "127.0.0.2" });
      const port = server.port;
      await server.close();
      const pages: ((response: import("node:http").ServerResponse) => void)[] = [
        (response) => response.writeHead(302, { location: "https://login.example/" }).end(),
        (response) => response.writeHead(204).end(),
        (response) => response.writeHead(200, { "content-type": "text/html" }).end("<html>sign in</html>"),
        (response) => response.writeHead(200, { "content-type": "application/json" }).end("{}"),
      ];
      for (const page of pages) {
        const fake = await fakeServer(page, port, "127.0.0.2");
        try {
          const answered = await runCommand(command, pre("rm -rf /"));
          expect(deniedBy(answered.stdout)).toBe("no recursive deletes");
          expect(fake.answers()).toBe(1);
        } finally {
          await fake.close();
        }
      }
    },
  );

  it.skipIf(!bash)("answers with the agent setup named, as hookwise hook --agent does", async () => {
    const { server, command } = await setUp({
      config: `harness: claude
agents:
  - id: lax
  - id: strict
    policies:
      - { decision: deny, tool: Bash, when: 'args.command.contains("rm -rf")', reason: "strict says no" }
`,
      setupArgs: ["--agent", "strict"],
    });
    expect(deniedBy((await runCommand(command, pre("rm -rf /"))).stdout)).toBe("strict says no");
    expect(await hookRequests(server)).toBe(1);
  });

  it.skipIf(!bash)("follows the config a symlink names now, and a path with spaces and accents", async () => {
    const { dir, server } = await setUp({ configName: "stricte règle.yaml" });
    writeFileSync(join(dir, "lenient.yaml"), CONFIG.replace('contains("rm -rf")', 'contains("never")'));
    symlinkSync(join(dir, "stricte règle.yaml"), join(dir, "active.yaml"));
    const setup = await cliProcess(
      [
        "setup",
        "claude",
        join(dir, "active.yaml"),
        "--project",
        dir,
        "--server",
        server.url,
        "--scope",
        "local",
      ],
      { timeoutMs: 60_000 },
    );
    expect(setup.code, setup.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, ".claude", "settings.local.json"), "utf8"));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    // The symlink names the served file (its path has a space and accents): the server answers.
    expect(deniedBy((await runCommand(command, pre("rm -rf /"))).stdout)).toBe("no recursive deletes");
    expect(await hookRequests(server)).toBe(1);
    // Pointed at another config, it is that config's answer, decided by the command.
    rmSync(join(dir, "active.yaml"));
    symlinkSync(join(dir, "lenient.yaml"), join(dir, "active.yaml"));
    expect(await runCommand(command, pre("rm -rf /"))).toMatchObject({ code: 0, stdout: "" });
    expect(await hookRequests(server)).toBe(1);
  });

  it.skipIf(!bash)(
    "decides itself, reason and all, for an event too large to post or one the server refuses, whatever BASH_ENV prints",
    async () => {
      const { dir, server, command } = await setUp();
      writeFileSync(join(dir, "env.sh"), "echo '[startup file]'\n");
      const env = { BASH_ENV: join(dir, "env.sh") };
      // Over the server's body limit: never posted, the command decides.
      const large = pre(`rm -rf / #${"x".repeat(2 * 1024 * 1024)}`);
      const denied = await runCommand(command, large, env);
      expect(denied.code).toBe(0);
      expect(deniedBy(denied.stdout)).toBe("no recursive deletes");
      // Not JSON: the server refuses it, the command blocks it with its reason on stderr.
      const broken = await runCommand(command, pre("ls").slice(0, 40), env);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toContain("not JSON");
      expect(await hookRequests(server)).toBe(0);
      // A served answer is the server's JSON alone.
      expect(JSON.parse((await runCommand(command, pre("rm -rf /"), env)).stdout)).toMatchObject({
        hookSpecificOutput: { permissionDecision: "deny" },
      });
    },
  );

  it.skipIf(!bash)("decides itself when the installed package has no post script", async () => {
    const { dir, server } = await setUp();
    // An installed hookwise without the script: a stand-in that answers as the fallback.
    mkdirSync(join(dir, "node_modules", "hookwise", "bin"), { recursive: true });
    writeFileSync(
      join(dir, "node_modules", "hookwise", "bin", "hookwise.js"),
      `process.stdin.resume(); process.stdin.on("end", () => { process.stdout.write(JSON.stringify({ fallback: process.argv.slice(2) })); });\n`,
    );
    const setup = await cliProcess(
      [
        "setup",
        "claude",
        join(dir, "hookwise.yaml"),
        "--project",
        dir,
        "--server",
        server.url,
        "--scope",
        "local",
      ],
      { timeoutMs: 60_000 },
    );
    expect(setup.code, setup.stderr).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, ".claude", "settings.local.json"), "utf8"));
    const ran = await runCommand(settings.hooks.PreToolUse[0].hooks[0].command, pre("rm -rf /"), {
      CLAUDE_PROJECT_DIR: dir,
    });
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout).fallback).toContain("hook");
    expect(await hookRequests(server)).toBe(0);
  });

  it.skipIf(!bash)(
    "takes an answer that arrives in parts, and decides itself when more follows it than its content-length",
    async () => {
      const { server, command } = await setUp();
      const port = server.port;
      await server.close();
      const answer = JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "the server's own reason",
        },
      });
      const head = (length: number) =>
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-hookwise-answer: 1\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
      // Each answer written as it is, once the whole request is in.
      const replies: ((socket: Socket) => void)[] = [
        // The head, then the body a moment later, then the end: one answer.
        (socket) => {
          socket.write(head(Buffer.byteLength(answer)));
          setTimeout(() => socket.end(answer), 150);
        },
        // A body longer than its content-length says: not an answer to take.
        (socket) => socket.end(`${head(2)}{}{"more":"than promised"}`),
      ];
      let answered = 0;
      const raw = createTcpServer((socket) => {
        let request = "";
        socket.setEncoding("latin1").on("data", (chunk: string) => {
          request += chunk;
          const end = request.indexOf("\r\n\r\n");
          const length = Number(/content-length: (\d+)/i.exec(request)?.[1] ?? 0);
          if (end >= 0 && request.length - end - 4 >= length) replies[answered++]!(socket);
        });
      });
      await new Promise<void>((resolve) => raw.listen(port, "127.0.0.1", resolve));
      try {
        // "ls" is allowed by the config: a deny can only be the server's answer.
        const served = await runCommand(command, pre("ls"));
        expect(deniedBy(served.stdout)).toBe("the server's own reason");
        // The command decided itself: "ls" is allowed, so it says nothing.
        expect(await runCommand(command, pre("ls"))).toMatchObject({ code: 0, stdout: "" });
        expect(answered).toBe(2);
      } finally {
        await new Promise((resolve) => raw.close(resolve));
      }
    },
  );

  it.skipIf(!bash)(
    "takes a marked 200 whatever its header names' case, and decides itself for an unmarked, chunked or doubly sized one",
    async () => {
      const { server, command } = await setUp();
      const port = server.port;
      await server.close();
      const answer = JSON.stringify({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "the server's own reason",
        },
      });
      const length = Buffer.byteLength(answer);
      const heads = [
        // Taken: names in any case, spaces and tabs around values.
        `HTTP/1.1 200 OK\r\nX-Hookwise-Answer:\t1 \r\nContent-Length:  ${length}\t\r\n\r\n`,
        // Not taken: no mark, another mark, a chunked body, two lengths, a length in parts.
        `HTTP/1.1 200 OK\r\ncontent-length: ${length}\r\n\r\n`,
        `HTTP/1.1 200 OK\r\nx-hookwise-answer: 10\r\ncontent-length: ${length}\r\n\r\n`,
        `HTTP/1.1 200 OK\r\nx-hookwise-answer: 1\r\ntransfer-encoding: chunked\r\ncontent-length: ${length}\r\n\r\n`,
        `HTTP/1.1 200 OK\r\nx-hookwise-answer: 1\r\ncontent-length: ${length}\r\ncontent-length: ${length}\r\n\r\n`,
        `HTTP/1.1 200 OK\r\nx-hookwise-answer: 1\r\ncontent-length: ${String(length).replace(/^(.)/, "$1 ")}\r\n\r\n`,
      ];
      let answered = 0;
      const raw = createTcpServer((socket) => {
        let request = "";
        socket.setEncoding("latin1").on("data", (chunk: string) => {
          request += chunk;
          const end = request.indexOf("\r\n\r\n");
          const sent = Number(/content-length: (\d+)/i.exec(request)?.[1] ?? 0);
          if (end >= 0 && request.length - end - 4 >= sent) socket.end(`${heads[answered++]}${answer}`);
        });
      });
      await new Promise<void>((resolve) => raw.listen(port, "127.0.0.1", resolve));
      try {
        // "ls" is allowed by the config: a deny can only be the server's answer.
        expect(deniedBy((await runCommand(command, pre("ls"))).stdout)).toBe("the server's own reason");
        for (let index = 1; index < heads.length; index++)
          expect(await runCommand(command, pre("ls")), heads[index]).toMatchObject({ code: 0, stdout: "" });
        expect(answered).toBe(heads.length);
      } finally {
        await new Promise((resolve) => raw.close(resolve));
      }
    },
  );

  it.skipIf(!bash)("leaves the event whole to the command under a bash too old for the script", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-old-bash-"));
    dirs.push(dir);
    // The script as a bash older than 4.1 runs it (macOS's /bin/bash is 3.2).
    const original = readFileSync(join(ROOT, "bin", "hookwise-post.bash"), "utf8");
    const old = original.replace(">= 401", ">= 99999");
    expect(old).not.toBe(original);
    writeFileSync(join(dir, "post.bash"), old);
    let connections = 0;
    const listening = createTcpServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    const port = String((listening.address() as { port: number }).port);
    try {
      const event = pre("rm -rf /");
      const counted = ["sh", "-c", 'wc -c; echo "its own reason" >&2; exit 5'];
      const args = [
        "bash",
        join(dir, "post.bash"),
        "127.0.0.1",
        port,
        "claude",
        "/tmp/x.yaml",
        "",
        ...counted,
      ];
      const gate = await runArgs(args, event, { HOOKWISE_GATE: "1" });
      expect(Number(gate.stdout.trim())).toBe(Buffer.byteLength(event));
      expect(gate.code).toBe(2);
      expect(gate.stderr).toContain("its own reason");
      expect(gate.stderr).toContain("exit code 5 before deciding; blocked");
      expect((await runArgs(args, event)).code).toBe(5);
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });

  it("reads an event straight from the connection, and still refuses one over the body limit", async () => {
    const { server } = await setUp();
    const post = (body: string) =>
      fetch(`${server.url}/hooks/claude`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json" },
      });
    // An event that gives its length is not opened as a web stream to be read.
    const streamed = vi.spyOn(Readable, "toWeb");
    try {
      const denied = await post(pre("rm -rf /"));
      expect(denied.status).toBe(200);
      expect(deniedBy(await denied.text())).toBe("no recursive deletes");
      expect(streamed).not.toHaveBeenCalled();
    } finally {
      streamed.mockRestore();
    }
    const large = await post(pre(`rm -rf / #${"x".repeat(1024 * 1024)}`));
    expect(large.status).toBe(413);
    expect(((await large.json()) as { error: { code: string } }).error.code).toBe("body_too_large");
  });

  it("decides itself when the server is not running, with the same answer", async () => {
    const { server, command } = await setUp();
    await server.close();
    const denied = await runCommand(command, pre("rm -rf /"));
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("decides itself with the config as it is now when it changed since the server loaded it", async () => {
    const { config, server, command } = await setUp();
    writeFileSync(
      config,
      CONFIG.replace('contains("rm -rf")', 'contains("ls")').replace("no recursive deletes", "no listings"),
    );
    const listing = await runCommand(command, pre("ls"));
    expect(JSON.parse(listing.stdout).hookSpecificOutput.permissionDecisionReason).toBe("no listings");
    expect(await hookRequests(server)).toBe(0);
  });

  it("refuses another config, a harness the config does not guard and a malformed event", async () => {
    const { server } = await setUp();
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      });
    const other = await post("/hooks/claude", pre("rm -rf /"), {
      "x-hookwise-config": "/elsewhere/hookwise.yaml",
    });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { code: string } }).error.code).toBe("other_config");
    const gemini = await post("/hooks/gemini", "{}");
    expect(gemini.status).toBe(409);
    expect(((await gemini.json()) as { error: { message: string } }).error.message).toContain("not gemini");
    const bad = await post("/hooks/claude", JSON.stringify({ hook_event_name: "PreToolUse" }));
    expect(bad.status).toBe(400);
    expect((await post("/hooks/claud", "{}")).status).toBe(404);
  });
  it.skipIf(!bash)(
    "ends a gate's call with 0 or 2 only: another exit code of the command, or of the script, blocks with its reason",
    async () => {
      // A port nothing listens on: the command decides.
      const closed = createTcpServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = String((closed.address() as { port: number }).port);
      await new Promise((resolve) => closed.close(resolve));
      const script = join(ROOT, "bin", "hookwise-post.bash");
      const failing = ["sh", "-c", 'cat >/dev/null; echo "its own reason" >&2; exit 3'];
      const args = ["bash", script, "127.0.0.1", port, "claude", "/tmp/hookwise.yaml", "", ...failing];
      const gate = await runArgs(args, pre("ls"), { HOOKWISE_GATE: "1" });
      expect(gate.code).toBe(2);
      expect(gate.stderr).toContain("its own reason");
      expect(gate.stderr).toContain("the hook command ended with exit code 3 before deciding; blocked");
      // Not a gate (a Stop hook's exit 2 would keep the agent working): the code as it is.
      const other = await runArgs(args, pre("ls"), {});
      expect(other.code).toBe(3);
      expect(other.stderr).not.toContain("blocked");
      // The script itself failing (here: called without its arguments) blocks a gate too.
      const bare = await runArgs(["bash", script], pre("ls"), { HOOKWISE_GATE: "1" });
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain("blocked");
    },
  );

  it.skipIf(!bash)(
    "a gate's command blocks when the bash on the PATH does not start, and decides itself without bash",
    async () => {
      const { dir, server, command } = await setUp();
      // The shell gives its place to bash: no shell waits beside it on every call.
      expect(command).toContain("HOOKWISE_GATE=1 exec bash ");
      // The only `bash` on the PATH cannot be started (its interpreter is missing): blocked,
      // with a reason.
      const broken = join(dir, "broken-bin");
      mkdirSync(broken);
      writeFileSync(join(broken, "bash"), "#!/nonexistent/interpreter\n", { mode: 0o755 });
      const blocked = await runCommand(command, pre("ls"), { PATH: broken });
      expect(blocked.code).toBe(2);
      expect(blocked.stdout).toBe("");
      expect(blocked.stderr).toContain("hookwise: bash did not start the post script; blocked");
      // No bash at all on the PATH: the hook command decides (node is named by its path here).
      const empty = join(dir, "empty-bin");
      mkdirSync(empty);
      const decided = await runCommand(command, pre("rm -rf /"), { PATH: empty });
      expect(decided.code).toBe(0);
      expect(deniedBy(decided.stdout)).toBe("no recursive deletes");
      expect(await hookRequests(server)).toBe(0);
    },
  );

  it.skipIf(!bash)("blocks a gate's call when the server's answer cannot be printed", async () => {
    const { server, command } = await setUp();
    // The harness closed the command's stdout: the answer reaches no one, the call is blocked.
    const closed = await runCommand(`{ ${command}; } >&-`, pre("rm -rf /"));
    expect(closed.code).toBe(2);
    expect(closed.stderr).toContain("blocked");
    expect(await hookRequests(server)).toBe(1);
    // Printed, the same answer ends the call with 0.
    const printed = await runCommand(command, pre("rm -rf /"));
    expect(printed.code).toBe(0);
    expect(deniedBy(printed.stdout)).toBe("no recursive deletes");
  });
});
