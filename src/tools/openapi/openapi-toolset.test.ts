// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax of toolset settings is what these tests exercise
/**
 * An OpenAPI document as a toolset, against a real HTTP server (test/fixtures/openapi):
 * naming, input schemas, what goes over the wire, auth, retries, timeouts, caps, redirects,
 * redaction of credentials, and the errors of a bad document or bad settings.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BILLING_API_KEY,
  BILLING_TOKEN,
  type BillingServer,
  startBillingServer,
} from "../../../test/fixtures/openapi/billing-server.js";
import type { ResolvedTool } from "../resolved-tool.js";
import { loadOpenApiParser } from "./document/load-openapi-parser.js";
import { OpenApiCallError } from "./openapi-call-error.js";
import { type OpenApiToolsetOptions, openapiToolset } from "./openapi-toolset.js";
import { OpenApiToolsetError } from "./openapi-toolset-error.js";

const SPEC = fileURLToPath(new URL("../../../test/fixtures/openapi/billing.yaml", import.meta.url));
const ENV = { BILLING_TOKEN, BILLING_API_KEY };

let server: BillingServer;
let dir: string;
beforeAll(async () => {
  server = await startBillingServer();
  dir = mkdtempSync(join(tmpdir(), "hookwise-openapi-"));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  server.requests.length = 0;
});

function billing(options: Partial<OpenApiToolsetOptions> = {}) {
  const warnings: string[] = [];
  const built = openapiToolset("api", {
    spec: SPEC,
    baseUrl: server.baseUrl,
    auth: { bearerAuth: { token: "${BILLING_TOKEN}" }, apiKeyAuth: { key: "${BILLING_API_KEY}" } },
    env: ENV,
    onWarning: (warning) => warnings.push(`${warning.at.join(".")}: ${warning.message}`),
    ...options,
  });
  return { built, warnings };
}

const EXECUTION = {
  toolCallId: "call_1",
  signal: new AbortController().signal,
  context: { sessionId: "s", runId: "r", step: 0, agentName: "test" },
};

/** Validates like the loop does, then calls. */
async function call(
  tool: ResolvedTool | undefined,
  args: unknown,
  signal = EXECUTION.signal,
): Promise<unknown> {
  const checked = tool!.input.validate(args);
  if (!checked.ok) throw new Error(`invalid: ${checked.message}`);
  return tool!.execute(checked.value, { ...EXECUTION, signal, abortSignal: signal, messages: [] });
}

async function failure(promise: Promise<unknown>): Promise<OpenApiCallError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(OpenApiCallError.isInstance(error), String(error)).toBe(true);
  return error as OpenApiCallError;
}

function writeSpec(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

async function setupError(options: Partial<OpenApiToolsetOptions>): Promise<OpenApiToolsetError> {
  const error = await billing(options).built.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(OpenApiToolsetError.isInstance(error), String(error)).toBe(true);
  return error as OpenApiToolsetError;
}

describe("tools from the document", () => {
  it("one tool per operation, named by operationId (else method + path), with its endpoint and summary", async () => {
    const { built, warnings } = billing();
    const toolset = await built;
    expect(toolset.tools.map((tool) => tool.qualifiedName)).toEqual([
      "api.list_invoices",
      "api.create_invoice",
      "api.get_invoice",
      "api.delete_invoice",
      "api.whoami",
      "api.get_preferences",
      "api.get_flaky",
      "api.get_broken",
      "api.get_slow",
      "api.get_large",
      "api.get_moved",
      "api.get_moved_here",
      "api.get_reports_reportId_status",
    ]);
    const create = toolset.tools.find((tool) => tool.name === "create_invoice")!;
    expect(create.functionName).toBe("api_create_invoice");
    expect(create.description).toBe(
      "Create an invoice\n\nBills a customer. The total is in the customer's currency.",
    );
    expect(toolset.endpoints.get("api.create_invoice")).toBe("POST /customers/{customerId}/invoices");
    // The upload (multipart only) cannot be sent as JSON: left out, and said so.
    expect(warnings).toEqual([
      "spec: POST /reports (post_reports) is left out: its request body is multipart/form-data, and OpenAPI tools send JSON or application/octet-stream",
    ]);
  });

  it("the input combines path, query and header parameters and the JSON body, required as declared", async () => {
    const toolset = await billing().built;
    const create = toolset.tools.find((tool) => tool.name === "create_invoice")!;
    const schema = create.input.jsonSchema as any;
    expect(Object.keys(schema.properties)).toEqual(["customerId", "notify", "X-Request-Id", "body"]);
    expect(schema.required).toEqual(["customerId", "body"]);
    expect(schema.additionalProperties).toBe(false);
    // readOnly `id` is not part of a request; 3.0 `nullable` is a null type; recursion is finite.
    expect(Object.keys(schema.properties.body.properties)).toEqual(["total", "memo", "lines"]);
    expect(schema.properties.body.properties.memo).toEqual({ type: ["string", "null"] });
    expect(JSON.stringify(schema)).toContain("recursive");
    expect(
      create.input.validate({ customerId: "c1", body: { total: { amount: 5, currency: "EUR" } } }).ok,
    ).toBe(true);
    expect(create.input.validate({ customerId: "c1" })).toMatchObject({ ok: false });
    expect(create.input.validate({ customerId: "c1", body: {}, notfy: true })).toMatchObject({ ok: false });
    expect(
      create.input.validate({ customerId: "c1", body: { total: { amount: 5, currency: "GBP" } } }),
    ).toMatchObject({
      ok: false,
    });
  });
});

describe("calls over HTTP", () => {
  it("sends path, query, header and body as the document describes; returns { status, body }", async () => {
    const toolset = await billing().built;
    const list = toolset.tools.find((tool) => tool.name === "list_invoices");
    const result = await call(list, {
      status: "paid",
      tags: ["a b", "c,d"],
      ids: [1, 2],
      filter: { min: 1, max: 5 },
      limit: 3,
    });
    expect(result).toEqual({ status: 200, body: [{ id: "inv_1", total: { amount: 10, currency: "EUR" } }] });
    expect(server.requests[0]).toMatchObject({
      method: "GET",
      path: "/v1/invoices",
      query: "status=paid&tags=a%20b,c%2Cd&ids=1&ids=2&filter[min]=1&filter[max]=5&limit=3",
    });
    expect(server.requests[0]!.headers.accept).toBe("application/json");
    // A public operation (security: []) carries no credential.
    expect(server.requests[0]!.headers.authorization).toBeUndefined();

    const create = toolset.tools.find((tool) => tool.name === "create_invoice");
    const body = { total: { amount: 5, currency: "EUR" }, memo: null };
    const created = await call(create, {
      customerId: "acme/eu 1",
      notify: true,
      "X-Request-Id": "req-7",
      body,
    });
    expect(created).toEqual({ status: 201, body: { id: "inv_2", customer: "acme/eu 1", body } });
    const sent = server.requests[1]!;
    expect(sent.path).toBe("/v1/customers/acme%2Feu%201/invoices");
    expect(sent.query).toBe("notify=true");
    expect(sent.headers).toMatchObject({
      "x-request-id": "req-7",
      "content-type": "application/json",
      authorization: `Bearer ${BILLING_TOKEN}`,
    });
    expect(JSON.parse(sent.body)).toEqual(body);
  });

  it("an API key in the query, encoded; without credentials the operation is called without (and warned)", async () => {
    const toolset = await billing().built;
    expect(
      await call(
        toolset.tools.find((tool) => tool.name === "get_invoice"),
        { invoiceId: "inv_1" },
      ),
    ).toMatchObject({
      status: 200,
    });
    expect(new URLSearchParams(server.requests[0]!.query).get("api_key")).toBe(BILLING_API_KEY);

    const bare = billing({ auth: { bearerAuth: { token: "${BILLING_TOKEN}" } } });
    const withoutKey = await bare.built;
    expect(bare.warnings).toContain(
      "auth: get_invoice requires apiKeyAuth, which has no credentials under auth: it is called without",
    );
    const refused = await failure(
      call(
        withoutKey.tools.find((tool) => tool.name === "get_invoice"),
        { invoiceId: "inv_1" },
      ),
    );
    expect(refused).toMatchObject({ reason: "status", status: 401 });
  });

  it("an operation needing two schemes together, only one configured, is sent with neither credential (not half of them)", async () => {
    const spec = writeSpec(
      "both-schemes.yaml",
      [
        "openapi: 3.0.3",
        "info: { title: t, version: '1' }",
        `servers: [{ url: "${server.baseUrl}" }]`,
        "components:",
        "  securitySchemes:",
        "    bearerAuth: { type: http, scheme: bearer }",
        "    apiKeyAuth: { type: apiKey, in: query, name: api_key }",
        "security: [{ bearerAuth: [], apiKeyAuth: [] }]",
        "paths:",
        "  /preferences/{userId}:",
        "    get:",
        "      operationId: both",
        "      parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]",
        "      responses: { '200': { description: ok } }",
        "",
      ].join("\n"),
    );
    const half = billing({ spec, baseUrl: undefined, auth: { bearerAuth: { token: "${BILLING_TOKEN}" } } });
    const toolset = await half.built;
    expect(half.warnings.join("\n")).toContain("apiKeyAuth");
    await call(toolset.tools[0], { userId: "u1" });
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(new URLSearchParams(sent.query).has("api_key")).toBe(false);
    expect(JSON.stringify(sent)).not.toContain(BILLING_TOKEN);

    // Both configured: both are sent.
    const whole = await billing({ spec, baseUrl: undefined }).built;
    await call(whole.tools[0], { userId: "u1" });
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${BILLING_TOKEN}`);
    expect(new URLSearchParams(server.requests[1]!.query).get("api_key")).toBe(BILLING_API_KEY);
  });

  it("the API key in the query is the only one of its name: no value, argument or object key adds another", async () => {
    const spec = writeSpec(
      "shadow.yaml",
      [
        "openapi: 3.0.3",
        "info: { title: t, version: '1' }",
        `servers: [{ url: "${server.baseUrl}" }]`,
        "components: { securitySchemes: { apiKeyAuth: { type: apiKey, in: query, name: api_key } } }",
        "security: [{ apiKeyAuth: [] }]",
        "paths:",
        "  /preferences/{userId}:",
        "    get:",
        "      operationId: search",
        "      parameters:",
        "        - { name: userId, in: path, required: true, schema: { type: string } }",
        "        - { name: q, in: query, allowReserved: true, schema: { type: string } }",
        "        - { name: API_KEY, in: query, schema: { type: string } }",
        "        - { name: filter, in: query, style: form, explode: true, schema: { type: object, additionalProperties: { type: string } } }",
        "      responses: { '200': { description: ok } }",
        "",
      ].join("\n"),
    );
    const toolset = await billing({
      spec,
      baseUrl: undefined,
      auth: { apiKeyAuth: { key: "${BILLING_API_KEY}" } },
    }).built;
    const search = toolset.tools[0]!;
    // The document's own api_key parameter is not offered to the model.
    expect(Object.keys((search.input.jsonSchema as any).properties)).toEqual(["userId", "q", "filter"]);
    expect(search.input.validate({ userId: "u1", API_KEY: "attacker" }).ok).toBe(false);

    await call(search, { userId: "u1", q: "a/b&api_key=attacker&admin=true#x" });
    const sent = new URLSearchParams(server.requests[0]!.query);
    expect([...sent.keys()]).toEqual(["q", "api_key"]);
    expect(sent.get("q")).toBe("a/b&api_key=attacker&admin=true#x");
    expect(sent.getAll("api_key")).toEqual([BILLING_API_KEY]);

    const refused = await failure(call(search, { userId: "u1", filter: { Api_Key: "attacker" } }));
    expect(refused).toMatchObject({ reason: "argument" });
    expect(refused.message).toBe(
      "GET /preferences/{userId}: the query parameter api_key is the toolset's credential; arguments cannot set it",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("429 and 503 wait for Retry-After, then succeed; with retries: 0 it is the tool's error", async () => {
    const toolset = await billing().built;
    const flaky = toolset.tools.find((tool) => tool.name === "get_flaky");
    server.flaky = { failures: 1, status: 429, retryAfter: "1", calls: 0 };
    const started = Date.now();
    expect(await call(flaky, {})).toEqual({ status: 200, body: { ok: true, calls: 2 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/flaky", "/v1/flaky"]);

    // 503 with an HTTP date (one-second resolution) is waited for too, twice at most by default.
    server.flaky = {
      failures: 2,
      status: 503,
      retryAfter: new Date(Date.now() + 1_500).toUTCString(),
      calls: 0,
    };
    const again = Date.now();
    expect(await call(flaky, {})).toEqual({ status: 200, body: { ok: true, calls: 3 } });
    expect(Date.now() - again).toBeGreaterThanOrEqual(400);

    server.flaky = { failures: 1, status: 429, retryAfter: "1", calls: 0 };
    const once = (await billing({ retries: 0 }).built).tools.find((tool) => tool.name === "get_flaky");
    const error = await failure(call(once, {}));
    expect(error).toMatchObject({ reason: "status", status: 429 });
    expect(error.message).toBe(
      'GET /flaky: the server answered 429 Too Many Requests: {"error":"slow down"}',
    );
  });

  it("500 is a tool error carrying the status and the body", async () => {
    const toolset = await billing().built;
    const error = await failure(
      call(
        toolset.tools.find((tool) => tool.name === "get_broken"),
        {},
      ),
    );
    expect(error).toMatchObject({ reason: "status", status: 500, body: "database exploded" });
    expect(error.message).toBe(
      "GET /broken: the server answered 500 Internal Server Error: database exploded",
    );
  });

  it("a slow answer times out; the run's abort cancels a call at once", async () => {
    const toolset = await billing({ timeoutMs: 300 }).built;
    const slow = toolset.tools.find((tool) => tool.name === "get_slow");
    const started = Date.now();
    const error = await failure(call(slow, {}));
    expect(error).toMatchObject({ reason: "timeout", message: "GET /slow: no answer within 0.3 s" });
    expect(Date.now() - started).toBeLessThan(1_500);

    const controller = new AbortController();
    const aborted = call(
      (await billing().built).tools.find((tool) => tool.name === "get_slow"),
      {},
      controller.signal,
    );
    setTimeout(() => controller.abort(new Error("run aborted")), 100);
    await expect(aborted).rejects.toThrow("run aborted");
  });

  it("a response over max_response_bytes is refused without reading it all", async () => {
    const toolset = await billing({ maxResponseBytes: 64 * 1024 }).built;
    const error = await failure(
      call(
        toolset.tools.find((tool) => tool.name === "get_large"),
        {},
      ),
    );
    expect(error).toMatchObject({
      reason: "too_large",
      message: "GET /large: the response is larger than max_response_bytes (65536 bytes)",
    });
  });

  it("a redirect to another host is refused (never followed); one within the server is followed", async () => {
    const toolset = await billing().built;
    const error = await failure(
      call(
        toolset.tools.find((tool) => tool.name === "get_moved"),
        {},
      ),
    );
    expect(error).toMatchObject({ reason: "redirect" });
    expect(error.message).toBe(
      `GET /moved: the server redirected to another host (http://localhost:${server.port}); refused`,
    );
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/moved"]);

    expect(
      await call(
        toolset.tools.find((tool) => tool.name === "get_moved_here"),
        {},
      ),
    ).toEqual({
      status: 200,
      body: { user: "u1", units: "metric", language: "en" },
    });
  });

  it("a path parameter cannot climb out of the API's path", async () => {
    const toolset = await billing().built;
    const get = toolset.tools.find((tool) => tool.name === "get_invoice");
    for (const invoiceId of ["..", "."]) {
      const error = await failure(call(get, { invoiceId }));
      expect(error).toMatchObject({ reason: "argument" });
    }
    expect(server.requests).toEqual([]);
  });

  it("credentials echoed back by the server never reach the result or the error", async () => {
    const toolset = await billing({ headers: { "X-Tenant": "tenant ${BILLING_API_KEY}" } }).built;
    const error = await failure(
      call(
        toolset.tools.find((tool) => tool.name === "whoami"),
        {},
      ),
    );
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${BILLING_TOKEN}`);
    expect(error.status).toBe(403);
    const seen = `${error.message}\n${error.body}\n${JSON.stringify(error)}\n${String(error.stack)}`;
    for (const secret of [BILLING_TOKEN, encodeURIComponent(BILLING_TOKEN), BILLING_API_KEY]) {
      expect(seen).not.toContain(secret);
    }
    expect(error.message).toContain('"authorization":"Bearer [redacted]","tenant":"tenant [redacted]"');
  });
});

describe("servers: one origin per toolset", () => {
  /** Two operations on `/preferences/{userId}`-like paths; `stats` declares `statsServer`. */
  function serversSpec(name: string, top: string, statsServer: string, level: "operation" | "path") {
    const servers = `servers: [{ url: "${statsServer}" }]`;
    return writeSpec(
      name,
      [
        "openapi: 3.0.3",
        "info: { title: t, version: '1' }",
        `servers: [{ url: "${top}" }]`,
        "security: [{ bearerAuth: [] }]",
        "components: { securitySchemes: { bearerAuth: { type: http, scheme: bearer } } }",
        "paths:",
        "  /preferences/{userId}:",
        level === "path" ? `    ${servers}` : "",
        "    get:",
        "      operationId: stats",
        level === "operation" ? `      ${servers}` : "",
        "      parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]",
        "      responses: { '200': { description: ok } }",
        "  /whoami:",
        "    get: { operationId: whoami, responses: { '200': { description: ok } } }",
        "",
      ]
        .filter(Boolean)
        .join("\n"),
    );
  }

  const bearer = { auth: { bearerAuth: { token: "${BILLING_TOKEN}" } } };
  let other: BillingServer;
  beforeAll(async () => {
    other = await startBillingServer();
  });
  afterAll(async () => {
    await other.close();
  });

  it("an operation's or path's server on another origin is refused at load, naming the operation and both origins", async () => {
    for (const level of ["operation", "path"] as const) {
      const spec = serversSpec(`elsewhere-${level}.yaml`, server.baseUrl, `${other.baseUrl}`, level);
      const error = await setupError({ spec, baseUrl: undefined, ...bearer });
      expect(error).toMatchObject({ at: ["spec"], file: spec, line: level === "path" ? 8 : 10 });
      expect(error.problem).toBe(
        `GET /preferences/{userId} (stats) declares the server ${other.origin}, another origin than the API's (${server.origin}): credentials and request bodies go only to the origin the config names`,
      );
      expect(error.expected).toBe(
        `base_url (every operation is then called there), or operations: ["!stats"] and a toolset of its own with base_url: ${other.baseUrl}`,
      );
      // Left out, the rest of the API builds.
      const rest = await billing({ spec, baseUrl: undefined, operations: ["!stats"], ...bearer }).built;
      expect(rest.tools.map((tool) => tool.name)).toEqual(["whoami"]);
    }
    expect(other.requests).toEqual([]);
  });

  it("with base_url, every operation is called there and the operation's own server receives nothing", async () => {
    const spec = serversSpec("elsewhere-base.yaml", "http://127.0.0.1:9/v1", other.baseUrl, "operation");
    const toolset = await billing({ spec, ...bearer }).built;
    expect(await call(toolset.tools[0], { userId: "u1" })).toMatchObject({ status: 200 });
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${BILLING_TOKEN}`,
    ]);
    expect(other.requests).toEqual([]);
  });

  it("a server on the API's own origin (another base path) is used", async () => {
    const spec = serversSpec("same-origin.yaml", `${server.origin}/elsewhere`, server.baseUrl, "path");
    const toolset = await billing({ spec, baseUrl: undefined, ...bearer }).built;
    expect(await call(toolset.tools[0], { userId: "u2" })).toMatchObject({
      status: 200,
      body: { user: "u2" },
    });
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/preferences/u2"]);
  });

  it("credentials over plain http to a remote host need the config's own http:// base_url", async () => {
    const spec = serversSpec(
      "plain.yaml",
      "http://api.example.com/v1",
      "http://api.example.com/v2",
      "operation",
    );
    const error = await setupError({ spec, baseUrl: undefined, ...bearer });
    expect(error).toMatchObject({
      at: ["base_url"],
      problem:
        "GET /preferences/{userId} (stats) would send credentials unencrypted: the document's server http://api.example.com is plain http",
      expected:
        "base_url: https://api.example.com/v2 (or base_url: http://api.example.com/v2, to send them over http knowingly)",
    });
    // Without credentials there is nothing to expose; with the config's http:// base_url the user chose it.
    await expect(billing({ spec, baseUrl: undefined, auth: {} }).built).resolves.toBeDefined();
    await expect(
      billing({ spec, baseUrl: "http://api.example.com/v1", ...bearer }).built,
    ).resolves.toBeDefined();
  });
});

describe("selecting operations", () => {
  it("globs keep, !globs drop", async () => {
    const toolset = await billing({ operations: ["*_invoice*", "!delete_*"] }).built;
    expect(toolset.tools.map((tool) => tool.name)).toEqual([
      "list_invoices",
      "create_invoice",
      "get_invoice",
    ]);
  });

  it("a glob that matches nothing is an error with the nearest name", async () => {
    const error = await setupError({ operations: ["list_invoices", "creat_invoice"] });
    expect(error).toMatchObject({ at: ["operations", 1], suggestion: "create_invoice" });
    expect(error.message).toMatch(
      /^toolsets\.api\.operations\[1\]: "creat_invoice" matches no operation; expected a glob/,
    );
  });
});

describe("auth settings", () => {
  it("a missing environment variable is an error naming it", async () => {
    const error = await setupError({ env: { BILLING_API_KEY } });
    expect(error).toMatchObject({
      at: ["auth", "bearerAuth", "token"],
      problem: "environment variable BILLING_TOKEN is not set",
    });
  });

  it("an API key in a header, as the scheme names it", async () => {
    const spec = writeSpec(
      "header-key.yaml",
      [
        "openapi: 3.0.3",
        "info: { title: keyed, version: '1' }",
        "components: { securitySchemes: { key: { type: apiKey, in: header, name: X-Api-Key } } }",
        "security: [{ key: [] }]",
        "paths:",
        "  /invoices: { get: { operationId: list, responses: { '200': { description: ok } } } }",
        "",
      ].join("\n"),
    );
    const toolset = await billing({ spec, auth: { key: { key: "${BILLING_API_KEY}" } } }).built;
    expect(await call(toolset.tools[0], {})).toMatchObject({ status: 200 });
    expect(server.requests[0]!.headers["x-api-key"]).toBe(BILLING_API_KEY);
    expect(server.requests[0]!.query).toBe("");
  });

  it("a secret written in the config is refused", async () => {
    const error = await setupError({ auth: { bearerAuth: { token: "tok_literal" } } });
    expect(error.at).toEqual(["auth", "bearerAuth", "token"]);
    expect(error.message).not.toContain("tok_literal");
  });

  it("a scheme the document does not declare, or the wrong credential for it", async () => {
    expect(await setupError({ auth: { bearer_auth: { token: "${BILLING_TOKEN}" } } })).toMatchObject({
      at: ["auth", "bearer_auth"],
      suggestion: "bearerAuth",
    });
    expect(await setupError({ auth: { apiKeyAuth: { token: "${BILLING_TOKEN}" } } })).toMatchObject({
      at: ["auth", "apiKeyAuth"],
      problem: '"apiKeyAuth" is an API key scheme: give key',
    });
  });

  it("a credential no selected operation needs is a warning", async () => {
    const { built, warnings } = billing({ operations: ["list_invoices"] });
    await built;
    expect(warnings).toEqual([
      'auth.bearerAuth: no selected operation requires "bearerAuth": it is never sent',
      'auth.apiKeyAuth: no selected operation requires "apiKeyAuth": it is never sent',
    ]);
  });
});

describe("documents", () => {
  it("a document that does not parse is an error at its line and column", async () => {
    const spec = writeSpec("syntax.yaml", "openapi: 3.0.3\ninfo:\n  title: x\n  version: [1\npaths: {}\n");
    const error = await setupError({ spec });
    expect(error).toMatchObject({ at: ["spec"], file: spec, line: 5, column: 1 });
    expect(error.problem).toMatch(/^YAML syntax: /);
    const json = writeSpec(
      "syntax.json",
      '{\n  "openapi": "3.0.3",\n  "info": {\n    "title": "x",,\n  }\n}\n',
    );
    expect(await setupError({ spec: json })).toMatchObject({
      file: json,
      line: 4,
      problem: expect.stringMatching(/^JSON syntax: /),
    });
  });

  it("an invalid document is an error naming the problem, at its place in the document", async () => {
    const spec = writeSpec(
      "invalid.yaml",
      "openapi: 3.0.3\ninfo:\n  title: x\n  version: '1'\npaths:\n  /a:\n    get:\n      parameters:\n        - { name: q, in: query, schema: { type: strin } }\n      responses: { '200': { description: ok } }\n",
    );
    const error = await setupError({ spec });
    expect(error).toMatchObject({ at: ["spec"], file: spec, line: 9, suggestion: "string" });
    expect(error.problem).toBe(
      "invalid OpenAPI document: must be equal to one of the allowed values (array, boolean, integer, number, object, string)",
    );
    const missing = writeSpec("missing.yaml", "openapi: 3.0.3\ninfo:\n  title: x\npaths: {}\n");
    expect(await setupError({ spec: missing })).toMatchObject({
      line: 3,
      problem: "invalid OpenAPI document: must have required property 'version'",
    });
    const version = writeSpec(
      "version.yaml",
      "openapi: 2.5.0\ninfo: { title: x, version: '1' }\npaths: {}\n",
    );
    expect(await setupError({ spec: version })).toMatchObject({
      line: 1,
      column: 10,
      problem: "openapi: 2.5.0 is not supported",
    });
  });

  it("no server and no base_url, or a relative server for a document read from a file", async () => {
    const spec = writeSpec(
      "no-server.yaml",
      "openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n  /a: { get: { operationId: a, responses: { '200': { description: ok } } } }\n",
    );
    expect(await setupError({ spec, baseUrl: undefined, auth: {} })).toMatchObject({
      at: ["base_url"],
      problem: "the document declares no server",
    });
    const relative = writeSpec(
      "relative.yaml",
      "openapi: 3.1.0\ninfo: { title: x, version: '1' }\nservers: [{ url: /v1 }]\npaths:\n  /a: { get: { operationId: a, responses: { '200': { description: ok } } } }\n",
    );
    expect((await setupError({ spec: relative, baseUrl: undefined, auth: {} })).problem).toBe(
      'the document\'s server "/v1" is relative, and the document was read from a file',
    );
  });

  it("external $refs of a file are resolved against it", async () => {
    writeSpec(
      "schemas.yaml",
      "Prefs:\n  type: object\n  properties:\n    units: { type: string, enum: [metric, imperial] }\n",
    );
    const spec = writeSpec(
      "external.yaml",
      [
        "openapi: 3.1.0",
        "info: { title: prefs, version: '1' }",
        "paths:",
        "  /preferences/{userId}:",
        "    put:",
        "      operationId: set_preferences",
        "      parameters: [{ name: userId, in: path, required: true, schema: { type: string } }]",
        "      requestBody: { content: { application/json: { schema: { $ref: './schemas.yaml#/Prefs' } } } }",
        "      responses: { '200': { description: ok } }",
        "",
      ].join("\n"),
    );
    const toolset = await billing({ spec, auth: {} }).built;
    const schema = toolset.tools[0]!.input.jsonSchema as any;
    expect(schema.properties.body.properties.units.enum).toEqual(["metric", "imperial"]);
  });

  it("external $refs stay in the document's folder: a file outside it is never read", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "hookwise-openapi-outside-"));
    try {
      writeFileSync(
        join(elsewhere, "secret.yaml"),
        "Secret:\n  type: string\n  description: TOP-SECRET-VALUE\n",
      );
      const outside = join(elsewhere, "secret.yaml");
      const relativeOutside = `../${elsewhere.split("/").at(-1)}/secret.yaml`;
      writeSpec("hop.yaml", `Hop:\n  $ref: '${relativeOutside}#/Secret'\n`);
      const specWith = (ref: string, name: string) =>
        writeSpec(
          name,
          [
            "openapi: 3.1.0",
            "info: { title: prefs, version: '1' }",
            "paths:",
            "  /p:",
            "    post:",
            "      operationId: leak",
            `      requestBody: { content: { application/json: { schema: { $ref: '${ref}' } } } }`,
            "      responses: { '200': { description: ok } }",
            "",
          ].join("\n"),
        );
      for (const [ref, name] of [
        [`${relativeOutside}#/Secret`, "relative.yaml"],
        [`${outside}#/Secret`, "absolute.yaml"],
        ["./hop.yaml#/Hop", "through.yaml"],
      ] as const) {
        const error = await setupError({ spec: specWith(ref, name), auth: {} });
        expect(error.problem, ref).toContain("points outside the document's folder");
        expect(JSON.stringify(error)).not.toContain("TOP-SECRET-VALUE");
      }
      const url = await setupError({ spec: specWith("http://127.0.0.1:9/x.yaml#/X", "url.yaml"), auth: {} });
      expect(url.problem).toContain("points to a URL");
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("Swagger 2.0: host and basePath, a body parameter, collectionFormat, basic auth", async () => {
    const spec = writeSpec(
      "swagger.yaml",
      [
        "swagger: '2.0'",
        "info: { title: legacy, version: '1' }",
        `host: 127.0.0.1:${server.port}`,
        "basePath: /v1",
        "schemes: [http]",
        "securityDefinitions: { basic: { type: basic } }",
        "paths:",
        "  /customers/{customerId}/invoices:",
        "    post:",
        "      operationId: create_invoice",
        "      security: [{ basic: [] }]",
        "      consumes: [application/json]",
        "      parameters:",
        "        - { name: customerId, in: path, required: true, type: string }",
        "        - { name: tags, in: query, type: array, items: { type: string }, collectionFormat: pipes }",
        "        - { name: body, in: body, required: true, schema: { type: object, properties: { memo: { type: string, x-nullable: true } } } }",
        "      responses: { '201': { description: created } }",
        "",
      ].join("\n"),
    );
    const toolset = await billing({
      spec,
      baseUrl: undefined,
      auth: { basic: { username: "bot", password: "${BILLING_TOKEN}" } },
    }).built;
    const create = toolset.tools[0]!;
    expect((create.input.jsonSchema as any).properties.body.properties.memo).toEqual({
      type: ["string", "null"],
    });
    // The test server expects a bearer token: 401 — but the request shows what was sent.
    const error = await failure(call(create, { customerId: "c1", tags: ["a", "b"], body: { memo: null } }));
    expect(error.status).toBe(401);
    expect(server.requests[0]).toMatchObject({ path: "/v1/customers/c1/invoices", query: "tags=a|b" });
    const basic = Buffer.from(`bot:${BILLING_TOKEN}`).toString("base64");
    expect(server.requests[0]!.headers.authorization).toBe(`Basic ${basic}`);
  });

  it("basic auth's base64 value, echoed by the server, is redacted (and so is the password in any case)", async () => {
    const spec = writeSpec(
      "swagger-whoami.yaml",
      [
        "swagger: '2.0'",
        "info: { title: legacy, version: '1' }",
        `host: 127.0.0.1:${server.port}`,
        "basePath: /v1",
        "schemes: [http]",
        "securityDefinitions: { basic: { type: basic } }",
        "paths:",
        "  /whoami:",
        "    get: { operationId: whoami, security: [{ basic: [] }], responses: { '200': { description: ok } } }",
        "",
      ].join("\n"),
    );
    const toolset = await billing({
      spec,
      baseUrl: undefined,
      auth: { basic: { username: "bot", password: "${BILLING_TOKEN}" } },
    }).built;
    const error = await failure(call(toolset.tools[0], {}));
    const basic = Buffer.from(`bot:${BILLING_TOKEN}`).toString("base64");
    expect(server.requests[0]!.headers.authorization).toBe(`Basic ${basic}`);
    expect(error.status).toBe(403);
    const seen = `${error.message}\n${error.body}\n${JSON.stringify(error)}\n${String(error.stack)}`;
    expect(seen).toContain("this token may not ask");
    for (const secret of [basic, basic.slice(4, -4), BILLING_TOKEN, BILLING_TOKEN.toUpperCase()]) {
      expect(seen).not.toContain(secret);
    }
  });
});

describe("documents fetched from a URL", () => {
  let specServer: Server;
  let origin: string;
  const documents = new Map<string, { status?: number; headers?: Record<string, string>; body: string }>();
  beforeAll(async () => {
    specServer = createServer((request, response) => {
      if (request.url === "/hang") return; // never answers
      const found = documents.get(request.url ?? "");
      if (!found) return void response.writeHead(404).end();
      response.writeHead(found.status ?? 200, found.headers ?? { "content-type": "application/yaml" });
      response.end(found.body);
    });
    await new Promise<void>((resolve) => specServer.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(specServer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    specServer.closeAllConnections();
    await new Promise<void>((resolve) => specServer.close(() => resolve()));
  });

  it("a relative server resolves against the document's URL", async () => {
    documents.set("/api/openapi.yaml", {
      body: `openapi: 3.1.0\ninfo: { title: x, version: '1' }\nservers: [{ url: "http://127.0.0.1:${server.port}/v1" }]\npaths:\n  /preferences/{userId}: { get: { operationId: prefs, parameters: [{ name: userId, in: path, required: true, schema: { type: string } }], responses: { '200': { description: ok } } } }\n`,
    });
    const toolset = await billing({ spec: `${origin}/api/openapi.yaml`, baseUrl: undefined, auth: {} }).built;
    expect(await call(toolset.tools[0], { userId: "u9" })).toMatchObject({
      status: 200,
      body: { user: "u9" },
    });
  });

  it("refuses an external $ref, a document over the size cap, a redirect to another host, a slow server, and plain http to a remote host", async () => {
    documents.set("/external.yaml", {
      body: "openapi: 3.1.0\ninfo: { title: x, version: '1' }\npaths:\n  /a:\n    get:\n      responses: { '200': { $ref: 'https://elsewhere.example/responses.yaml' } }\n",
    });
    const external = await setupError({ spec: `${origin}/external.yaml` });
    expect(external).toMatchObject({ file: `${origin}/external.yaml`, line: 6 });
    expect(external.problem).toContain("points outside the document");

    documents.set("/huge.yaml", { headers: { "content-length": String(11 * 1024 * 1024) }, body: "" });
    expect((await setupError({ spec: `${origin}/huge.yaml` })).problem).toMatch(
      /is larger than the 10485760 bytes/,
    );

    documents.set("/away.yaml", {
      status: 302,
      headers: { location: "https://elsewhere.example/openapi.yaml" },
      body: "",
    });
    expect((await setupError({ spec: `${origin}/away.yaml` })).problem).toBe(
      `${origin}/away.yaml redirects to another host (https://elsewhere.example); refused`,
    );

    expect((await setupError({ spec: `${origin}/hang`, timeoutMs: 200 })).problem).toBe(
      `fetching ${origin}/hang took more than 0.2 s`,
    );

    expect(await setupError({ spec: "http://api.example.com/openapi.yaml" })).toMatchObject({
      problem: "the document URL http://api.example.com is not https",
    });
  });
});

it("without @readme/openapi-parser installed, the error names the package to install", async () => {
  await expect(loadOpenApiParser("@readme/openapi-parser-not-installed")).rejects.toThrow(
    "OpenAPI toolsets need the package @readme/openapi-parser-not-installed, which is not installed: npm install @readme/openapi-parser-not-installed",
  );
});
