/**
 * bench/serve: what `hookwise serve` costs over running the same agent in process.
 *
 * - **Idle streams**: 1,000 `GET /sessions/:id/events` streams held open at once; the
 *   server process's resident memory before and after, per stream.
 * - **Throughput**: runs per second through `POST /sessions/:id/messages` (JSON answer),
 *   8 at a time, against the same runs of the same config in this process (`agent.run`);
 *   the ratio is what the HTTP layer keeps of in-process throughput.
 * - **Added latency**: one run at a time, over HTTP and in process; p50 and p99 of each,
 *   and their difference — the latency the server adds to a request.
 *
 * The server runs as its own process (`hookwise serve` from the sources), with a scripted
 * model answering every run with one line of text; a `model_request` hook fires on each.
 *
 *   npx tsx bench/serve/run.ts [--streams 1000] [--runs 400]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig, scriptedModel } from "../../src/index.js";
import { machine } from "../shared/measure.js";

const ROOT = resolve(import.meta.dirname, "../..");

const CONFIG = `
models:
  default: scripted:./script.yaml
runtime:
  state: { kind: memory }
  hooks:
    - id: polite
      on: model_request
      action: { type: inject_message, strategy: system, content: "Answer in one sentence." }
agents:
  - id: teller
    instructions: "You are a bank teller."
`;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

const STREAMS = option("streams", 1000);
const RUNS = option("runs", 400);
const CONCURRENCY = 8;

/** The server process's resident memory (Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

async function startServer(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "src/cli/main.ts"), "serve", join(dir, "hookwise.yaml"), "--port", "0"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, HOOKWISE_SERVER_TOKEN: "" } },
  );
  let out = "";
  let errors = "";
  child.stderr!.on("data", (chunk) => (errors += chunk));
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolveUrl(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the server exited (${code}): ${errors}`)));
  });
  return { child, url };
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

async function inBatches(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json" },
  body: JSON.stringify(body),
});

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "hookwise-bench-serve-"));
  writeFileSync(join(dir, "hookwise.yaml"), CONFIG);
  writeFileSync(join(dir, "script.yaml"), '- text: "Your balance is 120."\n');
  const { child, url } = await startServer(dir);
  try {
    console.log(`bench/serve — ${machine()}`);

    // Sessions for everything below: one message each (a session's script starts over).
    const sessions: string[] = [];
    const total = STREAMS + 2 * RUNS + 40;
    await inBatches(total, 16, async () => {
      const created = (await (await fetch(`${url}/sessions`, json({}))).json()) as { id: string };
      sessions.push(created.id);
    });

    // ── idle streams ────────────────────────────────────────────────────────────
    await new Promise((done) => setTimeout(done, 500));
    const before = rssOf(child.pid!);
    const controller = new AbortController();
    const open = await Promise.all(
      sessions.slice(0, STREAMS).map(async (id) => {
        const response = await fetch(`${url}/sessions/${id}/events`, {
          headers: { accept: "text/event-stream" },
          signal: controller.signal,
        });
        if (response.status !== 200) throw new Error(`stream ${id}: ${response.status}`);
        return response;
      }),
    );
    await new Promise((done) => setTimeout(done, 1000));
    const after = rssOf(child.pid!);
    console.log(
      `idle SSE streams: ${open.length} open; server RSS ${(before / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB; ${((after - before) / open.length / 1024).toFixed(1)} KiB per stream`,
    );
    controller.abort();
    for (const response of open) await response.body?.cancel().catch(() => {});

    // ── throughput and latency ─────────────────────────────────────────────────
    const loaded = await loadConfig(join(dir, "hookwise.yaml"));
    // The same agent and answer as the server's; its scripted model has one answer per run.
    const answers = Array.from({ length: 2 * RUNS + 40 }, () => ({ text: "Your balance is 120." }));
    const agent = await loaded.createAgent(undefined, { model: scriptedModel(answers) });
    const inProcess = async () => {
      const result = await agent.run("What is my balance?");
      if (result.outcome !== "completed") throw new Error(`in process: ${result.outcome}: ${result.reason}`);
    };
    let used = STREAMS;
    const overHttp = async () => {
      const id = sessions[used++]!;
      const response = await fetch(`${url}/sessions/${id}/messages`, json({ text: "What is my balance?" }));
      const result = (await response.json()) as { outcome: string };
      if (result.outcome !== "completed") throw new Error(`over HTTP: ${JSON.stringify(result)}`);
    };
    // Warm both paths up.
    for (let index = 0; index < 20; index++) {
      await inProcess();
      await overHttp();
    }

    const timed = async (work: () => Promise<void>, count: number, concurrency: number) => {
      const latencies: number[] = [];
      const started = performance.now();
      await inBatches(count, concurrency, async () => {
        const at = performance.now();
        await work();
        latencies.push(performance.now() - at);
      });
      return { perSecond: count / ((performance.now() - started) / 1000), latencies };
    };
    const half = Math.floor(RUNS / 2);
    const httpRate = await timed(overHttp, half, CONCURRENCY);
    const localRate = await timed(inProcess, half, CONCURRENCY);
    console.log(
      `runs/s (${CONCURRENCY} at a time): over HTTP ${httpRate.perSecond.toFixed(0)}, in process ${localRate.perSecond.toFixed(0)}; ratio ${(httpRate.perSecond / localRate.perSecond).toFixed(2)}`,
    );
    const httpOne = await timed(overHttp, half, 1);
    const localOne = await timed(inProcess, half, 1);
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    const p50 = percentile(httpOne.latencies, 0.5) - percentile(localOne.latencies, 0.5);
    const p99 = percentile(httpOne.latencies, 0.99) - percentile(localOne.latencies, 0.99);
    console.log(
      `latency, one at a time: over HTTP p50 ${ms(percentile(httpOne.latencies, 0.5))} p99 ${ms(percentile(httpOne.latencies, 0.99))}; in process p50 ${ms(percentile(localOne.latencies, 0.5))} p99 ${ms(percentile(localOne.latencies, 0.99))}; added p50 ${ms(p50)}, p99 ${ms(p99)}`,
    );
    await loaded.close();
  } finally {
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
