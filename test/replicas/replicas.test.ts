/**
 * Four real processes (replicas) on one real Redis, 25 concurrent sessions each: every
 * shared count is exact, no turn is lost, an approved tool runs once, and a process killed
 * mid-run loses nothing committed and holds nothing forever.
 *
 * Long mode (`HOOKWISE_LONG=1`, `npm run test:replicas`) repeats the whole trial five times,
 * each on a fresh server and fresh processes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, redisAvailable, startRedis } from "../support/redis-server.js";

const TRIALS = process.env.HOOKWISE_LONG === "1" ? 5 : 1;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const WORKER = join(ROOT, "test/fixtures/replicas/replica-worker.ts");

interface RunSummary {
  sessionId: string;
  runId?: string;
  outcome?: string;
  fired?: string[];
  approvals?: string[];
  users?: number;
  error?: { name?: string; message?: string; reason?: string };
}

class Replica {
  readonly child: ChildProcess;
  readonly ready: Promise<number>;
  #next = 0;
  readonly #waiting = new Map<number, (value: unknown) => void>();
  #stderr = "";

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, ["--import", "tsx", WORKER], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr!.on("data", (chunk) => (this.#stderr += chunk));
    let started: (pid: number) => void;
    let failed: (error: Error) => void;
    this.ready = new Promise((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    this.child.once("exit", (code, signal) =>
      failed(new Error(`replica exited (${code ?? signal}) before it was ready: ${this.#stderr}`)),
    );
    createInterface({ input: this.child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { ready?: number; id?: number; value?: unknown; error?: unknown };
      if (message.ready) started(message.ready);
      else if (message.id !== undefined) {
        if (message.error) throw new Error(`replica command failed: ${JSON.stringify(message.error)}`);
        this.#waiting.get(message.id)?.(message.value);
      }
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  send<T>(command: Record<string, unknown>): Promise<T> {
    const id = this.#next++;
    const answer = new Promise<T>((resolve) => this.#waiting.set(id, resolve as (value: unknown) => void));
    this.child.stdin!.write(`${JSON.stringify({ id, ...command })}\n`);
    return answer;
  }

  runs(sessions: string[], prompt: string): Promise<RunSummary[]> {
    return this.send({ op: "runs", sessions, prompt });
  }

  async run(sessionId: string, prompt: string): Promise<RunSummary> {
    return (await this.runs([sessionId], prompt))[0]!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, "exit");
    this.child.kill("SIGKILL");
    await exited;
  }
}

const users = (messages: { role: string; content: unknown }[]) =>
  messages.filter((message) => message.role === "user").map((message) => message.content);

describe.skipIf(!redisAvailable)("replicas sharing one Redis", () => {
  for (let trial = 1; trial <= TRIALS; trial++) {
    describe(`trial ${trial} of ${TRIALS}: 4 processes × 25 concurrent sessions`, () => {
      let server: RedisServer;
      let redis: Redis;
      let dir: string;
      let log: string;
      const replicas: Replica[] = [];
      const logLines = () => readFileSync(log, "utf8").split("\n").filter(Boolean);
      const session = async (id: string) => {
        const hash = await redis.hgetall(`hookwise:session:${id}`);
        return { version: Number(hash.version), messages: JSON.parse(hash.messages!) as never[] };
      };

      beforeAll(async () => {
        server = await startRedis();
        redis = new Redis(server.url);
        dir = mkdtempSync(join(tmpdir(), "hookwise-replicas-"));
        log = join(dir, "side-effects.log");
        writeFileSync(log, "");
        for (let index = 0; index < 4; index++)
          replicas.push(new Replica({ HOOKWISE_STATE_URL: server.url, REPLICA_LOG: log }));
        await Promise.all(replicas.map((replica) => replica.ready));
      }, 60_000);

      afterAll(async () => {
        await Promise.all(replicas.splice(0).map((replica) => replica.stop()));
        await redis?.quit();
        await server?.stop();
        rmSync(dir, { recursive: true, force: true });
      });

      it("max_fires 10 (global) fires exactly 10 times and rate_limit 15/h exactly 15, over 100 concurrent runs", async () => {
        const all = (
          await Promise.all(
            replicas.map((replica, index) =>
              replica.runs(
                Array.from({ length: 25 }, (_, run) => `p${index}-s${run}`),
                "hello",
              ),
            ),
          )
        ).flat();
        expect(all.filter((run) => run.error)).toEqual([]);
        expect(all).toHaveLength(100);
        expect(all.every((run) => run.outcome === "completed" && run.users === 1)).toBe(true);
        expect(all.filter((run) => run.fired!.includes("capped"))).toHaveLength(10);
        expect(all.filter((run) => run.fired!.includes("rated"))).toHaveLength(15);
        // Refused fires are not recorded in the window (the counter itself may pass 10:
        // concurrent triggers each add one, and only the first ten fire).
        expect(await redis.zcard("hookwise:hits:hook:app:rated:rate:global")).toBe(15);
      }, 120_000);

      it("a session run from one process and continued from another is one transcript; four at once keep four turns", async () => {
        const [a, b] = replicas;
        expect((await a!.run("handed-over", "from A")).outcome).toBe("completed");
        const second = await b!.run("handed-over", "from B");
        expect(second.users).toBe(2);
        expect(users((await session("handed-over")).messages)).toEqual(["from A", "from B"]);

        const together = await Promise.all(
          replicas.map((replica, index) => replica.run("together", `turn ${index}`)),
        );
        expect(together.filter((run) => run.error)).toEqual([]);
        // They took turns: each saw the turns committed before it, none lost.
        expect(together.map((run) => run.users).sort()).toEqual([1, 2, 3, 4]);
        const stored = await session("together");
        expect(stored.version).toBe(4);
        expect(users(stored.messages).sort()).toEqual(["turn 0", "turn 1", "turn 2", "turn 3"]);
        expect(await redis.exists("hookwise:kv:session:together:lease")).toBe(0);
      }, 60_000);

      it("an approval resumed from two processes at once runs its tool once", async () => {
        const [a, b, c] = replicas;
        const suspended = await a!.run("payment", "pay the invoice");
        expect(suspended.outcome).toBe("suspended");
        expect(suspended.approvals).toHaveLength(1);
        const resumes = await Promise.all(
          [b!, c!].map((replica) =>
            replica.send<{ outcome?: string; error?: { name: string; reason: string } }>({
              op: "resume",
              runId: suspended.runId,
              approvals: suspended.approvals,
            }),
          ),
        );
        expect(resumes.filter((resume) => resume.outcome === "completed")).toHaveLength(1);
        const refused = resumes.find((resume) => resume.outcome !== "completed")!;
        expect(refused.error).toMatchObject({ name: "ApprovalError" });
        expect(["busy", "not_suspended"]).toContain(refused.error!.reason);
        expect(logLines().filter((line) => line.startsWith("pay "))).toHaveLength(1);
        // A third resume, after the run ended, runs nothing either.
        const late = await a!.send<{ error?: { reason: string } }>({
          op: "resume",
          runId: suspended.runId,
          approvals: suspended.approvals,
        });
        expect(late.error?.reason).toBe("not_suspended");
        expect(logLines().filter((line) => line.startsWith("pay "))).toHaveLength(1);
        expect(users((await session("payment")).messages)).toEqual(["pay the invoice"]);
      }, 60_000);

      it("a process killed mid-run loses no committed message and leaves no lease held forever", async () => {
        const victim = replicas[3]!;
        const survivor = replicas[0]!;
        expect((await victim.run("killed", "hello")).outcome).toBe("completed");
        void victim.run("killed", "slow work");
        const deadline = Date.now() + 20_000;
        while (!logLines().includes(`slow started by ${victim.pid}`)) {
          if (Date.now() > deadline) throw new Error("the slow tool never started");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await victim.stop();
        // The dead run's lease is still there, but it expires on its own.
        const ttl = await redis.pttl("hookwise:kv:session:killed:lease");
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(30_000);

        // A live process on this host sees the holder is dead and takes the session at once.
        const started = Date.now();
        const after = await survivor.run("killed", "after the crash");
        expect(after.outcome).toBe("completed");
        expect(Date.now() - started).toBeLessThan(5_000);
        const stored = await session("killed");
        expect(users(stored.messages)).toEqual(["hello", "after the crash"]);
        expect(stored.version).toBe(2);
        expect(await redis.exists("hookwise:kv:session:killed:lease")).toBe(0);
      }, 60_000);
    });
  }
});
