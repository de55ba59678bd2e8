/**
 * The web UI of `hookwise serve` shows the MCP gateway's sessions, in headless Chromium
 * (the system's, driven by playwright-core): an MCP client called tools through
 * `hookwise mcp` — one write ran, one was denied by a policy — and the page lists the
 * client's session; opened, it shows each call with its decision, the deciding hook and
 * the reason. A second client that connects while the page is open appears without a
 * reload. The UI is built from web/ into a temp folder first (Vite's API). Screenshots go
 * to test-artifacts/web-ui/ (git-ignored). Without Chromium the test skips with a message —
 * except in CI (HOOKWISE_CI=1), where that is a failure.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookwiseServer, serve } from "../../src/server/serve.js";
import { type GatewayDir, gatewayDir, stdioGateway } from "./gateway-fixture.js";

const ROOT = resolve(import.meta.dirname, "../..");
const CHROMIUM = process.env.HOOKWISE_CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts/web-ui");
const available = existsSync(CHROMIUM);
const required = process.env.HOOKWISE_CI === "1";

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

/** One MCP client session through the gateway: its calls, then it disconnects. */
async function clientSession(
  where: GatewayDir,
  calls: { name: string; arguments: Record<string, unknown> }[],
) {
  const gateway = await stdioGateway(where);
  try {
    for (const call of calls) await gateway.client.callTool(call);
    return gateway.sessionId()!;
  } finally {
    await gateway.client.close();
  }
}

describe("web UI: the MCP gateway's sessions in headless Chromium", () => {
  if (!available && !required) {
    it.skip(`skipped: no Chromium at ${CHROMIUM} (install the chromium package, or set HOOKWISE_CHROMIUM)`, () => {});
    return;
  }

  let webRoot: string;
  let where: GatewayDir;
  let server: HookwiseServer;
  let firstSession: string;

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
    where = gatewayDir();
    firstSession = await clientSession(where, [
      { name: "files_write", arguments: { path: "kept.txt", text: "hi" } },
      { name: "files_write", arguments: { path: "/etc/passwd", text: "x" } },
    ]);
    server = await serve({
      config: where.config,
      port: 0,
      host: "127.0.0.1",
      log: () => {},
      env: {},
      webRoot,
    });
  }, 90_000);

  afterAll(async () => {
    await server?.close();
    where?.cleanup();
    if (webRoot) rmSync(webRoot, { recursive: true, force: true });
  });

  it("lists the client's session, shows each call's decision and reason, and a new client's session as it comes", async () => {
    const { chromium } = await import("playwright-core");
    const profile = mkdtempSync(join(tmpdir(), "hookwise-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 900 },
    });
    try {
      mkdirSync(ARTIFACTS, { recursive: true });
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      const requests: string[] = [];
      page.on("request", (request) => requests.push(request.url()));

      await page.goto(server.url);
      const listed = page.getByTestId("gateway-session");
      await expect.poll(() => listed.count(), { timeout: 15_000 }).toBe(1);
      const item = (await listed.first().textContent()) ?? "";
      expect(item).toContain("gateway-test 1.0.0");
      expect(item).toContain("2 calls");
      expect(item).toContain("denied");

      // The server runs no agent (the gateway's config declares no model): no chat to start.
      expect(await page.locator(".sessions").first().textContent()).toContain("this server runs no agent");
      expect(await page.getByTestId("new-session").count()).toBe(0);

      await listed.first().click();
      const view = page.getByTestId("gateway-session-view");
      await expect.poll(() => view.textContent(), { timeout: 10_000 }).toContain(firstSession);
      const calls = view.getByTestId("gateway-call");
      await expect.poll(() => calls.count()).toBe(2);
      const ran = (await calls.nth(0).textContent()) ?? "";
      expect(ran).toContain("files.write");
      expect(ran).toContain("ran");
      expect(ran).toContain("wrote kept.txt");
      const denied = calls.nth(1);
      expect(await denied.textContent()).toContain("denied");
      expect(await denied.textContent()).toContain("by policy");
      expect(await denied.getByTestId("gateway-reason").textContent()).toContain(
        "writes stay inside the output folder",
      );
      await page.screenshot({ path: join(ARTIFACTS, "gateway-session.png"), fullPage: true });

      // A client that connects while the page is open shows up without a reload.
      await clientSession(where, [{ name: "files_count", arguments: { n: 1 } }]);
      await expect.poll(() => listed.count(), { timeout: 15_000 }).toBe(2);
      expect(await listed.first().textContent()).toContain("files.count");

      expect(requests.filter((url) => !url.startsWith(server.url))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 90_000);
});
