/**
 * What operators read: `/metrics` in the Prometheus text format (families with HELP and
 * TYPE, counters that count what happened, cumulative histogram buckets), `/healthz`,
 * `/agents`, and `/openapi.json` — a valid OpenAPI 3.1 document that describes every route
 * the app serves.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validate } from "@readme/openapi-parser";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../test/support/server.js";
import { loadConfig } from "../config/load-config.js";
import { createApp } from "./create-app.js";
import { loadHono } from "./http/load-hono.js";
import { openApiDocument } from "./http/openapi-document.js";
import { Counter, Histogram, renderMetrics } from "./prometheus.js";
import { createServerContext } from "./server-context.js";
import { resolveSettings } from "./server-settings.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function started(options: Parameters<typeof startServer>[0]): Promise<TestServer> {
  current = await startServer(options);
  return current;
}

/** name{labels} → value, for every sample line; throws on a line that is not a comment or a sample. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample line: ${line}`);
    out.set(match[1]!, Number(match[2]!.replace("+Inf", "Infinity")));
  }
  return out;
}

describe("/metrics", () => {
  it("counts runs, steps, hook firings, denials, approvals pending, with latencies", async () => {
    const server = await started({
      script: [
        {
          text: "Checking.",
          tool_calls: [
            { name: "bank_balance", args: {} },
            { name: "bank_wipe", args: {} },
          ],
        },
        { text: "120." },
        { tool_calls: [{ name: "bank_pay", args: { amount: 3 } }] },
        { text: "Paid 3." },
      ],
    });
    const json = { accept: "application/json" };
    // One session: its second message goes on with the script's third entry.
    const one = ((await (await server.post("/sessions", {})).json()) as { id: string }).id;
    await (await server.post(`/sessions/${one}/messages`, { text: "balance" }, json)).json();
    await (await server.post(`/sessions/${one}/messages`, { text: "pay 3" }, json)).json();

    const response = await server.fetch("/metrics");
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await response.text();
    for (const family of [
      "hookwise_runs_total counter",
      "hookwise_run_suspensions_total counter",
      "hookwise_steps_total counter",
      "hookwise_hook_firings_total counter",
      "hookwise_denials_total counter",
      "hookwise_model_errors_total counter",
      "hookwise_approvals_pending gauge",
      "hookwise_run_duration_seconds histogram",
      "hookwise_step_duration_seconds histogram",
      "hookwise_tool_duration_seconds histogram",
      "hookwise_http_requests_total counter",
    ]) {
      expect(text).toContain(`# TYPE ${family}`);
      expect(text).toContain(`# HELP ${family.split(" ")[0]} `);
    }
    const values = samples(text);
    expect(values.get('hookwise_runs_total{agent="teller",outcome="completed"}')).toBe(1);
    // Suspended is not an end: the run is counted once, when its resumption ends it.
    expect(values.get('hookwise_runs_total{agent="teller",outcome="suspended"}')).toBeUndefined();
    expect(values.get('hookwise_run_suspensions_total{agent="teller"}')).toBe(1);
    // The suspended step has not finished: it finishes when its run is resumed.
    expect(values.get('hookwise_steps_total{agent="teller"}')).toBe(2);
    expect(values.get('hookwise_hook_firings_total{hook="no-wipe",event="tool_call",effect="deny"}')).toBe(1);
    expect(values.get('hookwise_denials_total{hook="no-wipe",event="tool_call"}')).toBe(1);
    expect(values.get("hookwise_approvals_pending")).toBe(1);
    expect(values.get('hookwise_run_duration_seconds_count{agent="teller"}')).toBe(2);
    expect(values.get('hookwise_run_duration_seconds_bucket{agent="teller",le="+Inf"}')).toBe(2);
    expect(values.get('hookwise_tool_duration_seconds_count{tool="bank_balance"}')).toBe(1);
    expect(
      values.get('hookwise_http_requests_total{method="POST",route="/sessions/:id/messages",status="200"}'),
    ).toBe(2);

    const [approval] = ((await (await server.fetch("/approvals")).json()) as { approvals: { id: string }[] })
      .approvals;
    await (await server.post(`/approvals/${approval!.id}`, { decision: "approve" }, json)).json();
    const after = samples(await (await server.fetch("/metrics")).text());
    expect(after.get('hookwise_runs_total{agent="teller",outcome="completed"}')).toBe(2);
    expect(after.get('hookwise_runs_total{agent="teller",outcome="suspended"}')).toBeUndefined();
    expect(after.get('hookwise_run_suspensions_total{agent="teller"}')).toBe(1);
  });

  it("renders histograms cumulatively and escapes label values", () => {
    const histogram = new Histogram("latency_seconds", "Latency.", [0.1, 1], ["route"]);
    histogram.observe({ route: 'a"b\\c\nd' }, 0.05);
    histogram.observe({ route: 'a"b\\c\nd' }, 0.5);
    histogram.observe({ route: 'a"b\\c\nd' }, 5);
    const counter = new Counter("things_total", "Things,\nper line.");
    counter.inc();
    counter.inc({}, 2);
    expect(renderMetrics([histogram, counter])).toBe(
      [
        "# HELP latency_seconds Latency.",
        "# TYPE latency_seconds histogram",
        'latency_seconds_bucket{route="a\\"b\\\\c\\nd",le="0.1"} 1',
        'latency_seconds_bucket{route="a\\"b\\\\c\\nd",le="1"} 2',
        'latency_seconds_bucket{route="a\\"b\\\\c\\nd",le="+Inf"} 3',
        'latency_seconds_sum{route="a\\"b\\\\c\\nd"} 5.55',
        'latency_seconds_count{route="a\\"b\\\\c\\nd"} 3',
        "# HELP things_total Things,\\nper line.",
        "# TYPE things_total counter",
        "things_total 3",
        "",
      ].join("\n"),
    );
    expect(() => counter.inc({}, -1)).toThrow(/only go up/);
    expect(() => histogram.observe({}, 1)).toThrow(/labels must be exactly: route/);
  });
});

describe("/healthz, /agents, /openapi.json", () => {
  it("report health and agents", async () => {
    const server = await started({});
    expect(await (await server.fetch("/healthz")).json()).toEqual({ status: "ok" });
    expect(await (await server.fetch("/agents")).json()).toEqual({
      agents: [
        {
          id: "teller",
          model: "scripted:./script.yaml",
          scripted: true,
          instructions: "You are a bank teller.",
        },
      ],
      default: "teller",
    });
  });

  it("is a valid OpenAPI 3.1 document describing every route the app serves", async () => {
    const document = openApiDocument("1.2.3");
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);

    const loaded = await loadConfig(
      new URL("../../examples/quickstart/hookwise.yaml", import.meta.url).pathname,
      {
        store: new (await import("../state/memory-store.js")).MemoryStore(),
      },
    );
    try {
      const ctx = createServerContext(loaded, resolveSettings(undefined, {}, {}), {
        env: {},
        closing: new AbortController().signal,
      });
      const app = createApp(await loadHono(), ctx, { version: "1.2.3", webRoot: undefined, log: () => {} });
      const paths = document.paths as Record<string, Record<string, unknown>>;
      const routes = app.routes
        .filter((route) => route.method !== "ALL" && route.path !== "*" && route.path !== "/")
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
      expect(routes.length).toBeGreaterThan(12);
      for (const route of routes) {
        const [method, path] = route.split(" ") as [string, string];
        expect(paths[path]?.[method.toLowerCase()], route).toBeDefined();
      }
      const documented = Object.entries(paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => key !== "parameters")
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(documented.sort()).toEqual([...new Set(routes)].sort());
    } finally {
      await loaded.close();
    }
  });

  it("names every operation, its error answers and its server, and passes Redocly's recommended rules", async () => {
    const document = openApiDocument("1.2.3") as any;
    expect(document.servers).toEqual([expect.objectContaining({ url: "http://127.0.0.1:8787" })]);
    const ids: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === "parameters") continue;
        const where = `${method} ${path}`;
        expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(operation.operationId);
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((status) => status.startsWith("4")),
          where,
        ).toBe(true);
        expect(statuses, where).toContain("500");
        if (operation.requestBody)
          expect(statuses, where).toEqual(expect.arrayContaining(["400", "413", "415"]));
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    // Redocly's own linter, its recommended ruleset: no error and no warning.
    const dir = mkdtempSync(join(tmpdir(), "hookwise-openapi-"));
    try {
      writeFileSync(join(dir, "openapi.json"), JSON.stringify(document));
      const cli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
      const lint = spawnSync(
        process.execPath,
        [cli, "lint", "--extends", "recommended", "--format", "json", join(dir, "openapi.json")],
        {
          encoding: "utf8",
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        },
      );
      const report = JSON.parse(lint.stdout) as {
        totals: { errors: number; warnings: number };
        problems: unknown[];
      };
      expect(report.problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it("answers what it documents: a body that is not JSON is a 415, served with this server's address", async () => {
    const server = await started({});
    const document = (await (await server.fetch("/openapi.json")).json()) as any;
    expect(document.servers[0].url).toBe(server.url);
    for (const [path, operationId] of [
      ["/sessions", "createSession"],
      ["/api/chat", "chat"],
      ["/approvals/a1", "decideApproval"],
    ] as const) {
      const response = await server.fetch(path, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: "hello",
      });
      expect(response.status, path).toBe(415);
      const documented = Object.values(document.paths as Record<string, Record<string, any>>)
        .flatMap((item) => Object.values(item))
        .find((operation) => operation.operationId === operationId);
      expect(Object.keys(documented.responses), operationId).toContain("415");
    }
  });

  it("is served with the package version", async () => {
    const server = await started({});
    const document = (await (await server.fetch("/openapi.json")).json()) as {
      openapi: string;
      info: { version: string };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
