/**
 * `type: http` handlers against a real local server: the event POSTed as JSON, headers with
 * only the allowed environment variables, the answer read like a command's stdout — through
 * an agent on run() and stream().
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { runOn, SURFACES } from "../../../../../test/support/surfaces.js";
import { createAgent, resolveTool, scriptedModel, tool } from "../../../../index.js";
import { claudeHooks } from "../claude-hooks.js";
import { interpolateHeader } from "./run-http-handler.js";

interface Received {
  headers: IncomingMessage["headers"];
  body: Record<string, unknown>;
}

let server: Server;
let url: string;
let received: Received[];
let answer: { status: number; body: string };
/** Hook sets a test made: closed after it, which removes their transcript folders. */
let opened: { close(): Promise<void> }[] = [];

beforeEach(async () => {
  received = [];
  answer = { status: 200, body: "" };
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: JSON.parse(body) });
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pre-tool-use`;
});
afterEach(async () => {
  await Promise.all(opened.map((hooks) => hooks.close()));
  opened = [];
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function fixture(extra: Record<string, unknown> = {}, failure?: "open" | "closed") {
  const ran: string[] = [];
  const deploy = resolveTool(
    "deploy",
    tool({
      inputSchema: z.object({ target: z.string() }),
      execute: ({ target }) => {
        ran.push(target);
        return `deployed ${target}`;
      },
    }),
  );
  const hooks = claudeHooks(
    {
      hooks: {
        PreToolUse: [
          {
            matcher: "deploy",
            hooks: [
              {
                type: "http",
                url,
                // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's literal ${VAR} syntax
                headers: { Authorization: "Bearer $HOOK_TOKEN", "X-Other": "${OTHER_SECRET}!" },
                allowedEnvVars: ["HOOK_TOKEN"],
                timeout: 5,
                ...extra,
              },
            ],
          },
        ],
      },
    },
    { log: quiet, ...(failure ? { failure } : {}) },
  );
  opened.push(hooks);
  const model = scriptedModel([
    { toolCalls: [{ name: "deploy", args: { target: "prod" } }] },
    { text: "done" },
  ]);
  return { agent: createAgent({ model, tools: [deploy], hooks, logger: quiet }), ran };
}

describe("http handlers", () => {
  const env = { HOOK_TOKEN: process.env.HOOK_TOKEN, OTHER_SECRET: process.env.OTHER_SECRET };
  beforeEach(() => {
    process.env.HOOK_TOKEN = "t0k3n";
    process.env.OTHER_SECRET = "must-not-leak";
  });
  afterEach(() => {
    for (const [name, value] of Object.entries(env))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it.each(SURFACES)("%s: the event is POSTed; a JSON deny blocks the call", async (surface) => {
    answer.body = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "frozen",
      },
    });
    const { agent, ran } = fixture();
    const { result } = await runOn(surface, agent, "ship it");
    expect(ran).toEqual([]);
    expect(result.steps[0]!.toolResults[0]!.result).toMatch(
      /denied by hook "settings:PreToolUse\[0\]\[0\] 127.0.0.1:\d+\/hooks\/pre-tool-use": frozen/,
    );
    expect(received).toHaveLength(1);
    expect(received[0]!.headers["content-type"]).toBe("application/json");
    expect(received[0]!.headers.authorization).toBe("Bearer t0k3n");
    // A variable allowedEnvVars does not list is sent empty, never its value.
    expect(received[0]!.headers["x-other"]).toBe("!");
    expect(received[0]!.body).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "deploy",
      tool_input: { target: "prod" },
      session_id: result.sessionId,
      permission_mode: "default",
    });
  });

  it.each(SURFACES)("%s: an empty 2xx is no decision: the call runs", async (surface) => {
    const { agent, ran } = fixture();
    await runOn(surface, agent, "ship it");
    expect(ran).toEqual(["prod"]);
  });

  it.each(SURFACES)(
    "%s: a non-2xx answer or a non-JSON body is a non-blocking error, blocking with onFailure: block",
    async (surface) => {
      answer = { status: 500, body: "boom" };
      const open = fixture();
      const { result } = await runOn(surface, open.agent, "ship it");
      expect(open.ran).toEqual(["prod"]);
      expect(result.events).toContainEqual(
        expect.objectContaining({
          effect: "fail_open",
          detail: expect.stringContaining("answered HTTP 500: boom"),
        }),
      );
      answer = { status: 200, body: "<html>ok</html>" };
      const closed = fixture({ onFailure: "block" });
      const blocked = await runOn(surface, closed.agent, "ship it");
      expect(closed.ran).toEqual([]);
      expect(blocked.result.steps[0]!.toolResults[0]!.result).toMatch(/not a JSON object.*failed closed/);
    },
  );

  it("a server that does not answer in time fails (closed here)", async () => {
    server.removeAllListeners("request");
    server.on("request", () => {}); // never answers
    const { agent, ran } = fixture({ timeout: 0.3 }, "closed");
    const result = await agent.run("ship it");
    expect(ran).toEqual([]);
    expect(result.steps[0]!.toolResults[0]!.result).toMatch(/request to .* failed: timed out after 0.3 s/);
  });

  it("interpolates $VAR and {VAR} references only for allowed variables", () => {
    const env = { A: "1", B: "2" };
    const header = ["x $A ", "$", "{A} $B ", "$", "{B} $C"].join("");
    expect(interpolateHeader(header, ["A"], env)).toBe("x 1 1   ");
  });
});
