/**
 * Who may call, and what never comes out: a non-loopback bind needs a token; with one,
 * every API request needs it (public: /healthz and the UI's files); without one, only
 * loopback host names are answered; CORS is off unless configured; a secret from the
 * environment and a tool result a hook redacted never appear in any answer.
 */
import { request } from "node:http";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BANK_CONFIG, collectSse, startServer, type TestServer } from "../../test/support/server.js";
import { defineHook } from "../hooks/define-hook.js";
import { flow } from "../hooks/flow.js";
import { tokenMatches } from "./http/auth.js";
import { secretScrubber } from "./http/secret-scrubber.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function started(options: Parameters<typeof startServer>[0]): Promise<TestServer> {
  current = await startServer(options);
  return current;
}

const TOKEN = "a-long-enough-test-token-0123456789";

/** A request with a Host header of our choosing (fetch does not allow setting it). */
function withHost(url: string, path: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request({ hostname: target.hostname, port: target.port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("auth", () => {
  it("refuses to listen beyond loopback without HOOKWISE_SERVER_TOKEN, or with a short one", async () => {
    await expect(startServer({ serve: { host: "0.0.0.0" } })).rejects.toThrow(
      /refusing to listen on 0\.0\.0\.0 without HOOKWISE_SERVER_TOKEN/,
    );
    await expect(startServer({ serve: { host: "0.0.0.0", token: "short" } })).rejects.toThrow(/too short/);
    for (const token of [" ".repeat(24), `${"a".repeat(20)} `, "\t".repeat(16)]) {
      await expect(startServer({ serve: { host: "0.0.0.0", token } }), JSON.stringify(token)).rejects.toThrow(
        /HOOKWISE_SERVER_TOKEN holds spaces or line breaks/,
      );
    }
  });

  it("with a token: every API call needs the bearer token; /healthz does not", async () => {
    const server = await started({ serve: { env: { HOOKWISE_SERVER_TOKEN: TOKEN } } });
    const none = await server.fetch("/sessions");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await none.json()) as any).error.code).toBe("unauthorized");
    const wrong = await server.fetch("/sessions", { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    // As long as the token, and differing only in its last character: refused too.
    const sameLength = `${TOKEN.slice(0, -1)}${TOKEN.endsWith("x") ? "y" : "x"}`;
    const alike = await server.fetch("/sessions", { headers: { authorization: `Bearer ${sameLength}` } });
    expect(alike.status).toBe(401);
    for (const path of ["/approvals", "/events", "/metrics", "/openapi.json", "/agents", "/runs/x"]) {
      expect((await server.fetch(path)).status, path).toBe(401);
    }
    const created = await server.post("/sessions", {}, { authorization: `Bearer ${TOKEN}` });
    expect(created.status).toBe(201);
    const ok = await server.fetch("/sessions", { headers: { authorization: `bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    const health = await server.fetch("/healthz");
    expect(health.status).toBe(200);
    // Public, so it names nothing it serves.
    expect(await health.json()).toEqual({ status: "ok" });
    // With a token, other host names are fine (a reverse proxy in front).
    expect(await withHost(server.url, "/healthz", "agents.example.com")).toBe(200);
  });

  it("compares tokens in constant time over digests (any length)", () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(`${TOKEN}!`, TOKEN)).toBe(false);
    expect(tokenMatches("", TOKEN)).toBe(false);
  });

  it("without a token answers loopback host names only (no DNS rebinding)", async () => {
    const server = await started({});
    expect(await withHost(server.url, "/sessions", "localhost:8787")).toBe(200);
    expect(await withHost(server.url, "/sessions", "127.0.0.1")).toBe(200);
    expect(await withHost(server.url, "/sessions", "[::1]:9")).toBe(200);
    expect(await withHost(server.url, "/sessions", "evil.example.com")).toBe(421);
    expect(await withHost(server.url, "/", "evil.example.com:8787")).toBe(421);
  });

  it("CORS is off by default, and allows exactly the configured origins", async () => {
    const preflight = (server: TestServer, origin: string) =>
      server.fetch("/sessions", {
        method: "OPTIONS",
        headers: {
          origin,
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
    let server = await started({});
    expect(
      (await preflight(server, "https://app.example.com")).headers.get("access-control-allow-origin"),
    ).toBeNull();
    await server.close();
    server = await started({ config: 'server: { cors: ["https://app.example.com"] }' });
    const allowed = await preflight(server, "https://app.example.com");
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(
      (await preflight(server, "https://other.example.com")).headers.get("access-control-allow-origin"),
    ).not.toBe("https://other.example.com");
    await server.close();
    // With a token too: the preflight carries none, and an allowed page then posts its JSON.
    server = await started({
      config: 'server: { cors: ["https://app.example.com"] }',
      serve: { env: { HOOKWISE_SERVER_TOKEN: TOKEN } },
    });
    const withToken = await preflight(server, "https://app.example.com");
    expect(withToken.status).toBe(204);
    expect(withToken.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    expect(withToken.headers.get("access-control-allow-headers")).toContain("Content-Type");
    const posted = await server.post(
      "/sessions",
      {},
      { authorization: `Bearer ${TOKEN}`, origin: "https://app.example.com" },
    );
    expect(posted.status).toBe(201);
    expect(posted.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
    // Everything else still needs the token.
    expect((await server.fetch("/sessions", { headers: { origin: "https://app.example.com" } })).status).toBe(
      401,
    );
  });
});

describe("what never comes out", () => {
  it("a secret of the environment is redacted from streams, results, transcripts and timelines", async () => {
    const secret = "sk-acme-0123456789abcdef";
    const server = await started({
      script: [
        { tool_calls: [{ name: "bank_echo", args: { text: `the key is ${secret}` } }] },
        { text: `I echoed ${secret}.` },
      ],
      serve: { env: { ACME_API_KEY: secret } },
    });
    const { id } = (await (await server.post("/sessions", {})).json()) as { id: string };
    const stream = await (await server.post(`/sessions/${id}/messages`, { text: "echo it" })).text();
    expect(stream).toContain("[redacted]");
    const session = await (await server.fetch(`/sessions/${id}`)).text();
    const runId = JSON.parse(session).runs[0].runId;
    const timeline = await (await server.fetch(`/runs/${runId}`)).text();
    for (const text of [stream, session, timeline]) expect(text).not.toContain(secret);
    // The tool did get it: redaction is at the door, not in the run.
    expect(server.ledger()).toEqual([`echo the key is ${secret}`]);
  });

  it("a secret the config hands a toolset as an environment variable is redacted, whatever its name", async () => {
    const secret = "ghp_0123456789abcdefABCDEF";
    const fixture = resolve(import.meta.dirname, "../../test/fixtures/mcp/stdio-server.mjs");
    process.env.HOOKWISE_TEST_GH_PAT = secret;
    try {
      const server = await started({
        script: [{ tool_calls: [{ name: "gh_env", args: {} }] }, { text: "done" }],
        replaceConfig: BANK_CONFIG.replace(
          "  bank: { kind: module, path: ./tools.mjs }\n",
          [
            "  bank: { kind: module, path: ./tools.mjs }",
            `  gh: { kind: mcp, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(fixture)}],`,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's literal ${VAR} syntax
            '        env: { FIXTURE_TOKEN: "${HOOKWISE_TEST_GH_PAT}" } }',
            "",
          ].join("\n"),
        ).replace("tools: [bank.*]", "tools: [bank.*, gh.env]"),
        serve: { env: { HOOKWISE_TEST_GH_PAT: secret } },
      });
      const { id } = (await (await server.post("/sessions", {})).json()) as { id: string };
      const stream = await (await server.post(`/sessions/${id}/messages`, { text: "env?" })).text();
      expect(stream).toContain('"toolName":"gh_env"');
      // Masked where the result entered the run, named after its variable.
      expect(stream).toContain('"result":"[redacted HOOKWISE_TEST_GH_PAT]"');
      const session = await (await server.fetch(`/sessions/${id}`)).text();
      const runId = JSON.parse(session).runs[0].runId;
      const timeline = await (await server.fetch(`/runs/${runId}`)).text();
      for (const text of [stream, session, timeline]) expect(text).not.toContain(secret);
    } finally {
      delete process.env.HOOKWISE_TEST_GH_PAT;
    }
  });

  it.each([
    ["no hook between the deltas", BANK_CONFIG],
    [
      "a text_delta hook firing between them",
      BANK_CONFIG.replace(
        "  hooks:\n",
        "  hooks:\n    - { id: spy, on: text_delta, action: { type: log, message: chunk } }\n",
      ),
    ],
  ])(
    "a secret the model streams in pieces is redacted whole (%s), in the run's events and in /api/chat",
    async (_name, config) => {
      const secret = "sk-acme-0123456789abcdef";
      const pieces = ["Your key: sk-ac", "me-0123", "456789ab", "cdef. Done."];
      expect(pieces.join("")).toContain(secret);
      const server = await started({
        script: [{ text_deltas: pieces }, { text_deltas: pieces }],
        replaceConfig: config,
        serve: { env: { ACME_API_KEY: secret } },
      });
      const deltas = (frames: string) =>
        frames
          .split("\n")
          .filter((line) => line.startsWith("data: {"))
          .map((line) => JSON.parse(line.slice("data: ".length)) as Record<string, unknown>)
          .filter((data) => data.type === "text-delta")
          .map((data) => String(data.delta))
          .join("");
      const { id } = (await (await server.post("/sessions", {})).json()) as { id: string };
      const stream = await (await server.post(`/sessions/${id}/messages`, { text: "my key?" })).text();
      const chat = await (
        await server.post("/api/chat", {
          id: "chat-secret",
          messages: [{ id: "m1", role: "user", parts: [{ type: "text", text: "my key?" }] }],
        })
      ).text();
      if (config !== BANK_CONFIG) expect(stream).toContain('"hook":"spy"');
      for (const frames of [stream, chat]) {
        for (const piece of pieces.slice(1, 3)) expect(frames).not.toContain(piece);
        expect(frames).not.toContain(secret);
        // Every other character still arrives, in order.
        expect(deltas(frames)).toBe("Your key: [redacted]. Done.");
      }
    },
  );

  it("a tool result a hook redacted never appears raw, in any answer", async () => {
    const iban = "DE89370400440532013000";
    const server = await started({
      script: [
        { tool_calls: [{ name: "bank_statement", args: {} }] },
        { text: "Done." },
        { tool_calls: [{ name: "bank_statement", args: {} }] },
        { text: "Done again." },
      ],
      serve: {
        hooks: () => [
          defineHook({
            name: "mask-iban",
            on: "tool_result",
            kind: "transform",
            handler: (event) => flow.rewriteResult(String(event.result).replace(/DE\d{20}/, "DE####")),
          }),
        ],
      },
    });
    const { id } = (await (await server.post("/sessions", {})).json()) as { id: string };
    const stream = JSON.stringify(
      await collectSse(await server.post(`/sessions/${id}/messages`, { text: "statement" })),
    );
    const json = await (
      await server.post(`/sessions/${id}/messages`, { text: "again" }, { accept: "application/json" })
    ).text();
    const session = await (await server.fetch(`/sessions/${id}`)).text();
    const timelines = await Promise.all(
      JSON.parse(session).runs.map(async (run: { runId: string }) =>
        (await server.fetch(`/runs/${run.runId}`)).text(),
      ),
    );
    expect(stream).toContain("IBAN DE####, balance 120");
    expect(stream).toContain('"effect":"rewriteResult"');
    for (const text of [stream, json, session, ...timelines]) expect(text).not.toContain(iban);
    expect(server.ledger()).toEqual(["statement", "statement"]);
  });

  it("the scrubber replaces raw and JSON-escaped spellings, longest first", () => {
    const scrub = secretScrubber({
      MY_TOKEN: 'ab"cdefghij',
      OTHER_SECRET: "abcdefgh",
      HOME: "/home/someone",
    });
    expect(scrub(JSON.stringify({ value: 'x ab"cdefghij y' }))).toBe(
      JSON.stringify({ value: "x [redacted] y" }),
    );
    expect(scrub("abcdefgh and /home/someone")).toBe("[redacted] and /home/someone");
    expect(secretScrubber({ SHORT_KEY: "abc" })("abc")).toBe("abc");
  });
});
