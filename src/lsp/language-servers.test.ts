import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openResourceCount } from "../tools/open-resources.js";
import { atLeast, formatDiagnostics } from "./format-diagnostics.js";
import { LanguageServers } from "./language-servers.js";

const root = mkdtempSync(join(tmpdir(), "hookwise-lsp-"));
const servers = new LanguageServers({ root });
afterAll(async () => {
  await servers.close();
  rmSync(root, { recursive: true, force: true });
});

describe("LanguageServers (real typescript-language-server)", () => {
  it("reports TS2322 for a string assigned to a number, then nothing once fixed; one process", async () => {
    const first = await servers.diagnose("src/a.ts", "const x: number = 'text';\nexport {};\n");
    expect(first?.server).toBe("typescript-language-server");
    // Hints come too (6133: x is never read); errors and warnings are what lsp_diagnose injects.
    expect(first?.diagnostics.map((item) => item.code).sort()).toEqual([2322, 6133]);
    const problems = atLeast(first!.diagnostics, "warning");
    expect(formatDiagnostics("src/a.ts", problems)).toBe(
      "1 problem in src/a.ts:\nsrc/a.ts:1:7 error TS2322: Type 'string' is not assignable to type 'number'.",
    );
    const fixed = await servers.diagnose("src/a.ts", "const x: number = 1;\nexport {};\n");
    expect(atLeast(fixed!.diagnostics, "warning")).toEqual([]);
    expect(servers.size).toBe(1);
    expect(openResourceCount()).toBe(1);
  }, 60_000);

  it("answers undefined for a file no server handles", async () => {
    expect(await servers.diagnose("notes.md", "# hi")).toBeUndefined();
  });

  it("closes its servers; the pool is no longer tracked", async () => {
    const pool = new LanguageServers({ root });
    await pool.diagnose("b.js", "let y = 1;\n");
    expect(pool.size).toBe(1);
    await pool.close();
    expect(pool.size).toBe(0);
    expect(openResourceCount()).toBe(1); // only the suite's shared pool
  }, 60_000);
});
