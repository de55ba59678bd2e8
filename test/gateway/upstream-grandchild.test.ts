/**
 * An upstream MCP server started through a wrapper that spawns it as a grandchild (as `npx`
 * does; this wrapper also ignores SIGTERM and leaves a background helper that never ends on
 * its own): when the gateway ends — its client closes stdin, or it gets SIGTERM — none of
 * the wrapper, the server and the helper is left running.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { alive, eventually, type GatewayDir, gatewayDir, stdioGateway, textOf } from "./gateway-fixture.js";

const ROOT = resolve(import.meta.dirname, "../..");
const WRAPPER = join(ROOT, "test/fixtures/mcp/wrapper-server.mjs");
const SERVER = join(ROOT, "test/fixtures/mcp/stdio-server.mjs");

const left: number[] = [];
let where: GatewayDir | undefined;
afterEach(() => {
  for (const pid of left.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
  where?.cleanup();
  where = undefined;
});

/** A gateway whose `up` toolset is the fixture server behind the wrapper; its three pids. */
async function wrappedGateway() {
  where = gatewayDir((yaml) =>
    yaml.replace(
      `up: { kind: mcp, command: node, args: [${SERVER}] }`,
      `up: { kind: mcp, command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(WRAPPER)}, ${JSON.stringify(SERVER)}], env: { WRAPPER_PIDS_FILE: pids } }`,
    ),
  );
  const gateway = await stdioGateway(where);
  // The upstream answers through the wrapper: the server's own pid is the grandchild's.
  const served = Number(textOf(await gateway.client.callTool({ name: "up_pid", arguments: {} })));
  // Written in the server's working folder: the gateway's, where its config is.
  const pidsFile = join(where.dir, "pids");
  await eventually(() => existsSync(pidsFile), 10_000, "the wrapper's pid file");
  const [wrapper, server, helper] = readFileSync(pidsFile, "utf8").split(" ").map(Number) as [
    number,
    number,
    number,
  ];
  expect(served).toBe(server);
  const pid = gateway.transport.pid!;
  left.push(pid, wrapper, server, helper);
  expect([alive(pid), alive(wrapper), alive(server), alive(helper)]).toEqual([true, true, true, true]);
  return { gateway, pid, rest: [wrapper, server, helper] };
}

describe("an upstream MCP server behind a wrapper (a grandchild of the gateway)", () => {
  it("is gone with its wrapper and helper after the client closes the gateway's stdin", async () => {
    const { gateway, pid, rest } = await wrappedGateway();
    await gateway.client.close();
    await eventually(() => !alive(pid), 15_000, "the gateway's exit");
    await eventually(
      () => rest.every((other) => !alive(other)),
      10_000,
      "the wrapper, server and helper gone",
    );
  }, 60_000);

  it("is gone with its wrapper and helper after the gateway gets SIGTERM", async () => {
    const { gateway, pid, rest } = await wrappedGateway();
    process.kill(pid, "SIGTERM");
    await eventually(() => !alive(pid), 15_000, "the gateway's exit");
    await eventually(
      () => rest.every((other) => !alive(other)),
      10_000,
      "the wrapper, server and helper gone",
    );
    await gateway.client.close().catch(() => {});
  }, 60_000);
});
