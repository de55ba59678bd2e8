import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { cli, copyExample } from "../support/cli.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function quickstart(): string {
  const example = copyExample("quickstart");
  cleanups.push(example.cleanup);
  return join(example.dir, "hookwise.yaml");
}

/** The CLI in-process with `stdin` piped to it. */
async function piped(args: string[], stdin: string) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: {
      line: (text) => {
        stdout += `${text}\n`;
      },
      write: (text) => {
        stdout += text;
      },
    },
    stderr: {
      line: (text) => {
        stderr += `${text}\n`;
      },
      write: (text) => {
        stderr += text;
      },
    },
    isTTY: false,
    readInput: async () => stdin,
  });
  return { code, stdout, stderr };
}

describe("hookwise run: the prompt", () => {
  it("is read from stdin when it is piped and no --prompt is given", async () => {
    const out = await piped(["run", quickstart(), "--json"], "What is 17 + 25?\n");
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout);
    expect(result.outcome).toBe("completed");
    expect(result.text).toContain("42");
    // The final newline of `echo` is not part of the prompt.
    expect(result.messages.find((message: { role: string }) => message.role === "user").content).toBe(
      "What is 17 + 25?",
    );
  });

  it("refuses an empty or blank prompt, from --prompt or stdin, with exit 2 and no run", async () => {
    for (const out of [
      await cli(["run", quickstart(), "--prompt", ""]),
      await cli(["run", quickstart(), "--prompt", "  \n"]),
      await piped(["run", quickstart()], "\n"),
    ]) {
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/^hookwise: (the prompt is empty|no prompt: stdin was empty)/);
      expect(out.stdout).not.toContain("step 1");
    }
  });
});

describe("each subcommand's --help", () => {
  it("shows an example and the exit codes", async () => {
    for (const command of [
      "run",
      "resume",
      "validate",
      "explain",
      "tools",
      "history",
      "replay",
      "test",
      "trace",
      "serve",
      "mcp",
      "schema",
    ]) {
      const out = await cli([command, "--help"]);
      expect(out.code, command).toBe(0);
      expect(out.stdout, command).toMatch(
        new RegExp(
          `Examples:\\n  \\$ hookwise ${command}|Examples:\\n  \\$ [A-Z_]+=\\S+ hookwise ${command}`,
        ),
      );
      expect(out.stdout, command).toMatch(/Exit codes: 0 /);
    }
  });
});
