/**
 * The server's API over real HTTP on 127.0.0.1: sessions, a message streamed as SSE or
 * answered as JSON, the timeline it leaves, one run at a time per session, a disconnect
 * that aborts the run, session ends (DELETE, idle expiry) firing `session_end`, and the
 * request rules (JSON only, size limit, clear 400s).
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  BANK_CONFIG,
  collectSse,
  readSse,
  type SseEvent,
  startServer,
  type TestServer,
} from "../../test/support/server.js";
import { loadConfig } from "../config/load-config.js";
import { serve } from "./serve.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function start(options: Parameters<typeof startServer>[0]): Promise<TestServer> {
  current = await startServer(options);
  return current;
}

/** The bank config with a specialist, `clerk`, that the teller lists as a tool. */
const WITH_CLERK = `${BANK_CONFIG}
  - id: clerk
    role: specialist
    model: clerk
    tools: [bank.*]
`
  .replace("models:\n", "models:\n  clerk: scripted:./clerk.yaml\n")
  .replace("tools: [bank.*]\n", "tools: [bank.*, agents.clerk]\n");

async function newSession(
  server: Pick<TestServer, "post">,
  body: unknown = { agent: "teller" },
): Promise<string> {
  const response = await server.post("/sessions", body);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(25);
  }
}

const BALANCE_SCRIPT = [
  {
    text: "Checking.",
    tool_calls: [
      { name: "bank_balance", args: {}, id: "b1" },
      { name: "bank_wipe", args: {}, id: "w1" },
    ],
  },
  { text: "Your balance is 120." },
];

describe("POST /sessions/:id/messages", () => {
  it("streams the run as SSE: hooks, tool calls and results in order; the gate's tool never runs", async () => {
    const server = await start({ script: BALANCE_SCRIPT });
    const id = await newSession(server);
    const response = await server.post(`/sessions/${id}/messages`, { text: "What is my balance?" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await collectSse(response);
    const types = events.map((event) => event.event);
    expect(types[0]).toBe("run-start");
    expect(types.at(-1)).toBe("run-finish");
    for (const event of events) expect(event.data.type).toBe(event.event);
    expect(events[0]!.data).toMatchObject({
      sessionId: id,
      input: "What is my balance?",
      agentPath: ["teller"],
    });
    // The stream's `hook` events (a dispatch's firings each) are one SSE event per firing.
    const hooks = events.filter((event) => event.event === "hook");
    expect(hooks.length).toBeGreaterThan(1);
    for (const event of hooks) expect(Object.keys(event.data).sort()).not.toContain("firings");
    const gate = events.find((event) => event.event === "hook" && event.data.hook === "no-wipe");
    expect(gate?.data).toMatchObject({
      event: "tool_call",
      kind: "decide",
      effect: "deny",
      detail: "wiping accounts is not allowed",
    });
    const results = events.filter((event) => event.event === "tool-result").map((event) => event.data);
    expect(results).toEqual([
      expect.objectContaining({ toolCallId: "b1", isError: false, result: { balance: 120 } }),
      expect.objectContaining({ toolCallId: "w1", isError: true }),
    ]);
    expect(String(results[1].result)).toContain("wiping accounts is not allowed");
    expect(types.indexOf("tool-call")).toBeLessThan(types.indexOf("tool-result"));
    const text = events
      .filter((event) => event.event === "text-delta")
      .map((event) => event.data.delta)
      .join("");
    expect(text).toBe("Checking.Your balance is 120.");
    expect(events.at(-1)!.data.result).toMatchObject({ outcome: "completed", text: "Your balance is 120." });
    expect(server.ledger()).toEqual(["balance"]);

    // The session keeps the transcript; the run left its timeline.
    const session = (await (await server.fetch(`/sessions/${id}`)).json()) as any;
    expect(session).toMatchObject({
      id,
      agent: "teller",
      status: "idle",
      title: "What is my balance?",
      pendingApprovals: [],
    });
    expect(session.messages.map((message: { role: string }) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(session.runs).toEqual([
      expect.objectContaining({ outcome: "completed", input: "What is my balance?" }),
    ]);
    const timeline = (await (await server.fetch(`/runs/${session.runs[0].runId}`)).json()) as any;
    expect(timeline.live).toBe(false);
    expect(timeline.events).toContainEqual({ type: "text", step: 0, text: "Checking." });
    expect(timeline.events.at(-1)).toMatchObject({
      type: "run-finish",
      result: {
        outcome: "completed",
        steps: [
          { index: 0, attempts: 1 },
          { index: 1, attempts: 1 },
        ],
      },
    });
    expect(timeline.events.some((event: { type: string }) => event.type === "text-delta")).toBe(false);
  });

  it("answers the RunResult with Accept: application/json", async () => {
    const server = await start({ script: BALANCE_SCRIPT });
    const id = await newSession(server);
    const response = await server.post(
      `/sessions/${id}/messages`,
      { text: "Balance?" },
      { accept: "application/json" },
    );
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const result = (await response.json()) as any;
    expect(result).toMatchObject({ outcome: "completed", text: "Your balance is 120.", sessionId: id });
    expect(result.events).toContainEqual(
      expect.objectContaining({ hook: "no-wipe", effect: "deny", detail: "wiping accounts is not allowed" }),
    );
  });

  it("shows failed attempts: a 429 retried is an attempt-error event and a second attempt", async () => {
    const server = await start({
      script: [{ error: { status: 429, message: "slow down" } }, { text: "Hello." }],
    });
    const id = await newSession(server);
    const events = await collectSse(await server.post(`/sessions/${id}/messages`, { text: "Hi" }));
    expect(events.find((event) => event.event === "attempt-error")?.data).toMatchObject({
      step: 0,
      attempt: 1,
      error: { type: "rate_limit", status: 429, retryable: true },
    });
    expect(events.at(-1)!.data.result.steps[0].attempts).toBe(2);
    const metrics = await (await server.fetch("/metrics")).text();
    expect(metrics).toContain('hookwise_model_errors_total{agent="teller",class="rate_limit"} 1');
  });

  it("a second message to a busy session gets 409 at once with busy_wait 0", async () => {
    const server = await start({
      script: [{ text: "slow", delay_ms: 1500 }, { text: "second" }],
      config: "server: { busy_wait: 0 }",
    });
    const id = await newSession(server);
    const first = await server.post(`/sessions/${id}/messages`, { text: "one" });
    const stream = readSse(first);
    const opening = (await stream.next()).value;
    expect(opening?.event).toBe("run-start");
    const live = (await (await server.fetch(`/runs/${opening!.data.runId}`)).json()) as any;
    expect(live).toMatchObject({ live: true, sessionId: id, agent: "teller" });
    expect(live.events[0]).toMatchObject({ type: "run-start", input: "one" });
    const busy = await server.post(`/sessions/${id}/messages`, { text: "two" });
    expect(busy.status).toBe(409);
    expect(((await busy.json()) as any).error.code).toBe("session_busy");
    const status = (await (await server.fetch(`/sessions/${id}`)).json()) as any;
    expect(status.status).toBe("running");
    for await (const _event of stream) {
      // the first run finishes
    }
    const second = await server.post(
      `/sessions/${id}/messages`,
      { text: "two" },
      { accept: "application/json" },
    );
    expect(((await second.json()) as any).text).toBe("second");
  });

  it("a second message waits its turn (busy_wait): the runs never interleave in the transcript", async () => {
    const server = await start({
      script: [{ text: "first answer", delay_ms: 600 }, { text: "second answer" }],
    });
    const id = await newSession(server);
    const json = { accept: "application/json" };
    const first = server.post(`/sessions/${id}/messages`, { text: "first question" }, json);
    await sleep(100);
    const second = server.post(`/sessions/${id}/messages`, { text: "second question" }, json);
    const results = (await Promise.all([(await first).json(), (await second).json()])) as any[];
    expect(results.map((result) => result.text)).toEqual(["first answer", "second answer"]);
    const session = (await (await server.fetch(`/sessions/${id}`)).json()) as any;
    expect(session.messages.map((message: any) => message.content)).toEqual([
      "first question",
      expect.anything(),
      "second question",
      expect.anything(),
    ]);
    expect(JSON.stringify(session.messages[1])).toContain("first answer");
  });

  it.each(["SSE", "JSON"])("a client that disconnects (%s) aborts its run", async (mode) => {
    const server = await start({ script: [{ text: "never seen", delay_ms: 10_000 }] });
    const id = await newSession(server);
    const controller = new AbortController();
    const started = Date.now();
    const response = fetch(`${server.url}/sessions/${id}/messages`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(mode === "JSON" ? { accept: "application/json" } : {}),
      },
      body: JSON.stringify({ text: "take your time" }),
      signal: controller.signal,
    });
    if (mode === "SSE") {
      const stream = readSse(await response);
      expect((await stream.next()).value?.event).toBe("run-start");
    } else {
      await until(
        async () => ((await (await server.fetch(`/sessions/${id}`)).json()) as any).status,
        (status) => status === "running",
      );
    }
    controller.abort();
    await response.catch(() => {});
    const session = await until(
      async () => (await (await server.fetch(`/sessions/${id}`)).json()) as any,
      (value) => value.status === "idle" && value.runs.length === 1,
    );
    expect(session.runs[0]).toMatchObject({ outcome: "error", reason: expect.stringContaining("aborted") });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("a scripted model keeps its place in the script per session", () => {
  const json = { accept: "application/json" };
  async function say(server: Pick<TestServer, "post">, id: string, text: string): Promise<string> {
    const response = await server.post(`/sessions/${id}/messages`, { text }, json);
    expect(response.status).toBe(200);
    return ((await response.json()) as { text: string }).text;
  }

  it("two sessions, even at once, each get the script's first answer; a second turn gets the next entry", async () => {
    const server = await start({
      script: [{ text: "first", delay_ms: 100 }, { text: "second" }, { text: "third" }],
    });
    const [one, two] = [await newSession(server), await newSession(server)];
    expect(await Promise.all([say(server, one, "hi"), say(server, two, "hi")])).toEqual(["first", "first"]);
    expect(await say(server, one, "again")).toBe("second");
    expect(await say(server, two, "again")).toBe("second");
    expect(await say(server, one, "and again")).toBe("third");
  });

  it("the served config's own agent, run outside the server, reads the script from a place of its own (not a session's)", async () => {
    const files = await start({ script: [{ text: "first" }, { text: "second" }] });
    const loaded = await loadConfig(join(files.dir, "hookwise.yaml"));
    const server = await serve({ config: loaded, port: 0, host: "127.0.0.1", log: () => {}, env: {} });
    try {
      const agent = await loaded.createAgent("teller");
      const outside = await agent.run("hi");
      expect(outside.outcome, outside.reason).toBe("completed");
      expect(outside.text).toBe("first");
      expect((await agent.run("again")).text).toBe("second");
      // A session on the server starts from the script's beginning all the same.
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...json },
          body: JSON.stringify(body),
        });
      const created = (await (await post("/sessions", { agent: "teller" })).json()) as { id: string };
      const answer = (await (await post(`/sessions/${created.id}/messages`, { text: "hi" })).json()) as {
        text: string;
      };
      expect(answer.text).toBe("first");
    } finally {
      await server.close();
    }
  });

  it("a sub-agent's scripted model keeps its place per session too: another session's run does not advance it", async () => {
    const server = await start({
      replaceConfig: WITH_CLERK,
      script: [
        { tool_calls: [{ name: "agents_clerk", args: { task: "count" } }] },
        { text: "the clerk is done" },
        { tool_calls: [{ name: "agents_clerk", args: { task: "count again" } }] },
        { text: "the clerk is done again" },
      ],
      files: { "clerk.yaml": "- text: clerk first\n- text: clerk second\n" },
    });
    const clerkAnswers = async (id: string, text: string) => {
      const response = await server.post(`/sessions/${id}/messages`, { text }, json);
      const result = (await response.json()) as {
        outcome: string;
        steps: { toolResults: { result: unknown }[] }[];
      };
      expect(result.outcome).toBe("completed");
      return result.steps.flatMap((step) => step.toolResults.map((toolResult) => toolResult.result));
    };
    const [one, two] = [await newSession(server), await newSession(server)];
    expect(await clerkAnswers(one, "hi")).toEqual(["clerk first"]);
    expect(await clerkAnswers(two, "hi")).toEqual(["clerk first"]);
    expect(await clerkAnswers(one, "again")).toEqual(["clerk second"]);
  });

  it("a specialist runs only as its caller's tool: a client cannot start it on its own, past the caller's hooks", async () => {
    const server = await start({
      replaceConfig: WITH_CLERK,
      script: [{ text: "hi" }],
      files: { "clerk.yaml": '- tool_calls: [{ name: bank_balance, args: {} }]\n- text: "done"\n' },
    });
    const refused = await server.post("/sessions", { agent: "clerk" });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).error).toMatchObject({
      code: "specialist_agent",
      message:
        'agent "clerk" is a specialist: it runs only as a tool of an agent that lists it (agents: teller)',
    });
    const session = await newSession(server);
    const message = await server.post(`/sessions/${session}/messages`, { text: "hi", agent: "clerk" });
    expect(message.status).toBe(400);
    expect(server.ledger()).toEqual([]);
    expect(
      ((await (await server.fetch("/agents")).json()) as any).agents.map((agent: any) => agent.id),
    ).toEqual(["teller"]);
  });

  it("a session ended (DELETE) and created again under its id starts at the script's first entry", async () => {
    const server = await start({ script: [{ text: "first" }, { text: "second" }] });
    const id = await newSession(server, { agent: "teller", id: "again" });
    expect(await say(server, id, "hi")).toBe("first");
    expect((await server.fetch(`/sessions/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(await newSession(server, { agent: "teller", id: "again" })).toBe("again");
    expect(await say(server, id, "hi")).toBe("first");
  });

  it("with a persistent store, a session goes on from its place on a restarted server", async () => {
    const server = await start({
      replaceConfig: BANK_CONFIG.replace(
        "state: { kind: memory }",
        "state: { kind: sqlite, path: state.db }",
      ),
      script: [{ text: "first" }, { text: "second" }],
    });
    const id = await newSession(server);
    expect(await say(server, id, "hi")).toBe("first");
    await server.server.close();
    const next = await serve({ config: join(server.dir, "hookwise.yaml"), port: 0, log: () => {}, env: {} });
    try {
      const post: TestServer["post"] = (path, body, headers = {}) =>
        fetch(next.url + path, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
      expect(await say({ post }, id, "again")).toBe("second");
      expect(await say({ post }, await newSession({ post }), "hi")).toBe("first");
    } finally {
      await next.close();
    }
  });
});

describe("ending sessions", () => {
  async function notifications(server: TestServer) {
    const controller = new AbortController();
    const response = await fetch(`${server.url}/events`, { signal: controller.signal });
    const seen: SseEvent[] = [];
    const reading = (async () => {
      try {
        for await (const event of readSse(response)) seen.push(event);
      } catch {
        // aborted
      }
    })();
    return {
      seen,
      stop: async () => {
        controller.abort();
        await reading;
      },
    };
  }

  it("DELETE fires session_end and removes the session and its transcript", async () => {
    const server = await start({ script: [{ text: "Hi." }] });
    const id = await newSession(server);
    await (
      await server.post(`/sessions/${id}/messages`, { text: "hello" }, { accept: "application/json" })
    ).json();
    const feed = await notifications(server);
    const deleted = await server.fetch(`/sessions/${id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    const seen = await until(
      async () => feed.seen,
      (events) => events.some((event) => event.event === "notification"),
    );
    await feed.stop();
    expect(seen.find((event) => event.event === "notification")?.data).toMatchObject({
      title: "session ended",
      message: `session ${id} ended`,
      hook: "goodbye",
      sessionId: id,
    });
    expect((await server.fetch(`/sessions/${id}`)).status).toBe(404);
    expect(((await (await server.fetch("/sessions")).json()) as any).sessions).toEqual([]);
    expect((await server.fetch(`/sessions/${id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("a session idle for server.session_idle ends: session_end fires, it is gone", async () => {
    const server = await start({ config: "server: { session_idle: 0.3 }" });
    const feed = await notifications(server);
    const id = await newSession(server);
    expect((await server.fetch(`/sessions/${id}`)).status).toBe(200);
    const seen = await until(
      async () => feed.seen,
      (events) => events.some((event) => event.event === "notification"),
    );
    await feed.stop();
    expect(seen.find((event) => event.event === "notification")?.data).toMatchObject({
      message: `session ${id} ended`,
    });
    expect(
      seen.find((event) => event.event === "session" && event.data.reason === "ended")?.data.sessionId,
    ).toBe(id);
    expect((await server.fetch(`/sessions/${id}`)).status).toBe(404);
  });

  it("a session that keeps talking is not idle", async () => {
    const server = await start({
      config: "server: { session_idle: 0.4 }",
      script: [{ text: "a" }, { text: "b" }, { text: "c" }],
    });
    const id = await newSession(server);
    for (const text of ["1", "2", "3"]) {
      await sleep(250);
      const response = await server.post(
        `/sessions/${id}/messages`,
        { text },
        { accept: "application/json" },
      );
      expect(response.status).toBe(200);
      await response.json();
    }
  });
});

describe("requests", () => {
  it("refuses bodies over server.body_limit (413), not JSON (415), and invalid fields (400, naming them)", async () => {
    const server = await start({ config: "server: { body_limit: 200 }" });
    const id = await newSession(server);
    const big = await server.post(`/sessions/${id}/messages`, { text: "x".repeat(1000) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as any).error).toMatchObject({
      code: "body_too_large",
      message: expect.stringContaining("200 bytes"),
    });
    const chunked = await fetch(`${server.url}/sessions/${id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`{"text":"${"y".repeat(1000)}"}`));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const plain = await fetch(`${server.url}/sessions/${id}/messages`, { method: "POST", body: "hello" });
    expect(plain.status).toBe(415);
    const missing = await server.post(`/sessions/${id}/messages`, { txt: "hello" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error.message).toMatch(/text/);
    const broken = await fetch(`${server.url}/sessions/${id}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(((await broken.json()) as any).error.code).toBe("invalid_json");
    expect(server.ledger()).toEqual([]);
  });

  it("names unknown sessions, agents and endpoints", async () => {
    const server = await start({});
    expect(((await (await server.post("/sessions", { agent: "nobody" })).json()) as any).error).toMatchObject(
      {
        code: "unknown_agent",
        message: 'unknown agent "nobody" (agents: teller)',
      },
    );
    expect((await server.post("/sessions/nope/messages", { text: "hi" })).status).toBe(404);
    const session = ((await (await server.post("/sessions", {})).json()) as any).id;
    const wrongAgent = await server.post(`/sessions/${session}/messages`, { text: "hi", agent: "nobody" });
    expect(((await wrongAgent.json()) as any).error.code).toBe("unknown_agent");
    expect(((await (await server.fetch("/sessions/a%20b")).json()) as any).error.code).toBe(
      "invalid_session_id",
    );
    expect((await server.fetch("/sessions/x/nothing")).status).toBe(404);
    const created = await server.post("/sessions", {});
    expect(((await created.json()) as any).agent).toBe("teller");
    const empty = await fetch(`${server.url}/sessions`, { method: "POST" });
    expect(empty.status).toBe(201);
    const again = await server.post("/sessions", { id: "mine" });
    expect(again.status).toBe(201);
    expect((await server.post("/sessions", { id: "mine" })).status).toBe(409);
  });

  it("lists sessions, most recently active first", async () => {
    const server = await start({ script: [{ text: "ok" }] });
    const first = await newSession(server, { id: "first" });
    await newSession(server, { id: "second" });
    await sleep(5);
    await (
      await server.post(`/sessions/${first}/messages`, { text: "bump" }, { accept: "application/json" })
    ).json();
    const { sessions } = (await (await server.fetch("/sessions")).json()) as any;
    expect(sessions.map((session: { id: string }) => session.id)).toEqual(["first", "second"]);
    expect(sessions[0]).toMatchObject({ title: "bump", status: "idle", agent: "teller" });
  });
});
