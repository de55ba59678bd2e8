// A stdio MCP server with one tool, written against the protocol itself (no SDK), so it
// runs whichever MCP SDK the app installed for hookwise's client.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const request = JSON.parse(line);
  if (request.id === undefined) continue; // a notification
  if (request.method === "initialize") {
    send({
      id: request.id,
      result: {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "echo", version: "1.0.0" },
      },
    });
  } else if (request.method === "tools/list") {
    send({
      id: request.id,
      result: {
        tools: [
          {
            name: "echo",
            description: "Echo a word",
            inputSchema: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
          },
        ],
      },
    });
  } else if (request.method === "tools/call") {
    send({
      id: request.id,
      result: { content: [{ type: "text", text: `echo: ${request.params.arguments.word}` }] },
    });
  } else {
    send({ id: request.id, error: { code: -32601, message: `no method ${request.method}` } });
  }
}
