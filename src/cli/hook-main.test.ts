import { beforeEach, describe, expect, it, vi } from "vitest";
import { hookArguments } from "./hook-main.js";
import { main } from "./main.js";
import type { CliIO } from "./types.js";

const called: unknown[][] = [];
vi.mock("./commands/hook-command.js", async (original) => ({
  ...(await original<typeof import("./commands/hook-command.js")>()),
  hookCommand: async (...args: unknown[]) => {
    called.push(args.slice(0, 2));
    return 0;
  },
}));

function quietIO(): CliIO {
  const printer = { line() {}, write() {} };
  return { stdout: printer, stderr: printer, isTTY: false };
}

/** What the whole CLI hands `hookCommand` for `argv`, or undefined when it refuses the line. */
async function throughCli(argv: string[]): Promise<unknown[] | undefined> {
  called.length = 0;
  const code = await main(argv, quietIO());
  return code === 0 ? called[0] : undefined;
}

beforeEach(() => {
  called.length = 0;
});

describe("hookwise hook's own reading of its command line", () => {
  it("reads the usual lines as the whole CLI does", async () => {
    for (const argv of [
      ["hook", "hookwise.yaml", "--harness", "claude"],
      ["hook", "/abs/h.yaml", "--harness", "codex", "--agent", "reviewer"],
      ["hook", "--harness=gemini", "h.yaml", "-a", "a1", "--timeout", "12.5"],
      ["hook", "h.yaml", "--harness", "cursor", "--agent=x", "--timeout=3"],
      ["hook", "", "--harness", "claude"],
    ]) {
      const read = hookArguments(argv);
      expect(read, argv.join(" ")).toBeDefined();
      expect([read!.config, read!.options], argv.join(" ")).toEqual(await throughCli(argv));
    }
  });

  it("leaves every other line to the whole CLI: help, mistakes and spellings it does not read", async () => {
    for (const argv of [
      ["hook", "--help"],
      ["hook", "h.yaml"],
      ["hook", "h.yaml", "--harness"],
      ["hook", "h.yaml", "--harness", "vscode"],
      ["hook", "h.yaml", "--harness", "claude", "--timeout", "0"],
      ["hook", "h.yaml", "--harness", "claude", "--timeout", "soon"],
      ["hook", "h.yaml", "--harness", "claude", "--harness", "codex"],
      ["hook", "h.yaml", "other.yaml", "--harness", "claude"],
      ["hook", "h.yaml", "--harness", "claude", "--verbose"],
      ["hook", "h.yaml", "--harness", "claude", "-areviewer"],
      ["hook", "h.yaml", "--harness", "claude", "--", "x"],
      ["validate", "h.yaml", "--harness", "claude"],
      ["--harness", "claude", "hook", "h.yaml"],
    ])
      expect(hookArguments(argv), argv.join(" ")).toBeUndefined();
  });
});
