import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { redirectOptionalPackage } from "../errors/optional-package.js";
import { defaultState } from "./default-state.js";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the CLI's default state", () => {
  let app: string;
  beforeEach(() => {
    app = mkdtempSync(join(tmpdir(), "hookwise-app-"));
  });
  afterEach(() => {
    rmSync(app, { recursive: true, force: true });
  });

  it("is in the working directory for a config inside node_modules: nothing is written into the installed package", () => {
    const example = join(app, "node_modules", "hookwise", "examples", "quickstart");
    // As the package ships it: no state folder of a run in the checkout.
    cpSync(join(ROOT, "examples", "quickstart"), example, {
      recursive: true,
      filter: (source) => !source.includes(".hookwise"),
    });
    // Run from the app's folder, as `npx hookwise run …` is (tsx named by its URL: the app has none).
    const tsx = pathToFileURL(join(ROOT, "node_modules/tsx/dist/esm/index.mjs")).href;
    const child = spawnSync(
      process.execPath,
      [
        "--import",
        tsx,
        join(ROOT, "src/cli/main.ts"),
        "run",
        "node_modules/hookwise/examples/quickstart/hookwise.yaml",
        "--prompt",
        "What is 17 + 25?",
      ],
      { cwd: app, encoding: "utf8", timeout: 30_000, env: { ...process.env, NO_COLOR: "1" } },
    );
    const out = { code: child.status, stdout: child.stdout, stderr: child.stderr };
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain("42");
    expect(readdirSync(example)).not.toContain(".hookwise");
    expect(existsSync(join(app, ".hookwise"))).toBe(true);
  });

  it("stays beside a config anywhere else", () => {
    expect(defaultState("agents/hookwise.yaml", app)).toMatchObject({
      path: expect.stringMatching(new RegExp(`^${join(app, "agents", ".hookwise")}`)),
    });
  });

  it("is the file store without better-sqlite3, SQLite with it, and keeps the kind a folder already holds", () => {
    const undo = redirectOptionalPackage("better-sqlite3", "hookwise-no-such-package");
    try {
      expect(defaultState("hookwise.yaml", app)).toEqual({
        kind: "file",
        path: join(app, ".hookwise", "state"),
      });
    } finally {
      undo();
    }
    expect(defaultState("hookwise.yaml", app)).toEqual({
      kind: "sqlite",
      path: join(app, ".hookwise", "state.db"),
    });
    // A folder the file store started keeps it once better-sqlite3 is installed.
    mkdirSync(join(app, ".hookwise", "state"), { recursive: true });
    expect(defaultState("hookwise.yaml", app)).toEqual({
      kind: "file",
      path: join(app, ".hookwise", "state"),
    });
  });
});
