/**
 * `POST /api/chat` driven by the AI SDK's own client code over real HTTP: the `Chat` logic
 * that `useChat` runs (AbstractChat with DefaultChatTransport, AI SDK 6 and 7), unmodified —
 * it streams the reply with its text, tool parts and hook decisions as data parts. And the
 * transport's reconnect endpoint.
 */
import * as ai6 from "ai";
import * as ai7 from "ai-v7";
import { afterEach, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../test/support/server.js";

let current: TestServer | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function started(options: Parameters<typeof startServer>[0]): Promise<TestServer> {
  current = await startServer(options);
  return current;
}

const SCRIPT = [
  {
    text: "Checking.",
    tool_calls: [
      { name: "bank_balance", args: {}, id: "b1" },
      { name: "bank_wipe", args: {}, id: "w1" },
    ],
  },
  { text: "Your balance is 120." },
  { text: "Anything else?" },
];

type Sdk = typeof ai6;

/** A plain-object chat state: what `useChat` keeps in React state. */
function chatOf(
  sdk: Sdk,
  api: string,
  id: string,
  extra: Partial<ConstructorParameters<typeof ai6.AbstractChat<ai6.UIMessage>>[0]> = {},
) {
  const state: ai6.ChatState<ai6.UIMessage> = {
    status: "ready",
    error: undefined,
    messages: [],
    pushMessage(message) {
      this.messages = [...this.messages, message];
    },
    popMessage() {
      this.messages = this.messages.slice(0, -1);
    },
    replaceMessage(index, message) {
      this.messages = this.messages.map((item, at) => (at === index ? message : item));
    },
    snapshot: (thing) => structuredClone(thing),
  };
  const errors: Error[] = [];
  class Chat extends (sdk.AbstractChat as typeof ai6.AbstractChat)<ai6.UIMessage> {
    constructor() {
      super({
        id,
        state,
        transport: new sdk.DefaultChatTransport({ api }) as never,
        onError: (error) => errors.push(error),
        ...(extra as object),
      });
    }
  }
  return { chat: new Chat(), state, errors };
}

describe.each([
  ["AI SDK 6", ai6],
  ["AI SDK 7", ai7 as unknown as Sdk],
] as const)("useChat's Chat (%s) against /api/chat", (_name, sdk) => {
  it("streams the reply: text, tool parts with results, the gate's denial, hook data parts", async () => {
    const server = await started({ script: SCRIPT });
    const { chat, state, errors } = chatOf(sdk, `${server.url}/api/chat`, "chat-1");
    await chat.sendMessage({ text: "What is my balance?" });
    expect(errors).toEqual([]);
    expect(state.status).toBe("ready");
    const [user, reply] = state.messages;
    expect(user).toMatchObject({ role: "user", parts: [{ type: "text", text: "What is my balance?" }] });
    expect(reply!.role).toBe("assistant");
    const texts = reply!.parts
      .filter((part) => part.type === "text")
      .map((part) => (part as { text: string }).text);
    expect(texts).toEqual(["Checking.", "Your balance is 120."]);
    expect(reply!.parts.filter((part) => part.type.startsWith("tool-"))).toEqual([
      expect.objectContaining({
        type: "tool-bank_balance",
        state: "output-available",
        output: { balance: 120 },
      }),
      expect.objectContaining({
        type: "tool-bank_wipe",
        state: "output-error",
        errorText: expect.stringContaining("wiping accounts is not allowed"),
      }),
    ]);
    const hooks = reply!.parts
      .filter((part) => part.type === "data-hook")
      .map((part) => (part as { data: unknown }).data);
    expect(hooks).toContainEqual({
      event: "tool_call",
      hook: "no-wipe",
      kind: "decide",
      effect: "deny",
      toolCallId: "w1",
      toolName: "bank_wipe",
      detail: "wiping accounts is not allowed",
    });
    expect(reply!.parts.find((part) => part.type === "data-outcome")).toMatchObject({
      data: { outcome: "completed", sessionId: "chat-1" },
    });
    expect(server.ledger()).toEqual(["balance"]);

    // The chat id is a hookwise session: it keeps the transcript; a second message continues it.
    await chat.sendMessage({ text: "Thanks" });
    expect(state.messages).toHaveLength(4);
    const session = (await (await server.fetch("/sessions/chat-1")).json()) as any;
    expect(session.messages.filter((message: { role: string }) => message.role === "user")).toHaveLength(2);
  });
});

const ASKING = [
  {
    text: "Checking.",
    tool_calls: [
      { name: "bank_balance", args: {}, id: "b1" },
      { name: "bank_wipe", args: {}, id: "w1" },
      { name: "bank_pay", args: { amount: 5 }, id: "p5" },
    ],
  },
  { text: "Done as you decided." },
  { text: "Anything else?" },
];

type ToolPart = {
  type: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  approval?: { id: string; approved?: boolean; reason?: string };
};

const toolParts = (message: ai6.UIMessage) =>
  message.parts.filter((part) => part.type.startsWith("tool-")) as unknown as ToolPart[];

describe.each([
  ["AI SDK 6", ai6],
  ["AI SDK 7", ai7 as unknown as Sdk],
] as const)("tool approvals in the chat (%s): addToolApprovalResponse and the next message", (_name, sdk) => {
  it("a suspended step ends with every call in its true state; approving in the chat runs the payment in the same message", async () => {
    const server = await started({ script: ASKING });
    const { chat, state, errors } = chatOf(sdk, `${server.url}/api/chat`, "chat-ask");
    await chat.sendMessage({ text: "Pay 5, wipe, and tell me my balance" });
    expect(errors).toEqual([]);
    expect(state.status).toBe("ready");
    expect(state.messages).toHaveLength(2);
    const suspended = state.messages[1]!;
    // Ran, denied with its reason, awaiting approval: no call is left "input-available".
    expect(toolParts(suspended)).toEqual([
      expect.objectContaining({
        type: "tool-bank_balance",
        state: "output-available",
        output: { balance: 120 },
      }),
      expect.objectContaining({
        type: "tool-bank_wipe",
        state: "output-error",
        errorText: expect.stringContaining("wiping accounts is not allowed"),
      }),
      expect.objectContaining({ type: "tool-bank_pay", state: "approval-requested", input: { amount: 5 } }),
    ]);
    const hooks = suspended.parts
      .filter((part) => part.type === "data-hook")
      .map((part) => (part as any).data);
    expect(hooks).toContainEqual(
      expect.objectContaining({ hook: "policy", effect: "ask", toolCallId: "p5", toolName: "bank_pay" }),
    );
    expect(server.ledger()).toEqual(["balance"]);

    const pay = toolParts(suspended).find((part) => part.type === "tool-bank_pay")!;
    await chat.addToolApprovalResponse({ id: pay.approval!.id, approved: true });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(server.ledger()).toEqual(["balance", "pay 5"]);
    // The continuation is the rest of the same message: nothing shown before is lost.
    expect(state.messages).toHaveLength(2);
    const reply = state.messages[1]!;
    expect(toolParts(reply)).toEqual([
      expect.objectContaining({ type: "tool-bank_balance", state: "output-available", input: {} }),
      expect.objectContaining({ type: "tool-bank_wipe", state: "output-error", input: {} }),
      expect.objectContaining({
        type: "tool-bank_pay",
        state: "output-available",
        input: { amount: 5 },
        output: "paid 5",
      }),
    ]);
    const texts = reply.parts.filter((part) => part.type === "text").map((part) => (part as any).text);
    expect(texts).toEqual(["Checking.", "Done as you decided."]);
    expect(reply.parts.filter((part) => part.type === "data-hook").length).toBeGreaterThanOrEqual(
      hooks.length,
    );
    expect(reply.parts.findLast((part) => part.type === "data-outcome")).toMatchObject({
      data: { outcome: "completed" },
    });
    // The inbox has nothing left; the chat goes on.
    expect(((await (await server.fetch("/approvals")).json()) as any).approvals).toEqual([]);
    await chat.sendMessage({ text: "Thanks" });
    expect(state.messages).toHaveLength(4);
    expect(errors).toEqual([]);
  });

  it("denying in the chat: the payment never runs and its part ends in an error with the reason", async () => {
    const server = await started({ script: ASKING });
    const { chat, state, errors } = chatOf(sdk, `${server.url}/api/chat`, "chat-deny");
    await chat.sendMessage({ text: "Pay 5" });
    const pay = toolParts(state.messages[1]!).find((part) => part.type === "tool-bank_pay")!;
    expect(pay.state).toBe("approval-requested");
    await chat.addToolApprovalResponse({ id: pay.approval!.id, approved: false, reason: "not this month" });
    await chat.sendMessage();
    expect(errors).toEqual([]);
    expect(server.ledger()).toEqual(["balance"]);
    expect(state.messages).toHaveLength(2);
    expect(toolParts(state.messages[1]!).find((part) => part.type === "tool-bank_pay")).toMatchObject({
      state: "output-error",
      input: { amount: 5 },
      errorText: expect.stringContaining("not this month"),
    });
  });
});

describe.each([
  ["AI SDK 6", ai6],
  ["AI SDK 7", ai7 as unknown as Sdk],
] as const)("a call deferred behind an approval (%s)", (_name, sdk) => {
  it("ends the suspended step in a state too, so the approval sends itself; the continuation gives its output", async () => {
    const server = await started({
      script: [
        {
          tool_calls: [
            { name: "bank_pay", args: { amount: 5 }, id: "p5" },
            { name: "bank_balance", args: {}, id: "b2" },
          ],
        },
        { text: "Paid, and your balance is 120." },
      ],
    });
    const { chat, state, errors } = chatOf(sdk, `${server.url}/api/chat`, "chat-deferred", {
      sendAutomaticallyWhen: sdk.lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: "Pay 5 then tell me my balance" });
    const parts = toolParts(state.messages[1]!);
    expect(parts.map((part) => part.state)).toEqual(["approval-requested", "output-error"]);
    expect(parts[1]!.errorText).toMatch(/^not run yet: it runs once the approval of bank\.pay is decided/);
    expect(server.ledger()).toEqual([]);
    // Approving is all the user does: the chat sends it by itself.
    await chat.addToolApprovalResponse({ id: parts[0]!.approval!.id, approved: true });
    await expect.poll(() => server.ledger(), { timeout: 10_000 }).toEqual(["pay 5", "balance"]);
    await expect
      .poll(() => toolParts(state.messages[1]!).map((part) => part.state), { timeout: 10_000 })
      .toEqual(["output-available", "output-available"]);
    await expect.poll(() => state.status).toBe("ready");
    expect(toolParts(state.messages[1]!)[1]).toMatchObject({ output: { balance: 120 }, input: {} });
    expect(errors).toEqual([]);
  });
});

describe("/api/chat", () => {
  it("answers 409 (an error useChat shows) while the session runs, and reconnects to the running run", async () => {
    const server = await started({
      script: [{ text: "slow reply", delay_ms: 1200 }],
      config: "server: { busy_wait: 0 }",
    });
    const body = (text: string) =>
      JSON.stringify({
        id: "c2",
        trigger: "submit-message",
        messages: [{ id: "u1", role: "user", parts: [{ type: "text", text }] }],
      });
    const headers = { "content-type": "application/json" };
    // Nothing runs in the chat yet: the reconnect gets 204 (what useChat expects on mount).
    expect((await server.fetch("/api/chat/c2/stream")).status).toBe(204);
    const first = await server.fetch("/api/chat", { method: "POST", headers, body: body("hello") });
    expect(first.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const reader = first.body!.getReader();
    await reader.read();
    const busy = await server.fetch("/api/chat", { method: "POST", headers, body: body("again") });
    expect(busy.status).toBe(409);
    // The transport's reconnect replays the running run from its start.
    const transport = new ai6.DefaultChatTransport({ api: `${server.url}/api/chat` });
    const resumed = await transport.reconnectToStream({ chatId: "c2" });
    let message: ai6.UIMessage | undefined;
    for await (const item of ai6.readUIMessageStream({ stream: resumed! })) message = item;
    expect(message!.parts.find((part) => part.type === "text")).toMatchObject({ text: "slow reply" });
    await reader.cancel();
    expect(await transport.reconnectToStream({ chatId: "c2" })).toBeNull();
  });

  it("refuses a regenerate and a body without a user message, clearly", async () => {
    const server = await started({});
    const regenerate = await server.post("/api/chat", {
      id: "c3",
      trigger: "regenerate-message",
      messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
    });
    expect(regenerate.status).toBe(400);
    expect(((await regenerate.json()) as any).error.code).toBe("unsupported_trigger");
    const noText = await server.post("/api/chat", {
      id: "c3",
      messages: [{ id: "a", role: "assistant", parts: [] }],
    });
    expect(((await noText.json()) as any).error.message).toMatch(/last message must be the user's/);
  });
});
