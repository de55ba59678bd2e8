/**
 * The `lsp` toolset's path handling: a model-chosen path never makes it read a file outside
 * the root, and a file no language server handles is never read at all.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LanguageServers } from "./language-servers.js";
import { lspToolset } from "./lsp-toolset.js";

const SECRET = "sk_live_9f8e7d6c5b4a";
const dir = mkdtempSync(join(tmpdir(), "hookwise-lsp-toolset-"));
const root = join(dir, "project");
mkdirSync(root);
writeFileSync(join(dir, "config.ts"), `export const key = ${SECRET};\n`);
symlinkSync(join(dir, "config.ts"), join(root, "link.ts"));
// A folder named like a file: reading it would fail, so an answer proves it was not read.
mkdirSync(join(root, "notes.env"));
const servers = new LanguageServers({ root });
const diagnostics = lspToolset(servers).tools[0]!;
afterAll(async () => {
  await servers.close();
  rmSync(dir, { recursive: true, force: true });
});

const EXECUTION = {
  toolCallId: "call_1",
  signal: new AbortController().signal,
  abortSignal: new AbortController().signal,
  messages: [],
  context: { sessionId: "s", runId: "r", step: 0, agentName: "test" },
};

describe("lsp.diagnostics paths", () => {
  it.each([
    ["../config.ts", "it climbs out of the root with .."],
    [join(dir, "config.ts"), "it is an absolute path outside the root"],
    ["link.ts", "a symbolic link on the way leads outside the root"],
  ])("%s is refused (%s); nothing outside is read or reported", async (path, why) => {
    const outcome = await Promise.resolve(
      diagnostics.execute({ path, min_severity: "warning" }, EXECUTION),
    ).then(
      (result) => ({ result, error: undefined }),
      (caught: unknown) => ({ result: undefined, error: caught as Error }),
    );
    expect(outcome.error?.message).toContain(`path "${path}" is refused: ${why}`);
    expect(JSON.stringify(outcome.result) + outcome.error?.message).not.toContain(SECRET);
    expect(servers.size).toBe(0); // no language server was even started
  });

  it("a file no language server handles is answered without being read", async () => {
    expect(await diagnostics.execute({ path: "notes.env", min_severity: "warning" }, EXECUTION)).toEqual({
      path: "notes.env",
      diagnostics: [],
      summary: "no language server handles notes.env",
    });
  });
});
