// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax of configs is what these tests exercise
/**
 * `kind: openapi` toolsets in config, run by agents with the scripted model against a real
 * HTTP server (test/fixtures/openapi/billing-server.ts). The same YAML policies, hooks,
 * approvals and seed-000 injections govern REST tools as any other — through `run()` and
 * `stream()` — and what reached the server is read from the server's own record.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BILLING_TOKEN,
  type BillingServer,
  startBillingServer,
} from "../../../test/fixtures/openapi/billing-server.js";
import { cli } from "../../../test/support/cli.js";
import { runOn, SURFACES, type SurfaceName } from "../../../test/support/surfaces.js";
import type { Agent, AgentEvent, ApprovalDecision, RunResult } from "../../index.js";
import { MemoryStore } from "../../state/memory-store.js";
import { loadConfig } from "../load-config.js";
import { ConfigError, formatIssue } from "../source/config-error.js";

const SPEC = fileURLToPath(new URL("../../../test/fixtures/openapi/billing.yaml", import.meta.url));

let server: BillingServer;
let dir: string;
const saved = { url: process.env.BILLING_URL, token: process.env.BILLING_TOKEN };
beforeAll(async () => {
  server = await startBillingServer();
  process.env.BILLING_URL = server.baseUrl;
  process.env.BILLING_TOKEN = BILLING_TOKEN;
});
afterAll(async () => {
  await server.close();
  for (const [name, value] of [
    ["BILLING_URL", saved.url],
    ["BILLING_TOKEN", saved.token],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-openapi-config-"));
  server.requests.length = 0;
  server.preferences = { units: "metric", language: "en" };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const TOOLSET = `
toolsets:
  api:
    kind: openapi
    spec: ${SPEC}
    base_url: \${BILLING_URL}
    operations: ["!get_invoice"]
    auth:
      bearerAuth: { token: "\${BILLING_TOKEN}" }
`;

/** A config (the toolset above plus `rest`) and the scripted model's answers. */
function write(rest: string, script: string): string {
  writeFileSync(
    join(dir, "hookwise.yaml"),
    `models: { default: "scripted:./script.yaml" }\n${TOOLSET}${rest}`,
  );
  writeFileSync(join(dir, "script.yaml"), script);
  return join(dir, "hookwise.yaml");
}

async function agentFor(
  config: string,
  store = new MemoryStore(),
): Promise<{ agent: Agent; close(): Promise<void> }> {
  const loaded = await loadConfig(config, { store, logger: quiet });
  return { agent: await loaded.createAgent(), close: () => loaded.close() };
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function toolResults(result: RunResult): unknown[] {
  return result.messages.flatMap((message) =>
    message.role === "tool" && Array.isArray(message.content)
      ? message.content.flatMap((part) =>
          part.type === "tool-result" ? [(part.output as { value: unknown }).value] : [],
        )
      : [],
  );
}

const CREATE = `{ name: api_create_invoice, args: { customerId: acme, notify: true, body: { total: { amount: 5000, currency: EUR } } } }`;

describe.each(SURFACES)("%s: hooks and policies on OpenAPI tools", (surface: SurfaceName) => {
  it("a YAML deny policy on api.delete_* stops the call before it reaches the server; others go through", async () => {
    const config = write(
      `runtime:\n  policies:\n    - { decision: deny, tool: "api.delete_*", reason: "invoices are never deleted by the agent" }\n`,
      `- tool_calls:\n    - { name: api_delete_invoice, args: { invoiceId: inv_1 } }\n    - { name: api_list_invoices, args: { status: paid } }\n- text: done\n`,
    );
    const { agent, close } = await agentFor(config);
    try {
      const { result } = await runOn(surface, agent, "clean up");
      expect(result.outcome).toBe("completed");
      expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        "GET /v1/invoices",
      ]);
      const [denied, listed] = toolResults(result);
      expect(String(denied)).toContain("invoices are never deleted by the agent");
      expect(listed).toEqual({
        status: 200,
        body: [{ id: "inv_1", total: { amount: 10, currency: "EUR" } }],
      });
    } finally {
      await close();
    }
  });

  it("a gate on large invoices: the request is never sent, the model reads the reason", async () => {
    const config = write(
      `runtime:
  hooks:
    - id: finance_review
      on: tool_call
      condition:
        type: all_of
        conditions:
          - { type: tool_name, match: api.create_invoice }
          - { type: expression, expr: "args.body.total.amount > 1000" }
      action: { type: gate, reason: "invoices over 1000 go through finance ({{tool.params.customerId}})" }
`,
      `- tool_calls:\n    - ${CREATE}\n- text: noted\n`,
    );
    const { agent, close } = await agentFor(config);
    try {
      const { result } = await runOn(surface, agent, "bill acme");
      expect(server.requests).toEqual([]);
      expect(String(toolResults(result)[0])).toContain("invoices over 1000 go through finance (acme)");
      expect(result.events).toContainEqual(
        expect.objectContaining({ event: "tool_call", hook: "finance_review" }),
      );
    } finally {
      await close();
    }
  });

  it("transform_params rewrites what the server receives", async () => {
    const config = write(
      `runtime:
  hooks:
    - id: tag_requests
      on: tool_call
      condition: { type: tool_name, match: "api.*" }
      action:
        type: transform_params
        transformation:
          set: { X-Request-Id: "hookwise-{{session.id}}", notify: false }
`,
      `- tool_calls:\n    - ${CREATE}\n- text: billed\n`,
    );
    const { agent, close } = await agentFor(config);
    try {
      const { result, events } = await runOn(surface, agent, "bill acme");
      expect(result.outcome).toBe("completed");
      const [sent] = server.requests;
      expect(sent).toMatchObject({
        method: "POST",
        path: "/v1/customers/acme/invoices",
        query: "notify=false",
      });
      expect(sent!.headers["x-request-id"]).toBe(`hookwise-${result.sessionId}`);
      expect(toolResults(result)[0]).toMatchObject({ status: 201, body: { id: "inv_2" } });
      if (surface === "stream") {
        expect(events.find((event) => event.type === "tool-execution-start")).toMatchObject({
          args: { notify: false, "X-Request-Id": `hookwise-${result.sessionId}` },
        });
      }
    } finally {
      await close();
    }
  });

  it("an approval suspends the call (nothing sent); approving it sends it once", async () => {
    const config = write(
      `runtime:\n  policies:\n    - { decision: ask_user, tool: api.create_invoice }\n`,
      `- tool_calls:\n    - ${CREATE}\n- text: Invoice created.\n`,
    );
    const store = new MemoryStore();
    const first = await agentFor(config, store);
    try {
      const { result: suspended } = await runOn(surface, first.agent, "bill acme");
      expect(suspended.outcome).toBe("suspended");
      expect(suspended.approvals).toEqual([
        expect.objectContaining({
          qualifiedName: "api.create_invoice",
          args: expect.objectContaining({ customerId: "acme" }),
        }),
      ]);
      expect(server.requests).toEqual([]);

      const decisions: ApprovalDecision[] = [{ id: suspended.approvals![0]!.id, approved: true }];
      const resumed = await resumeOn(surface, first.agent, suspended.runId, decisions);
      expect(resumed.outcome).toBe("completed");
      expect(resumed.text).toBe("Invoice created.");
      expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        "POST /v1/customers/acme/invoices",
      ]);
      expect(toolResults(resumed)[0]).toMatchObject({ status: 201, body: { customer: "acme" } });
    } finally {
      await first.close();
    }
  });

  it("a seed-000 manifest injects a REST call's result at run start", async () => {
    const config = write(
      `  prefs:
    kind: openapi
    spec: ${SPEC}
    base_url: \${BILLING_URL}
    operations: [get_preferences]
hooks:
  - kind: tool_call
    event: on_request_start
    toolset_name: prefs
    tool_name: get_preferences
    arguments: { userId: u1 }
agents:
  - id: assistant
    tools: [api.list_invoices]
`,
      `- text: You prefer metric units.\n`,
    );
    const { agent, close } = await agentFor(config);
    try {
      const { result } = await runOn(surface, agent, "what units do I use?");
      expect(result.outcome).toBe("completed");
      expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        "GET /v1/preferences/u1",
      ]);
      const sent = JSON.stringify(result.requests[0]!.messages);
      expect(sent).toContain("prefs_get_preferences");
      expect(toolResults(result)).toEqual([
        { status: 200, body: { user: "u1", units: "metric", language: "en" } },
      ]);
    } finally {
      await close();
    }
  });

  it("a server that echoes the token in a 403 leaks it nowhere: not the transcript, the trace or the result", async () => {
    const config = write(
      `runtime:
  hooks:
    - { id: audit, on: tool_result, action: { type: log, message: "{{tool.name}}: {{tool.error}}" } }
`,
      `- tool_calls:\n    - { name: api_whoami, args: {} }\n- text: refused\n`,
    );
    const logged: string[] = [];
    const store = new MemoryStore();
    const loaded = await loadConfig(config, {
      store,
      logger: { ...quiet, info: (message) => logged.push(message), warn: (message) => logged.push(message) },
    });
    try {
      const { result, events } = await runOn(surface, await loaded.createAgent(), "who am I?", {
        sessionId: "s",
      });
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${BILLING_TOKEN}`);
      const error = String(toolResults(result)[0]);
      expect(error).toContain("403");
      expect(error).toContain("Bearer [redacted]");
      const everything = JSON.stringify({
        result,
        events,
        logged,
        session: await store.loadSession(result.sessionId),
      });
      expect(everything).not.toContain(BILLING_TOKEN);
      expect(everything).not.toContain(encodeURIComponent(BILLING_TOKEN));
    } finally {
      await loaded.close();
    }
  });
});

async function resumeOn(surface: SurfaceName, agent: Agent, runId: string, decisions: ApprovalDecision[]) {
  if (surface === "run") return agent.resume(runId, decisions);
  const live = agent.resumeStream(runId, decisions);
  const events: AgentEvent[] = [];
  for await (const event of live) events.push(event);
  return live.result;
}

describe("config errors and hookwise validate", () => {
  it("validate lists the tools a document yields (and its warnings)", async () => {
    const config = write("", "- text: hi\n");
    const out = await cli(["validate", config]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("toolsets.api (openapi): 12 tools");
    expect(out.stdout).toMatch(
      /\n {2}api\.create_invoice +POST \/customers\/\{customerId\}\/invoices {2}Create an invoice\n/,
    );
    expect(out.stdout).toMatch(/warning: toolsets\.api\.spec: POST \/reports \(post_reports\) is left out/);
    expect(out.stdout).toContain(`${config}: valid (1 warning)`);
  });

  it("an unset variable is an error at the config's line and column, naming it — in validate and in run", async () => {
    const config = write("", "- text: hi\n");
    const saved = process.env.BILLING_TOKEN;
    delete process.env.BILLING_TOKEN;
    try {
      const out = await cli(["validate", config]);
      expect(out.code).toBe(2);
      expect(out.stderr).toContain(
        `${config}:10:28: toolsets.api.auth.bearerAuth.token: environment variable BILLING_TOKEN is not set`,
      );
      const loaded = await loadConfig(config, { store: new MemoryStore(), logger: quiet });
      try {
        const error = await loaded.createAgent().catch((caught: unknown) => caught);
        expect(ConfigError.isInstance(error)).toBe(true);
        expect((error as ConfigError).issues.map(formatIssue)).toEqual([
          `${config}:10:28: toolsets.api.auth.bearerAuth.token: environment variable BILLING_TOKEN is not set; expected BILLING_TOKEN to be set in the environment hookwise runs in`,
        ]);
      } finally {
        await loaded.close();
      }
      const run = await cli(["run", config, "--prompt", "hi"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("environment variable BILLING_TOKEN is not set");
    } finally {
      process.env.BILLING_TOKEN = saved;
    }
  });

  it("a document that does not parse is an error at the document's line and column", async () => {
    writeFileSync(join(dir, "broken.yaml"), "openapi: 3.0.3\ninfo:\n  title: x\n  version: [1\npaths: {}\n");
    writeFileSync(join(dir, "script.yaml"), "- text: x\n");
    writeFileSync(
      join(dir, "hookwise.yaml"),
      'models: { default: "scripted:./script.yaml" }\ntoolsets:\n  api: { kind: openapi, spec: ./broken.yaml, base_url: "http://127.0.0.1:9" }\n',
    );
    const out = await cli(["validate", join(dir, "hookwise.yaml")]);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      new RegExp(
        `^${join(dir, "broken.yaml")}:5:1: toolsets\\.api\\.spec: YAML syntax: `.replaceAll("/", "\\/"),
      ),
    );
  });

  it("run --json: the token is absent from the printed RunResult", async () => {
    const config = write("", `- tool_calls:\n    - { name: api_whoami, args: {} }\n- text: refused\n`);
    const out = await cli(["run", config, "--prompt", "who am I?", "--json"]);
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout) as RunResult;
    expect(JSON.stringify(result.messages)).toContain("Bearer [redacted]");
    expect(out.stdout).not.toContain(BILLING_TOKEN);
    expect(out.stderr).not.toContain(BILLING_TOKEN);
  });
});
