import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openResourceCount } from "../tools/open-resources.js";
import { atLeast, formatDiagnostics } from "./format-diagnostics.js";
import type { LanguageServerSpec } from "./language-server-spec.js";
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

  it("gives each server a temporary folder of its own and removes it with the server", async () => {
    // typescript-language-server makes a folder in its TMPDIR for each type checker it starts
    // and leaves it there when it ends.
    const temp = mkdtempSync(join(tmpdir(), "hookwise-lsp-temp-"));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = temp;
    const pool = new LanguageServers({ root });
    try {
      await pool.diagnose("c.ts", "export const z: number = 1;\n");
      const [own, ...others] = readdirSync(temp);
      expect(others).toEqual([]);
      expect(own).toMatch(/^hookwise-lsp-/);
      expect(readdirSync(join(temp, own!)).length).toBeGreaterThan(0); // the server wrote there
      await pool.close();
      expect(readdirSync(temp)).toEqual([]);
    } finally {
      await pool.close();
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(temp, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("a server that publishes in two rounds (an empty one, then the error)", () => {
  const fixture = fileURLToPath(new URL("../../test/fixtures/lsp/rounds-server.mjs", import.meta.url));
  const rounds = (firstMs: number, gapMs: number): LanguageServerSpec => ({
    id: `rounds-${firstMs}-${gapMs}`,
    command: process.execPath,
    args: [fixture, String(firstMs), String(gapMs)],
    extensions: [".rounds"],
  });

  it.each([
    // A quick first round: the 250 ms quiet period covers a 100 ms gap.
    [0, 100],
    // A slow first round (a cold server, a busy machine): the gap (400 ms) is longer than
    // 250 ms, and the quiet period stretches to the first round's delay (600 ms).
    [600, 400],
  ])(
    "first round after %i ms, the error %i ms later: the answer holds the error",
    async (firstMs, gapMs) => {
      const pool = new LanguageServers({ root, servers: [rounds(firstMs, gapMs)] });
      try {
        const answer = await pool.diagnose("a.rounds", "const x: number = 'text';\n");
        expect(answer?.server).toBe(`rounds-${firstMs}-${gapMs}`);
        expect(answer?.diagnostics.map((item) => item.code)).toEqual([2322]);
        // A second diagnose of the same file (a change) waits for its own rounds too.
        const again = await pool.diagnose("a.rounds", "const x: number = 'still text';\n");
        expect(again?.diagnostics.map((item) => item.code)).toEqual([2322]);
      } finally {
        await pool.close();
      }
    },
    30_000,
  );

  it("at the deadline, the rounds so far are the answer; no round at all is an error", async () => {
    // The first (empty) round at 900 ms stretches the quiet period past the 1.5 s deadline.
    const late = new LanguageServers({ root, servers: [rounds(900, 5_000)] });
    const silent = new LanguageServers({ root, servers: [rounds(5_000, 0)] });
    try {
      const answer = await late.diagnose("c.rounds", "x\n", { timeoutMs: 1_500 });
      expect(answer?.diagnostics).toEqual([]);
      await expect(silent.diagnose("d.rounds", "x\n", { timeoutMs: 500 })).rejects.toThrow(
        /rounds-5000-0.*no diagnostics for .*d\.rounds within 500 ms/,
      );
    } finally {
      await Promise.all([late.close(), silent.close()]);
    }
  }, 30_000);

  it("a quiet period given explicitly is a minimum", async () => {
    const pool = new LanguageServers({ root, servers: [rounds(0, 400)] });
    try {
      // The first round is immediate; only the caller's own 800 ms window waits out the gap.
      const answer = await pool.diagnose("b.rounds", "x\n", { settleMs: 800 });
      expect(answer?.diagnostics.map((item) => item.code)).toEqual([2322]);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
