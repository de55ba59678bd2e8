/**
 * A provider package that is not installed, or an API key that is not set, is said when the
 * config loads (exit 2, naming what to do), never as a provider error a run retries.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { redirectOptionalPackage } from "../../src/errors/optional-package.js";
import { cli } from "../support/cli.js";

let dir: string;
let config: string;
const undo: (() => void)[] = [];
const saved = process.env.OPENAI_API_KEY;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-provider-"));
  config = join(dir, "hookwise.yaml");
  writeFileSync(
    config,
    "models:\n  default: openai:gpt-4.1-mini\nagents:\n  - id: main\n    instructions: hi\n",
  );
});
afterEach(() => {
  for (const restore of undo.splice(0)) restore();
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
  rmSync(dir, { recursive: true, force: true });
});

describe("a provider that cannot work", () => {
  it("without its package: validate and run fail with exit 2 naming what to install; no request is made", async () => {
    undo.push(redirectOptionalPackage("@ai-sdk/openai", "@ai-sdk/openai-not-installed"));
    process.env.OPENAI_API_KEY = "sk-test";
    const validated = await cli(["validate", config]);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toContain(
      "models.default: the openai provider needs the package @ai-sdk/openai, which is not installed; expected npm install @ai-sdk/openai",
    );
    const overridden = await cli(["validate", config, "--model", "anthropic:claude-sonnet-4-5"]);
    expect(overridden.code).toBe(2);
    const ran = await cli(["run", config, "--prompt", "hi"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain(
      "needs the package @ai-sdk/openai, which is not installed: npm install @ai-sdk/openai",
    );
    expect(ran.stdout).not.toMatch(/attempt|retry|step 1/);
  });

  it("without its package nor its API key: --model names the package to install first (exit 2), said once", async () => {
    undo.push(redirectOptionalPackage("@ai-sdk/openai", "@ai-sdk/openai-not-installed"));
    delete process.env.OPENAI_API_KEY;
    writeFileSync(join(dir, "script.yaml"), "- text: hi\n");
    const scripted = join(dir, "scripted.yaml");
    writeFileSync(
      scripted,
      "models:\n  default: scripted:./script.yaml\nagents:\n  - id: main\n    instructions: hi\n",
    );
    for (const command of ["validate", "run"]) {
      const out = await cli(
        [command, scripted, "--model", "openai:gpt-4.1-mini", "--prompt", "hi"].slice(
          0,
          command === "run" ? 6 : 4,
        ),
      );
      expect(out.code, `${command}: ${out.stderr}`).toBe(2);
      expect(out.stderr, command).toContain(
        "needs the package @ai-sdk/openai, which is not installed: npm install @ai-sdk/openai",
      );
      expect(out.stderr, command).not.toContain("OPENAI_API_KEY");
      expect(out.stderr, command).not.toContain("--model: --model:");
    }
  });

  it("without its API key: run fails with exit 2 naming the variable (validate checks the file, not the environment)", async () => {
    delete process.env.OPENAI_API_KEY;
    const ran = await cli(["run", config, "--prompt", "hi"]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("set the environment variable OPENAI_API_KEY");
    expect((await cli(["validate", config])).code).toBe(0);
  });
});
