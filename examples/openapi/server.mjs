// A local billing API implementing billing.yaml, for the example: node examples/openapi/server.mjs
// prints the two export lines hookwise.yaml reads. Tests import startBillingDemo().
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

/** Starts the API on 127.0.0.1; every request it receives is kept in `requests`. */
export async function startBillingDemo({ port = 0, token = randomBytes(12).toString("hex") } = {}) {
  const requests = [];
  const invoices = [{ id: "inv_1", customerId: "acme", amount: 900, currency: "EUR" }];
  const send = (response, status, value) => {
    response.writeHead(status, value === undefined ? {} : { "content-type": "application/json" });
    response.end(value === undefined ? undefined : JSON.stringify(value));
  };
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      const seen = {
        method: request.method,
        path: url.pathname,
        query: url.search,
        headers: request.headers,
        body,
      };
      requests.push(seen);
      const preferences = /^\/v1\/users\/([^/]+)\/preferences$/.exec(url.pathname);
      if (request.method === "GET" && preferences)
        return send(response, 200, { currency: "EUR", locale: "en-IE" });
      if (request.headers.authorization !== `Bearer ${token}`)
        return send(response, 401, { error: "bad token" });
      if (request.method === "GET" && url.pathname === "/v1/invoices") return send(response, 200, invoices);
      const create = /^\/v1\/customers\/([^/]+)\/invoices$/.exec(url.pathname);
      if (request.method === "POST" && create) {
        const invoice = {
          id: `inv_${invoices.length + 1}`,
          customerId: decodeURIComponent(create[1]),
          ...JSON.parse(body),
        };
        invoices.push(invoice);
        return send(response, 201, invoice);
      }
      const remove = /^\/v1\/invoices\/([^/]+)$/.exec(url.pathname);
      if (request.method === "DELETE" && remove) return send(response, 204);
      send(response, 404, { error: `no route ${request.method} ${url.pathname}` });
    });
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}/v1`;
  return {
    url,
    token,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const demo = await startBillingDemo({ port: Number(process.env.PORT ?? 0) });
  console.log(`export BILLING_URL=${demo.url}`);
  console.log(`export BILLING_TOKEN=${demo.token}`);
  console.log("(Ctrl-C stops the API)");
}
