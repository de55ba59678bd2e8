/**
 * The web UI end to end in headless Chromium (the system's, driven by playwright-core): a
 * user sends a message, sees a gate's reason and a request patch's diff in the timeline,
 * approves the pending payment in the inbox, and sees the run finish. The UI is built from
 * web/ into a temp folder first (Vite's API), so the test always runs today's sources.
 * Screenshots go to test-artifacts/web-ui/ (git-ignored). Without Chromium the test skips
 * with a message — except in CI (HOOKWISE_CI=1), where that is a failure.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudePre, hookConfig, hookProcess } from "../support/inbox-hook.js";
import { startServer, type TestServer } from "../support/server.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.HOOKWISE_CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts/web-ui");
const available = existsSync(CHROMIUM);
const required = process.env.HOOKWISE_CI === "1";

const CONFIG = `
models:
  default: scripted:./script.yaml
toolsets:
  bank: { kind: module, path: ./tools.mjs }
runtime:
  state: { kind: memory }
  policies:
    - { decision: ask_user, tool: bank.pay, reason: "payments need a human" }
  hooks:
    - id: no-wipe
      on: tool_call
      condition: { type: tool_name, match: "bank.wipe" }
      action: { type: gate, reason: "wiping accounts is not allowed" }
    - id: one-sentence
      on: model_request
      action: { type: inject_message, strategy: system, content: "Answer in one sentence." }
    - id: paid-note
      on: tool_result
      condition: { type: tool_name, match: "bank.pay" }
      action: { type: notify, title: "payment made", message: "a payment went out" }
agents:
  - id: teller
    instructions: "You are a bank teller."
    tools: [bank.*]
`;

const SCRIPT = [
  {
    text: "Let me do both.",
    tool_calls: [
      { name: "bank_wipe", args: {}, id: "w1" },
      { name: "bank_pay", args: { amount: 5 }, id: "p5" },
    ],
  },
  { text: "Paid 5; wiping is not allowed." },
];

/** Five calls in one step: two run, one is rewritten, one gated, one waits for a human, one after it waits its turn. */
const SUSPENDING_CONFIG = CONFIG.replace(
  '    - { decision: ask_user, tool: bank.pay, reason: "payments need a human" }',
  `    - { decision: ask_user, tool: bank.pay, reason: "payments need a human" }
    - { decision: allow, tool: bank.balance }
    - { decision: allow, tool: bank.echo }`,
).replace(
  "  hooks:\n",
  `  hooks:
    - id: loud
      on: tool_call
      condition: { type: tool_name, match: "bank.echo" }
      action: { type: transform_params, transformation: { set: { text: "HELLO" } } }
`,
);

const SUSPENDING_SCRIPT = [
  {
    text: "On it.",
    tool_calls: [
      { name: "bank_balance", args: {}, id: "b1" },
      { name: "bank_echo", args: { text: "hi" }, id: "e1" },
      { name: "bank_wipe", args: {}, id: "w1" },
      { name: "bank_pay", args: { amount: 5 }, id: "p5" },
      { name: "bank_balance", args: {}, id: "b2" },
    ],
  },
  { text: "All done." },
];

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

describe("web UI in headless Chromium", () => {
  if (!available && !required) {
    it.skip(`skipped: no Chromium at ${CHROMIUM} (install the chromium package, or set HOOKWISE_CHROMIUM)`, () => {});
    return;
  }

  let webRoot: string;
  let server: TestServer;
  let close: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (!available)
      throw new Error(`HOOKWISE_CI=1 and no Chromium at ${CHROMIUM}: the browser test must run in CI`);
    webRoot = mkdtempSync(join(tmpdir(), "hookwise-web-"));
    const { build } = await import("vite");
    await build({
      configFile: join(ROOT, "web/vite.config.mjs"),
      logLevel: "silent",
      build: { outDir: webRoot, emptyOutDir: true },
    });
    server = await startServer({ replaceConfig: CONFIG, script: SCRIPT, serve: { webRoot } });
  }, 60_000);

  afterAll(async () => {
    await close();
    await server?.close();
    if (webRoot) rmSync(webRoot, { recursive: true, force: true });
  });

  it("send a message, see the gate's reason, approve in the inbox, see the run finish", async () => {
    const { chromium } = await import("playwright-core");
    const profile = mkdtempSync(join(tmpdir(), "hookwise-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      viewport: { width: 1400, height: 900 },
    });
    close = async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    };
    mkdirSync(ARTIFACTS, { recursive: true });
    const page = context.pages()[0] ?? (await context.newPage());
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(server.url);
    await page.getByTestId("new-session").click();
    await page.getByTestId("message-input").fill("Wipe the accounts and pay invoice 5");
    await page.getByTestId("send").click();

    const timeline = page.getByTestId("timeline");
    await expect
      .poll(() => timeline.textContent(), { timeout: 15_000 })
      .toContain("wiping accounts is not allowed");
    // The request patch shows as a diff: the instructions, plus the injected line.
    await expect
      .poll(() => timeline.locator(".diff-added").allTextContents())
      .toContain("+ Answer in one sentence.");
    await expect.poll(() => timeline.getByTestId("outcome").first().textContent()).toContain("suspended");
    await page.screenshot({ path: join(ARTIFACTS, "1-gate-and-pending-approval.png"), fullPage: true });

    const approval = page.getByTestId("approval");
    await expect.poll(() => approval.count(), { timeout: 10_000 }).toBe(1);
    expect(await approval.textContent()).toContain("bank.pay");
    expect(await approval.textContent()).toContain("payments need a human");
    expect(server.ledger()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "2-inbox.png"), fullPage: true });

    await approval.getByTestId("approve").click();
    // The run's timeline goes on after its suspension: resumed, the payment runs, it completes.
    const latest = timeline.getByTestId("run").first();
    await expect
      .poll(() => latest.getByTestId("outcome").last().textContent(), { timeout: 15_000 })
      .toContain("completed");
    expect(await latest.textContent()).toContain("resumed after approval");
    await expect
      .poll(() => page.getByTestId("assistant").last().textContent())
      .toContain("Paid 5; wiping is not allowed.");
    await expect.poll(() => page.getByTestId("approval").count()).toBe(0);
    await expect
      .poll(() => page.getByTestId("notification").allTextContents())
      .toContainEqual(expect.stringContaining("payment made"));
    expect(server.ledger()).toEqual(["pay 5"]);
    await page.screenshot({ path: join(ARTIFACTS, "3-run-finished.png"), fullPage: true });

    // Offline: every request the page made went to this server.
    expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
  it("while suspended: each decision under its call, each call's true status, approve right there", async () => {
    const { chromium } = await import("playwright-core");
    const suspending = await startServer({
      replaceConfig: SUSPENDING_CONFIG,
      script: SUSPENDING_SCRIPT,
      serve: { webRoot },
    });
    const profile = mkdtempSync(join(tmpdir(), "hookwise-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 1200 },
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(suspending.url);
      await page.getByTestId("new-session").click();
      await page.getByTestId("message-input").fill("Do all of it");
      await page.getByTestId("send").click();

      const timeline = page.getByTestId("timeline");
      await expect
        .poll(() => timeline.getByTestId("outcome").first().textContent(), { timeout: 15_000 })
        .toContain("suspended");
      const cards = timeline.getByTestId("tool");
      const statusOf = async () =>
        Promise.all(
          (await cards.all()).map(async (card) => [
            await card.locator("strong").first().textContent(),
            await card.getByTestId("tool-status").textContent(),
          ]),
        );
      await expect.poll(statusOf).toEqual([
        ["bank_balance", "ran"],
        ["bank_echo", "ran"],
        ["bank_wipe", "denied"],
        ["bank_pay", "awaiting approval"],
        ["bank_balance", "not run yet"],
      ]);
      await page.screenshot({ path: join(ARTIFACTS, "4-suspended-calls.png"), fullPage: true });
      // Each decision sits under its own call: the rewrite's diff under bank_echo, named so.
      const echo = cards.nth(1);
      expect(await echo.getByTestId("decisions").textContent()).toContain("loud");
      expect(await echo.locator(".diff-field").allTextContents()).toContain("bank_echo arguments");
      expect(await echo.locator(".diff-added").allTextContents()).toContainEqual(
        expect.stringContaining("HELLO"),
      );
      expect(await timeline.textContent()).not.toContain("bank_wipe arguments");
      expect(await cards.nth(2).getByTestId("decisions").textContent()).toContain(
        "wiping accounts is not allowed",
      );
      // No decision about a call is left loose in the step (the policy's allows included).
      const loose = timeline.locator("[data-testid=step] > ul > [data-testid=hook]");
      expect(await loose.filter({ hasText: "tool_call" }).count()).toBe(0);
      expect(await loose.filter({ hasText: "model_request" }).count()).toBe(1);
      for (const index of [0, 1])
        expect(await cards.nth(index).getByTestId("decisions").textContent()).toMatch(/policy.*allow/s);
      // The page speaks to the person in front of it.
      const body = await page.locator("body").textContent();
      expect(body).not.toMatch(/agent\.resume|hookwise resume/);
      expect(await cards.nth(3).getByTestId("approval-here").textContent()).toContain(
        "payments need a human",
      );
      expect(suspending.ledger()).toEqual(["balance", "echo HELLO"]);

      await cards.nth(3).getByTestId("approve-here").click();
      await expect
        .poll(() => timeline.getByTestId("outcome").last().textContent(), { timeout: 15_000 })
        .toContain("completed");
      await expect.poll(statusOf).toEqual([
        ["bank_balance", "ran"],
        ["bank_echo", "ran"],
        ["bank_wipe", "denied"],
        ["bank_pay", "ran"],
        ["bank_balance", "ran"],
      ]);
      expect(suspending.ledger()).toEqual(["balance", "echo HELLO", "pay 5", "balance"]);
      await page.screenshot({ path: join(ARTIFACTS, "5-approved-here.png"), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await suspending.close();
    }
  }, 60_000);

  it("a coding agent's hook waiting in the inbox: shown with who waits, approved there, the hook answers allow", async () => {
    const { chromium } = await import("playwright-core");
    const dir = mkdtempSync(join(tmpdir(), "hookwise-web-hook-"));
    const state = `{ kind: sqlite, path: ${join(dir, "state.db")} }`;
    writeFileSync(join(dir, "hookwise.yaml"), hookConfig(state));
    const shared = await startServer({
      replaceConfig: CONFIG.replace("state: { kind: memory }", `state: ${state}`),
      script: SCRIPT,
      serve: { webRoot },
    });
    const profile = mkdtempSync(join(tmpdir(), "hookwise-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
    });
    const hook = hookProcess(join(dir, "hookwise.yaml"), claudePre("deploy prod", "claude-session-1"));
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.goto(shared.url);
      // Posted by another process to the store: the inbox finds it without a reload.
      const approval = page.getByTestId("approval");
      await expect.poll(() => approval.count(), { timeout: 30_000 }).toBe(1);
      expect(await approval.getByTestId("waiter").textContent()).toContain(
        "Claude Code (hookwise hook) · session claude-session-1",
      );
      expect(await approval.locator("strong").first().textContent()).toBe("Bash");
      expect(await approval.textContent()).toContain("deploys need a human");
      expect(await approval.textContent()).toContain("deploy prod");
      await page.screenshot({ path: join(ARTIFACTS, "6-hook-waiting.png"), fullPage: true });
      await approval.getByTestId("approve").click();
      const answer = await hook.done;
      expect(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
      await expect.poll(() => page.getByTestId("approval").count(), { timeout: 10_000 }).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      hook.child.kill("SIGKILL");
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      await shared.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
