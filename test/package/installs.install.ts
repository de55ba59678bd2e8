/**
 * hookwise as a user installs it: the tarball `npm pack` makes (its `prepack` builds it),
 * installed with plain `npm install` — no --legacy-peer-deps — into scratch apps:
 *
 * - the first command: `npm install hookwise zod`, then the quickstart straight from
 *   node_modules, with no native package and nothing written into node_modules;
 * - the lowest and the highest versions of each optional peer range package.json claims,
 *   each app running a smoke test (smoke.mjs) and `tsc --noEmit` of a typed example
 *   (typed.ts).
 *
 * The apps share npm's cache. `npm run test:install`; it is not part of `npm test`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
};

let work: string;
let tarball: string;
let redisUrl: string | undefined;
let stopRedis: (() => void) | undefined;

function sh(command: string, args: string[], cwd: string, input?: string): string {
  const child = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    input,
    timeout: 280_000,
    env: { ...process.env, NO_COLOR: "1", npm_config_audit: "false", npm_config_fund: "false" },
  });
  if (child.status !== 0)
    throw new Error(
      `${command} ${args.join(" ")} in ${cwd} exited ${child.status}:\n${child.stdout}\n${child.stderr}`,
    );
  return child.stdout;
}

/**
 * A scratch app with `dependencies` (hookwise is the tarball), installed with plain npm install
 * (no --legacy-peer-deps: a peer range that excludes a pinned version fails here).
 * `ignoreScripts` skips install scripts: better-sqlite3's native build takes minutes, so the
 * peer apps resolve it but do not build it (the SQLite store runs on better-sqlite3 12 in the
 * suite itself).
 */
function app(name: string, dependencies: Record<string, string>, ignoreScripts = false): string {
  const dir = join(work, name);
  cpSync(join(import.meta.dirname, "app"), dir, { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      private: true,
      type: "module",
      dependencies: { hookwise: tarball, ...dependencies },
    }),
  );
  sh(
    "npm",
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...(ignoreScripts ? ["--ignore-scripts"] : []),
    ],
    dir,
  );
  return dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hookwise-install-"));
  sh("npm", ["pack", "--pack-destination", work], root); // its prepack builds
  tarball = join(work, readdirSync(work).find((file) => file.endsWith(".tgz"))!);
  if (spawnSync("redis-server", ["--version"]).status === 0) {
    const port = await freePort();
    const redis = spawn("redis-server", ["--port", String(port), "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    stopRedis = () => redis.kill();
    redisUrl = `redis://127.0.0.1:${port}`;
  }
}, 300_000);

afterAll(() => {
  stopRedis?.();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("ships what it built (prepack), and its docs and examples", () => {
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    expect(files).toEqual(
      expect.arrayContaining([
        "package/dist/index.mjs",
        "package/dist/index.d.mts",
        "package/dist/ai-sdk.mjs",
        "package/dist/cli.mjs",
        "package/CHANGELOG.md",
        "package/examples/quickstart/hookwise.yaml",
      ]),
    );
  });

  it("runs the quickstart right after `npm install hookwise zod`: no native build, state in the working directory", () => {
    const dir = app("first-command", { zod: "^4.0.0" });
    expect(existsSync(join(dir, "node_modules", "better-sqlite3"))).toBe(false);
    const out = sh(
      "npx",
      [
        "hookwise",
        "run",
        "node_modules/hookwise/examples/quickstart/hookwise.yaml",
        "--prompt",
        "What is 17 + 25?",
      ],
      dir,
    );
    expect(out).toContain("42");
    expect(readdirSync(join(dir, "node_modules/hookwise/examples/quickstart"))).not.toContain(".hookwise");
    expect(readdirSync(join(dir, ".hookwise"))).toEqual(["state"]);
    // The same from stdin, in the same session store.
    const piped = sh(
      "npx",
      ["hookwise", "run", "node_modules/hookwise/examples/quickstart/hookwise.yaml"],
      dir,
      "What is 17 + 25?\n",
    );
    expect(piped).toContain("42");
  });

  /** Each end of each range package.json claims for the peers an app pairs together. */
  const ends = {
    lowest: {
      ai: "6.0.0",
      "@ai-sdk/openai": "3.0.0",
      typescript: "5.0.4",
      ioredis: "5.0.0",
      "better-sqlite3": "11.0.0",
      "@modelcontextprotocol/sdk": "1.10.0",
    },
    highest: {
      ai: "^7.0.0",
      "@ai-sdk/openai": "^4.0.0",
      typescript: "^7.0.0",
      ioredis: "^6.0.0",
      "better-sqlite3": "^12.0.0",
      "@modelcontextprotocol/sdk": "^1.0.0",
    },
  };

  it.each(Object.entries(ends))(
    "installs with the %s version of each peer range, runs the smoke test and type-checks the typed example",
    (name, peers) => {
      for (const peer of Object.keys(peers)) {
        if (peer === "typescript") continue; // not a peer: any version that compiles the example
        expect(pkg.peerDependencies[peer], peer).toBeDefined();
      }
      const dir = app(`peers-${name}`, { ...peers, zod: "^4.0.0", "@types/node": "^20.0.0" }, true);
      const smoke = spawnSync(process.execPath, ["smoke.mjs"], {
        cwd: dir,
        encoding: "utf8",
        env: { ...process.env, ...(redisUrl ? { REDIS_URL: redisUrl } : {}) },
      });
      expect(smoke.stdout + smoke.stderr).toContain("smoke ok");
      sh("npx", ["tsc", "--noEmit", "-p", "."], dir);
    },
  );
});
