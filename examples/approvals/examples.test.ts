/**
 * Runs examples/approvals and checks what docs/approvals.md says of it; also checks that
 * each TypeScript block of docs/approvals.md is taken verbatim from a `#region` of the
 * example, so the page only shows code the suite executes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "./suspend-and-resume.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "hookwise-approvals-example-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("suspend-and-resume", () => {
  it("suspends with the pending approval, resumes in another agent, pays once; a denial pays nothing", async () => {
    const paid: number[] = [];
    const { suspended, done, denied } = await main(dir, paid);
    expect(suspended.outcome).toBe("suspended");
    expect(suspended.approvals).toEqual([
      expect.objectContaining({ toolName: "pay", args: { amount: 5 }, reason: "payments need a human" }),
    ]);
    expect(done.outcome).toBe("completed");
    expect(done.text).toBe("Paid invoice 17.");
    expect(denied.outcome).toBe("completed");
    expect(paid).toEqual([5]);
    const deniedResult = denied.steps[0]!.toolResults[0]!;
    expect(deniedResult.result).toBe('tool "pay" was not approved: over the monthly budget');
  });
});

describe("docs/approvals.md", () => {
  it("every TypeScript block is a region of the example, word for word", () => {
    const doc = readFileSync(join(ROOT, "docs/approvals.md"), "utf8");
    const source = readFileSync(join(ROOT, "examples/approvals/suspend-and-resume.ts"), "utf8");
    const regions = [...source.matchAll(/\/\/ #region (\S+)\n([\s\S]*?)\n\s*\/\/ #endregion \1/g)].map(
      ([, , body]) => dedent(body!),
    );
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)\n```/g)].map(([, body]) => body!);
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) expect(regions).toContain(block);
  });
});

function dedent(text: string): string {
  const lines = text.split("\n");
  const indent = Math.min(...lines.filter((line) => line.trim()).map((line) => line.match(/^ */)![0].length));
  return lines.map((line) => line.slice(indent)).join("\n");
}
