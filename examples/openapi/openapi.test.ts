/**
 * examples/openapi (shown in docs/tools.md): the billing API's OpenAPI document as tools,
 * run on both surfaces against the example's own server (server.mjs), with the URL and the
 * token given through the environment as a user would. What reached the API is read from
 * the server's record.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { MemoryStore, type RunResult } from "../../src/index.js";
import { cli, copyExample } from "../../test/support/cli.js";
import { runOn, SURFACES } from "../../test/support/surfaces.js";
import { startBillingDemo } from "./server.mjs";

const HERE = fileURLToPath(new URL(".", import.meta.url));
const TOKEN = "example-token-7f3a/+=";

let demo: Awaited<ReturnType<typeof startBillingDemo>>;
const saved = { url: process.env.BILLING_URL, token: process.env.BILLING_TOKEN };
beforeAll(async () => {
  demo = await startBillingDemo({ token: TOKEN });
  process.env.BILLING_URL = demo.url;
  process.env.BILLING_TOKEN = TOKEN;
});
afterAll(async () => {
  await demo.close();
  for (const [name, value] of [
    ["BILLING_URL", saved.url],
    ["BILLING_TOKEN", saved.token],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});
beforeEach(() => {
  demo.requests.length = 0;
});

const toolResults = (result: RunResult) =>
  result.steps.flatMap((step) => step.toolResults.map((record) => record.result));

describe("examples/openapi/hookwise.yaml", () => {
  it.each(SURFACES)(
    "%s: preferences injected, the invoice billed with the token and a request id, the delete denied",
    async (surface) => {
      const loaded = await loadConfig(join(HERE, "hookwise.yaml"), { store: new MemoryStore() });
      try {
        const { result } = await runOn(
          surface,
          await loaded.createAgent(),
          "Bill acme 12 EUR, and drop inv_1",
        );
        expect(result.outcome).toBe("completed");
        expect(result.text).toBe(
          "Billed acme 12.00 EUR (inv_2). I may not delete inv_1: invoices are never deleted by the agent.",
        );
        expect(demo.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
          "GET /v1/users/current/preferences",
          "POST /v1/customers/acme/invoices",
        ]);
        const billed = demo.requests[1]!;
        expect(billed.headers.authorization).toBe(`Bearer ${TOKEN}`);
        expect(billed.headers["x-request-id"]).toBe(`hookwise-${result.sessionId}`);
        expect(JSON.parse(billed.body)).toEqual({ amount: 1200, currency: "EUR" });
        const [created, deleted] = toolResults(result);
        expect(created).toEqual({
          status: 201,
          body: { id: expect.stringMatching(/^inv_\d+$/), customerId: "acme", amount: 1200, currency: "EUR" },
        });
        expect(String(deleted)).toContain("invoices are never deleted by the agent");
        // The first request to the model carried the preferences, as a tool call and its result.
        expect(JSON.stringify(result.requests[0]!.messages)).toContain('"locale":"en-IE"');
      } finally {
        await loaded.close();
      }
    },
  );

  it("a wrong token: the model reads the 401 as the tool's error, as docs/tools.md shows it", async () => {
    process.env.BILLING_TOKEN = "not-the-token";
    const loaded = await loadConfig(join(HERE, "hookwise.yaml"), { store: new MemoryStore() });
    try {
      const { result } = await runOn("run", await loaded.createAgent(), "Bill acme");
      const message =
        'tool "billing.create_invoice" failed: POST /customers/{customerId}/invoices: the server answered 401 Unauthorized: {"error":"bad token"}';
      expect(toolResults(result)[0]).toBe(message);
      const docs = readFileSync(join(HERE, "../../docs/tools.md"), "utf8").replace(/\n {2}/g, " ");
      expect(docs).toContain(`\`${message}\``);
    } finally {
      process.env.BILLING_TOKEN = TOKEN;
      await loaded.close();
    }
  });

  it("hookwise validate lists its tools; hookwise run --json never prints the token", async () => {
    const out = await cli(["validate", "examples/openapi/hookwise.yaml"]);
    expect(out).toMatchObject({ code: 0, stderr: "" });
    expect(out.stdout).toBe(
      [
        "toolsets.billing (openapi): 3 tools",
        "  billing.list_invoices   GET /invoices  List invoices",
        "  billing.create_invoice  POST /customers/{customerId}/invoices  Bill a customer",
        "  billing.delete_invoice  DELETE /invoices/{invoiceId}  Delete an invoice",
        "toolsets.prefs (openapi): 1 tool",
        "  prefs.get_preferences  GET /users/{userId}/preferences  A user's preferences",
        "examples/openapi/hookwise.yaml: valid",
        "",
      ].join("\n"),
    );
    const copy = copyExample("openapi");
    try {
      const run = await cli(["run", join(copy.dir, "hookwise.yaml"), "--prompt", "Bill acme", "--json"]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ outcome: "completed" });
      expect(run.stdout + run.stderr).not.toContain(TOKEN);
    } finally {
      copy.cleanup();
    }
  });

  it("docs/tools.md shows the config word for word, and what validate prints for it", async () => {
    const docs = readFileSync(join(HERE, "../../docs/tools.md"), "utf8");
    const block = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].find(([, body]) =>
      body!.startsWith("# examples/openapi/hookwise.yaml"),
    );
    expect(block?.[1]).toBe(readFileSync(join(HERE, "hookwise.yaml"), "utf8"));
    const texts = [...docs.matchAll(/```text\n([\s\S]*?)```/g)].map(([, body]) => body);
    expect(texts).toContain((await cli(["validate", "examples/openapi/hookwise.yaml"])).stdout);
    delete process.env.BILLING_TOKEN;
    try {
      const unset = await cli(["validate", "examples/openapi/hookwise.yaml"]);
      expect(unset.code).toBe(2);
      expect(texts).toContain(unset.stderr);
    } finally {
      process.env.BILLING_TOKEN = TOKEN;
    }
  });
});
