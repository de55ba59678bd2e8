/**
 * Redirects of an OpenAPI call: followed within the origin it started on, five at most; one
 * that changes the scheme or the port (same host) is refused like one to another host.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sameOriginFetch } from "./same-origin-fetch.js";

let server: Server;
let base: string;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url!);
    const url = new URL(request.url!, "http://x");
    const hop = url.pathname.match(/^\/hop\/(\d+)$/);
    if (hop) {
      const left = Number(hop[1]);
      response.writeHead(302, { location: left === 0 ? "/done" : `/hop/${left - 1}` }).end();
    } else if (url.pathname === "/other-port") {
      response.writeHead(302, { location: `http://127.0.0.1:${port + 1}/done` }).end();
    } else if (url.pathname === "/other-scheme") {
      response.writeHead(302, { location: `https://127.0.0.1:${port}/done` }).end();
    } else response.writeHead(200, { "content-type": "text/plain" }).end("arrived");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const get = (path: string) =>
  sameOriginFetch(new URL(path, base), {
    method: "GET",
    headers: { authorization: "Bearer secret" },
    signal: AbortSignal.timeout(10_000),
  });

describe("sameOriginFetch", () => {
  it("follows 5 redirects and refuses the 6th", async () => {
    const five = await get("/hop/4"); // /hop/4 → 3 → 2 → 1 → 0 → /done: 5 redirects
    expect(five.kind).toBe("response");
    if (five.kind === "response") expect(await five.response.text()).toBe("arrived");
    hits.length = 0;
    const six = await get("/hop/5");
    expect(six.kind).toBe("too_many");
    expect(hits).not.toContain("/done");
  });

  it("refuses a redirect to the same host on another port or scheme", async () => {
    for (const path of ["/other-port", "/other-scheme"]) {
      const answer = await get(path);
      expect(answer.kind, path).toBe("refused");
    }
  });
});
