/**
 * The approval inbox over real HTTP: a run that asks suspends (nothing of its batch runs),
 * the inbox lists it, a decision continues it in the server — with `hookwise resume`'s
 * rules: the approved call runs exactly once, a second decision is refused and runs
 * nothing — and the stream of the client that sent the message carries on with it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { readSse, type SseEvent, startServer, type TestServer } from "../../test/support/server.js";
import { loadConfig } from "../config/load-config.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const PAY_SCRIPT = [
  { text: "Paying.", tool_calls: [{ name: "bank_pay", args: { amount: 5 }, id: "p5" }] },
  { text: "Paid 5." },
];

async function setup(script: Record<string, unknown>[] = PAY_SCRIPT, config?: string) {
  current = await startServer({ script, ...(config ? { config } : {}) });
  const server = current;
  const created = await server.post("/sessions", { agent: "teller" });
  const { id } = (await created.json()) as { id: string };
  return { server, id };
}

describe("the approval inbox", () => {
  it("a signed-looking token that names no pending approval is refused (404) and decides nothing", async () => {
    const { server, id } = await setup();
    const stream = readSse(await server.post(`/sessions/${id}/messages`, { text: "pay invoice 5" }));
    for (;;) {
      const { value } = await stream.next();
      if (value!.event === "run-finish") break;
    }
    const { approvals } = (await (await server.fetch("/approvals")).json()) as any;
    expect(approvals).toHaveLength(1);
    const forged = await server.post(
      "/approvals/hwa1.not-a-real-token",
      { decision: "approve" },
      { accept: "application/json" },
    );
    expect(forged.status).toBe(404);
    expect(server.ledger()).toEqual([]);
    const still = (await (await server.fetch("/approvals")).json()) as any;
    expect(still.approvals).toEqual(approvals);
  });

  it("suspends, lists, approves once: the run continues in the server and the client's stream follows it", async () => {
    const { server, id } = await setup();
    const stream = readSse(await server.post(`/sessions/${id}/messages`, { text: "pay invoice 5" }));
    const seen: SseEvent[] = [];
    for (;;) {
      const { value } = await stream.next();
      seen.push(value!);
      if (value!.event === "run-finish") break;
    }
    const suspended = seen.at(-1)!.data.result;
    expect(suspended).toMatchObject({
      outcome: "suspended",
      approvals: [{ toolName: "bank_pay", args: { amount: 5 } }],
    });
    expect(server.ledger()).toEqual([]);
    expect(seen.some((event) => event.event === "tool-execution-start")).toBe(false);

    const { approvals } = (await (await server.fetch("/approvals")).json()) as any;
    expect(approvals).toEqual([
      expect.objectContaining({
        id: suspended.approvals[0].id,
        runId: suspended.runId,
        sessionId: id,
        agent: "teller",
        toolName: "bank_pay",
        qualifiedName: "bank.pay",
        args: { amount: 5 },
        reason: "payments need a human",
        input: "pay invoice 5",
      }),
    ]);
    const session = (await (await server.fetch(`/sessions/${id}`)).json()) as any;
    expect(session.status).toBe("waiting");
    expect(session.pendingApprovals).toEqual(approvals);
    const refused = await server.post(`/sessions/${id}/messages`, { text: "anything else?" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as any).error).toMatchObject({ code: "session_waiting", approvals });

    const decided = await server.post(
      `/approvals/${approvals[0].id}`,
      { decision: "approve" },
      { accept: "application/json" },
    );
    expect(decided.status).toBe(200);
    const result = (await decided.json()) as any;
    expect(result).toMatchObject({ outcome: "completed", text: "Paid 5.", runId: suspended.runId });
    expect(server.ledger()).toEqual(["pay 5"]);

    // The client that sent the message saw the resumed run to its end, then its stream closed.
    const rest: SseEvent[] = [];
    for await (const event of stream) rest.push(event);
    expect(rest[0]).toMatchObject({ event: "run-start", data: { runId: suspended.runId, resumed: true } });
    expect(rest.find((event) => event.event === "tool-execution-start")?.data).toMatchObject({
      toolName: "bank_pay",
      args: { amount: 5 },
    });
    expect(rest.at(-1)).toMatchObject({ event: "run-finish", data: { result: { outcome: "completed" } } });

    // Exactly once: the same decision again is refused and runs nothing.
    const again = await server.post(`/approvals/${approvals[0].id}`, { decision: "approve" });
    expect(again.status).toBe(404);
    expect(((await again.json()) as any).error.code).toBe("unknown_approval");
    expect(server.ledger()).toEqual(["pay 5"]);
    expect(((await (await server.fetch("/approvals")).json()) as any).approvals).toEqual([]);

    // One timeline for the run, suspension and resume together.
    const timeline = (await (await server.fetch(`/runs/${suspended.runId}`)).json()) as any;
    const finishes = timeline.events.filter((event: { type: string }) => event.type === "run-finish");
    expect(finishes.map((event: any) => event.result.outcome)).toEqual(["suspended", "completed"]);
    expect(timeline.outcome).toBe("completed");
    const afterwards = (await (await server.fetch(`/sessions/${id}`)).json()) as any;
    expect(afterwards.status).toBe("idle");
    expect(afterwards.runs).toHaveLength(1);
  });

  it("a denial's reason reaches the model; the tool never runs", async () => {
    const { server, id } = await setup([
      { tool_calls: [{ name: "bank_pay", args: { amount: 500 }, id: "p500" }] },
      { text: "Understood, not paid." },
    ]);
    const suspended = (await (
      await server.post(`/sessions/${id}/messages`, { text: "pay 500" }, { accept: "application/json" })
    ).json()) as any;
    expect(suspended.outcome).toBe("suspended");
    const response = await server.post(`/approvals/${suspended.approvals[0].id}`, {
      decision: "deny",
      reason: "over the monthly budget",
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events: SseEvent[] = [];
    for await (const event of readSse(response)) events.push(event);
    expect(events[0]).toMatchObject({ event: "run-start", data: { resumed: true } });
    const result = events.at(-1)!.data.result;
    expect(result.outcome).toBe("completed");
    expect(JSON.stringify(result.messages)).toContain("over the monthly budget");
    expect(server.ledger()).toEqual([]);
  });

  it("refuses a bad decision body and an unknown approval, running nothing", async () => {
    const { server, id } = await setup();
    const suspended = (await (
      await server.post(`/sessions/${id}/messages`, { text: "pay" }, { accept: "application/json" })
    ).json()) as any;
    const bad = await server.post(`/approvals/${suspended.approvals[0].id}`, { decision: "maybe" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.message).toMatch(/decision/);
    expect((await server.post("/approvals/nope", { decision: "approve" })).status).toBe(404);
    expect(server.ledger()).toEqual([]);
    expect(((await (await server.fetch("/approvals")).json()) as any).approvals).toHaveLength(1);
  });

  it("lists and continues a run another process suspended in the shared store", async () => {
    current = await startServer({ config: "", script: [] });
    const dir = current.dir;
    await current.server.close();
    // Another process (`hookwise run`) on the same SQLite file suspends a run.
    const config = join(dir, "shared.yaml");
    const text = readFileSync(join(dir, "hookwise.yaml"), "utf8");
    writeFileSync(config, text.replace("state: { kind: memory }", "state: { kind: sqlite, path: state.db }"));
    writeFileSync(
      join(dir, "script.yaml"),
      stringify([{ tool_calls: [{ name: "bank_pay", args: { amount: 7 } }] }]),
    );
    const other = await loadConfig(config);
    const suspended = await (await other.createAgent("teller")).run("pay 7", { sessionId: "from-cli" });
    await other.close();
    expect(suspended.outcome).toBe("suspended");

    writeFileSync(join(dir, "script.yaml"), stringify([{ text: "Paid 7." }]));
    const { serve } = await import("./serve.js");
    const server = await serve({ config, port: 0, host: "127.0.0.1", log: () => {}, env: {} });
    try {
      const { approvals } = (await (await fetch(`${server.url}/approvals`)).json()) as any;
      expect(approvals).toEqual([
        expect.objectContaining({ runId: suspended.runId, sessionId: "from-cli", args: { amount: 7 } }),
      ]);
      const response = await fetch(`${server.url}/approvals/${approvals[0].id}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ decision: "approve" }),
      });
      expect(((await response.json()) as any).text).toBe("Paid 7.");
      expect(current.ledger()).toEqual(["pay 7"]);
      // The resumed run's session joins the server's list.
      const { sessions } = (await (await fetch(`${server.url}/sessions`)).json()) as any;
      expect(sessions.map((session: { id: string }) => session.id)).toEqual(["from-cli"]);
    } finally {
      await server.close();
    }
  });
});

describe("the inbox with two sessions waiting", () => {
  it("GET /sessions/:id (and its 409) shows only that session's approvals; GET /approvals lists the oldest first", async () => {
    const { server, id: first } = await setup();
    const suspend = async (session: string) => {
      const stream = readSse(await server.post(`/sessions/${session}/messages`, { text: "pay invoice 5" }));
      for (;;) {
        const { value } = await stream.next();
        if (value!.event === "run-finish")
          return value!.data.result as { runId: string; approvals: { id: string }[] };
      }
    };
    const a = await suspend(first);
    await new Promise((resolve) => setTimeout(resolve, 20)); // suspended at distinct times
    const { id: second } = (await (await server.post("/sessions", { agent: "teller" })).json()) as {
      id: string;
    };
    const b = await suspend(second);
    expect(server.ledger()).toEqual([]);

    const listed = ((await (await server.fetch("/approvals")).json()) as any).approvals;
    expect(listed.map((item: any) => item.sessionId)).toEqual([first, second]);
    expect(listed.map((item: any) => item.id)).toEqual([a.approvals[0]!.id, b.approvals[0]!.id]);

    for (const [session, run] of [
      [first, a],
      [second, b],
    ] as const) {
      const read = (await (await server.fetch(`/sessions/${session}`)).json()) as any;
      expect(read.pendingApprovals.map((item: any) => item.id)).toEqual([run.approvals[0]!.id]);
      expect(read.pendingApprovals.every((item: any) => item.sessionId === session)).toBe(true);
      const busy = await server.post(`/sessions/${session}/messages`, { text: "again" });
      expect(busy.status).toBe(409);
      const body = JSON.stringify(await busy.json());
      expect(body).toContain(run.approvals[0]!.id);
      const other = run === a ? b : a;
      expect(body).not.toContain(other.approvals[0]!.id);
    }
  });
});
