/**
 * Every config under examples/ runs as shipped: `hookwise validate` accepts it (exit 0),
 * `hookwise run --prompt` completes with its own scripted model (exit 0), and it carries
 * test cases beside it (`name.test.yaml`) that `hookwise test` passes. Each folder is copied
 * to a temporary one first, so the runs' state files never land in the repository. The
 * OpenAPI example calls its local billing API, started here for the whole file.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startBillingDemo } from "../../examples/openapi/server.mjs";
import { siblingTestFile } from "../../src/config/testing/config-tests.js";
import { cli } from "../support/cli.js";

const EXAMPLES = resolve(import.meta.dirname, "../../examples");

/**
 * Config files: YAML/JSON mappings that are neither a model script (a list), an OpenAPI
 * document, nor a config's test cases (`*.test.yaml`, run by `hookwise test`).
 */
const CONFIGS = readdirSync(EXAMPLES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((folder) =>
    readdirSync(join(EXAMPLES, folder.name))
      .filter((file) => /\.(ya?ml|json)$/.test(file) && !/\.test\.ya?ml$/.test(file))
      .map((file) => `${folder.name}/${file}`),
  )
  .filter((file) => {
    const data = parse(readFileSync(join(EXAMPLES, file), "utf8"));
    return data && typeof data === "object" && !Array.isArray(data) && !("openapi" in data);
  })
  .sort();

const copies = new Map<string, string>();
function copyOf(folder: string): string {
  let dir = copies.get(folder);
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), `hookwise-example-${folder}-`));
    cpSync(join(EXAMPLES, folder), dir, { recursive: true });
    // The examples' own programs (MCP demo servers) import the project's dependencies.
    symlinkSync(resolve(EXAMPLES, "../node_modules"), join(dir, "node_modules"), "dir");
    copies.set(folder, dir);
  }
  return dir;
}
afterAll(() => {
  for (const dir of copies.values()) rmSync(dir, { recursive: true, force: true });
});

// The OpenAPI example's billing API, and the variables its config reads.
let billing: Awaited<ReturnType<typeof startBillingDemo>>;
const savedEnv = { BILLING_URL: process.env.BILLING_URL, BILLING_TOKEN: process.env.BILLING_TOKEN };
beforeAll(async () => {
  billing = await startBillingDemo({ token: "example-token" });
  process.env.BILLING_URL = billing.url;
  process.env.BILLING_TOKEN = "example-token";
});
afterAll(async () => {
  await billing.close();
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

describe("every config under examples/ runs as shipped", () => {
  it("finds the examples", () => {
    expect(CONFIGS.length).toBeGreaterThanOrEqual(20);
  });

  for (const file of CONFIGS) {
    it(file, async () => {
      const [folder, name] = file.split("/") as [string, string];
      const path = join(copyOf(folder), name);
      const validated = await cli(["validate", path]);
      expect(validated.code, validated.stderr).toBe(0);
      expect(validated.stdout).toContain(": valid");
      const run = await cli(["run", path, "--prompt", "hello", "--json"]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).outcome).toBe("completed");
    }, 180_000);
  }
});

describe("every config under examples/ passes its own tests (hookwise test)", () => {
  for (const file of CONFIGS) {
    it(file, async () => {
      const [folder, name] = file.split("/") as [string, string];
      const path = join(copyOf(folder), name);
      const tests = siblingTestFile(join(EXAMPLES, file));
      expect(
        tests,
        `${file} has no test file beside it (${name.replace(/\.[^.]+$/, "")}.test.yaml)`,
      ).toBeDefined();
      const out = await cli(["test", path, "--json"]);
      expect(out.stdout, `hookwise test wrote no report: ${out.stderr}`).not.toBe("");
      const report = JSON.parse(out.stdout) as {
        tests: { name: string; passed: boolean; failures: unknown[] }[];
      };
      expect(report.tests.length).toBeGreaterThan(0);
      expect(report.tests.filter((test) => !test.passed)).toEqual([]);
      expect(out.code, out.stderr).toBe(0);
    }, 180_000);
  }
});
