/**
 * The coding toolset in a config: its tools are sent by Claude Code's names, and policies
 * guard them like any other tool, reading `args.command` and `args.file_path`.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runOn, SURFACES } from "../../../test/support/surfaces.js";
import { loadConfig } from "../load-config.js";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hookwise-coding-config-")));
  writeFileSync(join(dir, ".env"), "TOKEN=x\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe("the coding toolset in a config", () => {
  it.each(SURFACES)(
    "%s: policies read args.command and args.file_path; the model sees Bash, Write…",
    async (surface) => {
      writeFileSync(
        join(dir, "script.yaml"),
        [
          "- tool_calls:",
          '  - { name: Bash, args: { command: "rm -f .env" } }',
          '  - { name: Write, args: { file_path: ".env", content: "TOKEN=stolen" } }',
          '  - { name: Write, args: { file_path: "ok.txt", content: "fine" } }',
          '  - { name: Bash, args: { command: "cat ok.txt" } }',
          "- text: done",
        ].join("\n"),
      );
      const config = join(dir, "hookwise.yaml");
      writeFileSync(
        config,
        [
          "models:",
          "  default: scripted:./script.yaml",
          "toolsets:",
          "  code: { kind: builtin, module: coding }",
          "runtime:",
          "  policies:",
          '    - { decision: deny, tool: Bash, when: "args.command.contains(\\"rm \\")", reason: "no rm" }',
          '    - { decision: deny, tool: code.Write, when: "args.file_path.endsWith(\\".env\\")", reason: "secrets" }',
        ].join("\n"),
      );
      const loaded = await loadConfig(config, { logger: quiet });
      try {
        const agent = await loaded.createAgent();
        const { result } = await runOn(surface, agent, "go");
        expect(result.outcome).toBe("completed");
        expect(result.requests[0]!.tools.map((tool) => tool.name)).toEqual([
          "Bash",
          "Read",
          "Write",
          "Edit",
          "MultiEdit",
          "Grep",
          "Glob",
          "LS",
        ]);
        const [rm, env, ok, cat] = result.steps[0]!.toolResults;
        expect(rm).toMatchObject({ executed: false, isError: true });
        expect(env).toMatchObject({ executed: false, isError: true });
        expect([ok!.executed, cat!.executed]).toEqual([true, true]);
        expect(cat!.result).toMatchObject({ stdout: "fine" });
      } finally {
        await loaded.close();
      }
      expect(readFileSync(join(dir, ".env"), "utf8")).toBe("TOKEN=x\n");
      expect(existsSync(join(dir, "ok.txt"))).toBe(true);
    },
  );
});
