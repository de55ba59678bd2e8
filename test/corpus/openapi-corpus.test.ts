/**
 * OpenAPI documents as people write them (Petstore 3.0, a Swagger 2.0 petstore, a 3.1
 * document with `x-topics` and `unevaluatedProperties`) as toolsets, against a local server
 * that records what it is sent: uploads send their bytes (or are left out, said so), defaults
 * the model did not set are never sent, 2020-12 keywords are enforced, and a toolset over
 * the schema budget is reported.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiToolsetOptions, openapiToolset } from "../../src/tools/openapi/openapi-toolset.js";
import type { ResolvedTool } from "../../src/tools/resolved-tool.js";

const CORPUS = resolve(import.meta.dirname, "../fixtures/corpus/openapi");

interface Received {
  method: string;
  url: string;
  type: string | undefined;
  body: Buffer;
}

let server: Server;
let baseUrl: string;
let received: Received[] = [];
let folder: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({
        method: request.method!,
        url: request.url!,
        type: request.headers["content-type"],
        body: Buffer.concat(chunks),
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"ok":true}');
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  folder = mkdtempSync(join(tmpdir(), "hookwise-openapi-corpus-"));
  mkdirSync(join(folder, "project"));
  writeFileSync(join(folder, "project", "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]));
  writeFileSync(join(folder, "secret.txt"), "outside");
  symlinkSync(join(folder, "secret.txt"), join(folder, "project", "link.png"));
});
afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(folder, { recursive: true, force: true });
});
beforeEach(() => {
  received = [];
});

async function load(spec: string, options: Partial<OpenApiToolsetOptions> = {}) {
  const warnings: string[] = [];
  const toolset = await openapiToolset("api", {
    spec: resolve(CORPUS, spec),
    baseUrl,
    baseDir: join(folder, "project"),
    onWarning: (warning) => warnings.push(`${warning.at.join(".")}: ${warning.message}`),
    ...options,
  });
  const tools = new Map(toolset.tools.map((tool) => [tool.name, tool]));
  return { toolset, tools, warnings };
}

const signal = new AbortController().signal;
const EXECUTION = {
  toolCallId: "call_1",
  signal,
  abortSignal: signal,
  messages: [],
  context: { sessionId: "s", runId: "r", step: 0, agentName: "test" },
} as never;

/** Checks the arguments as the loop does, then calls with what the check answered. */
async function call(tool: ResolvedTool | undefined, args: unknown): Promise<unknown> {
  const checked = await tool!.input.check(args);
  if (!checked.ok) throw new Error(`invalid: ${checked.message}`);
  return tool!.execute(checked.value, EXECUTION);
}

function problem(tool: ResolvedTool | undefined, args: unknown): string | undefined {
  const checked = tool!.input.validate(args);
  return checked.ok ? undefined : checked.message;
}

describe("Petstore 3.0", () => {
  it("an octet-stream upload sends the file's bytes, or base64's; a path out of the folder is refused", async () => {
    const { tools, warnings } = await load("petstore-3.0.yaml");
    expect(warnings).toEqual([]);
    const upload = tools.get("uploadFile");
    await call(upload, { petId: 7, additionalMetadata: "front", body: { file: "photo.png" } });
    await call(upload, { petId: 7, body: { base64: Buffer.from("hello").toString("base64") } });
    expect(received.map(({ method, url, type, body }) => [method, url, type, [...body]])).toEqual([
      [
        "POST",
        "/pet/7/uploadImage?additionalMetadata=front",
        "application/octet-stream",
        [0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255],
      ],
      ["POST", "/pet/7/uploadImage", "application/octet-stream", [...Buffer.from("hello")]],
    ]);
    received = [];
    await expect(call(upload, { petId: 7, body: { file: "../secret.txt" } })).rejects.toThrow(/climbs out/);
    await expect(call(upload, { petId: 7, body: { file: "link.png" } })).rejects.toThrow(/symbolic link/);
    expect(problem(upload, { petId: 7, body: { file: "photo.png", base64: "AA==" } })).toBeDefined();
    expect(received).toEqual([]);
  });

  it("a query default is never sent unasked; a JSON body is sent as given", async () => {
    const { tools } = await load("petstore-3.0.yaml");
    await call(tools.get("findPetsByStatus"), {});
    await call(tools.get("findPetsByStatus"), { status: "sold" });
    await call(tools.get("addPet"), { body: { name: "doggie", photoUrls: [] } });
    expect(received.map(({ url, body }) => [url, body.toString()])).toEqual([
      ["/pet/findByStatus", ""],
      ["/pet/findByStatus?status=sold", ""],
      ["/pet", '{"name":"doggie","photoUrls":[]}'],
    ]);
    // The model still sees the default, as a hint.
    expect(JSON.stringify(tools.get("findPetsByStatus")!.input.jsonSchema)).toContain(
      '"default":"available"',
    );
  });
});

describe("Swagger 2.0 petstore", () => {
  it("an optional formData upload is left out with a warning, not kept without its body; limit's default is not sent", async () => {
    const { tools, warnings } = await load("petstore-2.0.yaml");
    expect([...tools.keys()]).toEqual(["findPets", "addPet"]);
    expect(warnings).toEqual([
      "spec: POST /pets/{id}/photo (addPhoto) is left out: its request body is multipart/form-data, and OpenAPI tools send JSON or application/octet-stream",
    ]);
    await call(tools.get("findPets"), { tags: ["a", "b"] });
    expect(received.map((request) => request.url)).toEqual(["/pets?tags=a,b"]);
  });
});

describe("OpenAPI 3.1 (train travel)", () => {
  it("loads though x-topics' $ref names a page that is not there; no default is sent", async () => {
    const { tools, warnings } = await load("train-3.1.yaml");
    expect(warnings).toEqual([]);
    await call(tools.get("get-trips"), { origin: "efdbb9d1-02c2-4bc3-afb7-6788d8782b1e" });
    expect(received.map((request) => request.url)).toEqual([
      "/trips?origin=efdbb9d1-02c2-4bc3-afb7-6788d8782b1e",
    ]);
  });

  it("with other files' $refs to bundle, an extension's $ref still stops nothing", async () => {
    const api = join(folder, "split");
    mkdirSync(join(api, "schemas"), { recursive: true });
    writeFileSync(join(api, "schemas", "pet.yaml"), "type: object\nproperties:\n  name: { type: string }\n");
    writeFileSync(
      join(api, "api.yaml"),
      [
        "openapi: 3.1.0",
        "info: { title: Split, version: '1' }",
        "x-topics:",
        "  - { title: Start, content: { $ref: ./docs/missing.md } }",
        "paths:",
        "  /pets:",
        "    post:",
        "      operationId: addPet",
        "      requestBody: { content: { application/json: { schema: { $ref: ./schemas/pet.yaml } } } }",
        "      responses: { '200': { description: ok } }",
      ].join("\n"),
    );
    const { tools } = await load(join(api, "api.yaml"));
    await call(tools.get("addPet"), { body: { name: "Rex" } });
    expect(received.map((request) => request.body.toString())).toEqual(['{"name":"Rex"}']);
  });

  it("unevaluatedProperties, enum over allOf, prefixItems and const are enforced; a valid booking is sent as given", async () => {
    const { tools } = await load("train-3.1.yaml");
    const book = tools.get("create-booking");
    const valid = {
      trip_id: "t1",
      passenger_name: "Ada",
      passenger_kind: "adult",
      seat: ["B", 12],
      currency: "EUR",
    };
    expect(problem(book, { body: valid })).toBeUndefined();
    expect(problem(book, { body: { ...valid, passenger_kind: "pilot" } })).toMatch(/passenger_kind/);
    expect(problem(book, { body: { ...valid, upgrade: true } })).toMatch(
      /upgrade|unrecognized|Unrecognized/i,
    );
    expect(problem(book, { body: { ...valid, seat: ["B", "twelve"] } })).toMatch(/seat/);
    expect(problem(book, { body: { ...valid, currency: "USD" } })).toMatch(/currency/);
    expect(problem(book, { body: { passenger_name: "Ada" } })).toMatch(/trip_id/);
    await call(book, { body: valid });
    expect(received.map((request) => JSON.parse(request.body.toString()))).toEqual([valid]);
  });
});

describe("schema budget", () => {
  it("a toolset whose schemas exceed the budget says so at load; operations: narrows it", async () => {
    const paths: Record<string, unknown> = {};
    const properties = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [
        `field_${index}`,
        { type: "string", description: `Field number ${index} of the record, as the API stores it` },
      ]),
    );
    for (let index = 0; index < 60; index++)
      paths[`/records_${index}`] = {
        post: {
          operationId: `create_record_${index}`,
          summary: `Creates a record of kind ${index}`,
          requestBody: { content: { "application/json": { schema: { type: "object", properties } } } },
          responses: { "200": { description: "ok" } },
        },
      };
    const spec = join(folder, "big.json");
    writeFileSync(spec, JSON.stringify({ openapi: "3.0.3", info: { title: "Big", version: "1" }, paths }));
    const wide = await load(spec);
    expect(wide.warnings).toEqual([
      expect.stringMatching(
        /^spec: its 60 tools' descriptions and schemas are \d+ KB, sent with every model request \(over 100 KB\): list the operations the agent needs under operations:/,
      ),
    ]);
    const narrow = await load(spec, { operations: ["create_record_1", "create_record_2"] });
    expect(narrow.tools.size).toBe(2);
    expect(narrow.warnings).toEqual([]);
  });
});
