/**
 * Secrets stay secret: an OpenAI-compatible provider on loopback answers every request
 * with an error body that quotes the request's Authorization header (some providers do).
 * The API key, read from the environment, never appears in what the CLI prints (human and
 * `--json`), in what an error hook sees, nor in the state database.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registerSecret } from "../../src/secrets/secret-registry.js";
import { cli } from "../support/cli.js";

const KEY = "sk-echoed-secret-4f9a1c2e7b";
const KEY_ENV = "HOOKWISE_ECHO_TEST_KEY";

let server: Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++;
    request.resume();
    request.on("end", () => {
      const auth = request.headers.authorization ?? "";
      response.writeHead(401, { "content-type": "application/json", "x-echo-auth": auth });
      response.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided in header "Authorization: ${auth}" (key ${auth.replace("Bearer ", "")})`,
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-keys-"));
  process.env[KEY_ENV] = KEY;
  requests = 0;
});
afterEach(() => {
  delete process.env[KEY_ENV];
  rmSync(dir, { recursive: true, force: true });
});

function config(): string {
  const file = join(dir, "hookwise.yaml");
  writeFileSync(
    file,
    `models:
  default: { provider: openai-compatible, model: echo-model, base_url: "${url}", api_key_env: ${KEY_ENV} }
runtime:
  hooks:
    - id: seen
      on: error
      action: { type: log, message: "hook saw {{error.message}}" }
agents:
  - { id: main }
`,
  );
  return file;
}

/** Every byte of the state folder (SQLite database and its journal files). */
function stored(): string {
  const folder = join(dir, ".hookwise");
  if (!existsSync(folder)) return "";
  return readdirSync(folder)
    .map((name) => readFileSync(join(folder, name)).toString("latin1"))
    .join("\n");
}

describe("a provider error that echoes the API key", () => {
  it("human output: the key is masked wherever the error is printed or stored", async () => {
    const out = await cli(["run", config(), "--prompt", "hi", "--session", "s1"]);
    expect(requests).toBeGreaterThan(0);
    expect(out.code).not.toBe(0);
    const all = out.stdout + out.stderr;
    expect(all).toContain(`[redacted ${KEY_ENV}]`);
    expect(all).toContain("Incorrect API key provided");
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(KEY.slice(3));
    expect(stored()).not.toContain(KEY);
  });

  it("--json: the result, the logs and the stored session hold the masked value only", async () => {
    const out = await cli(["run", config(), "--prompt", "hi", "--session", "s2", "--json"]);
    expect(requests).toBeGreaterThan(0);
    const result = JSON.parse(out.stdout);
    expect(JSON.stringify(result)).toContain(`[redacted ${KEY_ENV}]`);
    expect(out.stdout).not.toContain(KEY);
    expect(out.stderr).not.toContain(KEY);
    expect(out.stderr).toContain(`hook saw`);
    const history = await cli(["history", join(dir, "hookwise.yaml"), "--session", "s2", "--json"]);
    expect(history.stdout).not.toContain(KEY);
    expect(stored()).not.toContain(KEY);
  });
});

describe("a key the model repeats, streamed a few characters at a time", () => {
  it("human output: the pieces are masked as one text (hook lines between them), nothing of the key is printed", async () => {
    // As createModel does when it reads a provider's key from the environment.
    registerSecret(KEY, KEY_ENV);
    const pieces = ["Your key is sk-ech", "oed-secr", "et-4f9a1c", "2e7b, keep it."];
    expect(pieces.join("")).toContain(KEY);
    writeFileSync(join(dir, "script.yaml"), `- text_deltas: ${JSON.stringify(pieces)}\n`);
    const file = join(dir, "hookwise.yaml");
    // A hook on each delta prints a line between the pieces.
    writeFileSync(
      file,
      "models:\n  default: scripted:./script.yaml\nruntime:\n  hooks:\n" +
        "    - { id: spy, on: text_delta, action: { type: log, message: chunk } }\n",
    );
    const out = await cli(["run", file, "--prompt", "what is my key?"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("spy");
    for (const piece of [KEY, "oed-secr", "et-4f9a1c"]) expect(out.stdout + out.stderr).not.toContain(piece);
    expect(out.stdout).toContain("assistant: Your key is ");
    expect(out.stdout).toContain(`[redacted ${KEY_ENV}], keep it.`);
  });
});
