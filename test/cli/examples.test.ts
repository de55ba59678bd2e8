/**
 * Every config under examples/ runs as shipped: `hookwise validate` accepts it (exit 0) and
 * `hookwise run --prompt` completes with its own scripted model (exit 0). Each folder is
 * copied to a temporary one first, so the runs' state files never land in the repository.
 * The OpenAPI example needs its local API server: it is validated here (with the variables
 * its server prints) and run by its own test.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cli } from "../support/cli.js";

const EXAMPLES = resolve(import.meta.dirname, "../../examples");
const NEEDS_A_SERVER = new Set(["openapi/hookwise.yaml"]);

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

describe("every config under examples/ runs as shipped", () => {
  it("finds the examples", () => {
    expect(CONFIGS.length).toBeGreaterThanOrEqual(20);
  });

  for (const file of CONFIGS) {
    it(file, async () => {
      const [folder, name] = file.split("/") as [string, string];
      const path = join(copyOf(folder), name);
      const env = { BILLING_URL: "http://127.0.0.1:9", BILLING_TOKEN: "example-token" };
      const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
      Object.assign(process.env, env);
      try {
        const validated = await cli(["validate", path]);
        expect(validated.code, validated.stderr).toBe(0);
        expect(validated.stdout).toContain(": valid");
      } finally {
        for (const [key, value] of Object.entries(saved)) {
          if (value === undefined) delete process.env[key];
          else process.env[key] = value;
        }
      }
      if (NEEDS_A_SERVER.has(file)) return;
      const run = await cli(["run", path, "--prompt", "hello", "--json"]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).outcome).toBe("completed");
    }, 180_000);
  }
});
