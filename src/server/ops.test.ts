/**
 * What operators read: `/metrics` in the Prometheus text format (families with HELP and
 * TYPE, counters that count what happened, cumulative histogram buckets), `/healthz`,
 * `/agents`, and `/openapi.json` — a valid OpenAPI 3.1 document that describes every route
 * the app serves.
 */
import { validate } from "@readme/openapi-parser";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../test/support/server.js";
import { loadConfig } from "../config/load-config.js";
import { createApp } from "./create-app.js";
import { loadHono } from "./load-hono.js";
import { openApiDocument } from "./openapi-document.js";
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
    expect(await (await server.fetch("/healthz")).json()).toEqual({ status: "ok", agents: ["teller"] });
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
