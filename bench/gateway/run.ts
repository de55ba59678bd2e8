/**
 * bench/gateway: what `hookwise mcp` adds to a tool call. One process, side by side,
 * interleaved: the tool's `execute` called directly, versus the same tool called with the
 * official SDK client through the gateway (an in-process client/server pair on the SDK's
 * InMemoryTransport) — the agent has a policy and a `tool_call` hook, as a governed
 * gateway would — without records, recorded in memory, and recorded in a SQLite file (the
 * CLI's store). Also the raw SDK round trip of a server with no hookwise in it, so the
 * gateway's own share can be told from the protocol's. Per call latency, p50 and p90 over
 * single calls, in microseconds.
 *
 * Target: the gateway's p50 overhead over the direct call ≤ 1 ms.
 *
 *   npx tsx bench/gateway/run.ts
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpGateway } from "../../src/gateway/mcp-gateway.js";
import {
  createAgent,
  createStore,
  defineHook,
  MemoryStore,
  policy,
  type StateStore,
  scriptedModel,
} from "../../src/index.js";

const TARGET_US = 1_000;
const CALLS = Number(process.env.BENCH_CALLS ?? 3_000);

const add = {
  description: "Adds a and b",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  },
  execute: ({ a, b }: { a: number; b: number }) => String(a + b),
};

/** The gateways made, closed (their sessions' writes done) before their stores. */
const gateways: McpGateway[] = [];

async function gatewayClient(record: boolean, store: StateStore = new MemoryStore()): Promise<Client> {
  const agent = createAgent({
    name: "bench",
    model: scriptedModel([]),
    tools: { add },
    store,
    policies: [policy.deny("add", { when: (args: { a?: number }) => args.a === -1 })],
    hooks: [
      defineHook({
        name: "audit",
        on: "tool_call",
        kind: "decide",
        handler: () => undefined,
      }),
    ],
  });
  const gateway = new McpGateway({ agent, version: "bench", record });
  gateways.push(gateway);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await gateway.connect(serverSide);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(clientSide);
  return client;
}

/** The protocol alone: an SDK server answering the same tool, no hookwise. */
async function bareClient(): Promise<Client> {
  const server = new Server({ name: "bare", version: "1" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "add", description: add.description, inputSchema: add.inputSchema as never }],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: "text", text: add.execute(request.params.arguments as { a: number; b: number }) }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(clientSide);
  return client;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function main(): Promise<void> {
  const cases: Record<string, () => Promise<unknown> | unknown> = {};
  let n = 0;
  cases.direct = () => add.execute({ a: n++, b: 1 });
  const bare = await bareClient();
  cases["SDK round trip, no hookwise"] = () => bare.callTool({ name: "add", arguments: { a: n++, b: 1 } });
  const unrecorded = await gatewayClient(false);
  cases["gateway, not recorded"] = () => unrecorded.callTool({ name: "add", arguments: { a: n++, b: 1 } });
  const recorded = await gatewayClient(true);
  cases["gateway, recorded (memory store)"] = () =>
    recorded.callTool({ name: "add", arguments: { a: n++, b: 1 } });

  // The CLI's default store: SQLite in a file (each call's record and transcript written).
  const folder = mkdtempSync(join(tmpdir(), "hookwise-bench-gateway-"));
  const sqlite = createStore({ kind: "sqlite", path: join(folder, "state.db") });
  const onDisk = await gatewayClient(true, sqlite);
  cases["gateway, recorded (SQLite file)"] = () =>
    onDisk.callTool({ name: "add", arguments: { a: n++, b: 1 } });

  const names = Object.keys(cases);
  const samples = new Map<string, number[]>(names.map((name) => [name, []]));
  for (const name of names) for (let index = 0; index < 300; index++) await cases[name]!();
  // Interleaved: a burst of load from other processes hits every case alike.
  for (let index = 0; index < CALLS; index++) {
    for (const name of names) {
      const start = process.hrtime.bigint();
      await cases[name]!();
      samples.get(name)!.push(Number(process.hrtime.bigint() - start) / 1_000);
    }
  }
  const p50 = new Map<string, number>();
  console.log(`bench/gateway: ${CALLS} calls per case, per call latency (µs)`);
  for (const name of names) {
    const sorted = samples.get(name)!.sort((a, b) => a - b);
    p50.set(name, percentile(sorted, 0.5));
    console.log(
      `  ${name.padEnd(34)} p50 ${percentile(sorted, 0.5).toFixed(1).padStart(7)}  p90 ${percentile(sorted, 0.9).toFixed(1).padStart(7)}`,
    );
  }
  const overhead = p50.get("gateway, recorded (memory store)")! - p50.get("direct")!;
  const own = p50.get("gateway, recorded (memory store)")! - p50.get("SDK round trip, no hookwise")!;
  console.log(
    `  gateway overhead over the direct call at p50: ${overhead.toFixed(1)} µs (target ≤ ${TARGET_US} µs: ${overhead <= TARGET_US ? "met" : "MISSED"}); hookwise's share beyond the SDK round trip: ${own.toFixed(1)} µs`,
  );
  const sqliteOverhead = p50.get("gateway, recorded (SQLite file)")! - p50.get("direct")!;
  console.log(`  with the CLI's SQLite store: ${sqliteOverhead.toFixed(1)} µs over the direct call at p50`);
  await Promise.all([bare.close(), unrecorded.close(), recorded.close(), onDisk.close()]);
  await Promise.all(gateways.map((gateway) => gateway.close()));
  await sqlite.close();
  rmSync(folder, { recursive: true, force: true });
}

await main();
