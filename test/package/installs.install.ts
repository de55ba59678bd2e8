/**
 * hookwise as a user installs it: the tarball `npm pack` makes (its `prepack` builds it),
 * installed with plain `npm install` — no --legacy-peer-deps — into scratch apps:
 *
 * - the first command: `npm install hookwise zod`, then the quickstart straight from
 *   node_modules, with no native package and nothing written into node_modules;
 * - the lowest and the highest version of every optional peer range package.json claims
 *   (read from package.json: a peer added there is installed here at both ends), each app
 *   running a smoke test (smoke.mjs: both agent loops on the app's AI SDK and providers, the
 *   SQLite store on the app's better-sqlite3, Redis, an MCP toolset, an OpenAPI toolset, the
 *   exact tokenizer, the HTTP server) and `tsc --noEmit` (strict) of the README's example and
 *   a typed example (typed.ts), with TypeScript 5.0 at both ends and 7 at the highest.
 *
 * - a newcomer following docs/harnesses.md for Claude Code: `npm install -D hookwise`, the
 *   quick start's `hookwise.yaml`, `npx hookwise validate` and `npx hookwise setup claude`,
 *   then the real Claude Code (offline, against a fake model API) guarded by it.
 *
 * The apps install at once, sharing npm's cache, the peer apps while the tarball is packed.
 * better-sqlite3 is native: each app's copy is built for this Node.js (from source: no
 * prebuilt download) once per version and kept in `$HOOKWISE_INSTALL_CACHE` (default
 * `~/.cache/hookwise-install`); the version the repository itself installed is taken from
 * its node_modules, already built.
 *
 * `npm run test:install`; it is not part of `npm test`.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, readmeExample } from "../support/doc-blocks.js";
import { startFakeAnthropic } from "../support/harnesses/fake-anthropic.js";
import { harnesses } from "../support/harnesses/install.js";
import { runClaude } from "../support/harnesses/run-claude.js";
import { killAllHarnesses } from "../support/harnesses/run-harness.js";

const root = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  peerDependencies: Record<string, string>;
};
const env = { ...process.env, NO_COLOR: "1", npm_config_audit: "false", npm_config_fund: "false" };

let work: string;
let tarball: string;
let redisUrl: string | undefined;
let stopRedis: (() => void) | undefined;
/** Each app's folder once installed (or why it could not be). */
const apps = new Map<string, Promise<string>>();

/** Runs a command; resolves its stdout, rejects with both streams when it fails. */
function run(
  command: string,
  args: string[],
  cwd: string,
  options: { input?: string; extraEnv?: object; timeoutMs?: number } = {},
) {
  return new Promise<string>((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...options.extraEnv } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 280_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done(stdout);
      else
        fail(
          new Error(`${command} ${args.join(" ")} in ${cwd} exited ${code ?? signal}:\n${stdout}\n${stderr}`),
        );
    });
    child.stdin.end(options.input ?? "");
  });
}

/** The lowest version a range admits, and its highest alternative: `^6.0.0 || ^7.0.0` → 6.0.0, ^7.0.0. */
function rangeEnds(range: string): { lowest: string; highest: string } {
  const alternatives = range.split("||").map((part) => part.trim());
  const lowest = /^\^?(\d+\.\d+\.\d+)$/.exec(alternatives[0]!)?.[1];
  const highest = alternatives.at(-1)!;
  if (!lowest || !/^\^\d+\.\d+\.\d+$/.test(highest))
    throw new Error(`peer range "${range}" is not of the form ^X.Y.Z [|| ^X.Y.Z]`);
  return { lowest, highest };
}

/** Where built better-sqlite3 binaries are kept between runs. */
const sqliteCache = process.env.HOOKWISE_INSTALL_CACHE || join(homedir(), ".cache", "hookwise-install");
/** One build per version at a time, shared by the apps of this run. */
const sqliteBuilds = new Map<string, Promise<string>>();

function sqliteVersion(dir: string): string {
  const file = join(dir, "node_modules", "better-sqlite3", "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/**
 * better-sqlite3's native module of `version`, built for this Node.js: the repository's own
 * when it is the same version, else built from source (its install script, told not to
 * download) in a folder of its own, once, and cached.
 */
function builtSqlite(version: string): Promise<string> {
  const key = `better-sqlite3-${version}-abi${process.versions.modules}-${process.platform}-${process.arch}.node`;
  let build = sqliteBuilds.get(key);
  if (!build) {
    build = (async () => {
      const cached = join(sqliteCache, key);
      if (existsSync(cached)) return cached;
      mkdirSync(sqliteCache, { recursive: true });
      const staging = `${cached}.partial-${process.pid}`;
      const own = join(root, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node");
      if (sqliteVersion(root) === version && existsSync(own)) copyFileSync(own, staging);
      else {
        const dir = join(work, `better-sqlite3-${version}`);
        mkdirSync(dir);
        await run(
          "npm",
          ["install", "--no-audit", "--no-fund", "--loglevel=error", `better-sqlite3@${version}`],
          dir,
          // A native build takes minutes on a busy machine; on both cores.
          { extraEnv: { npm_config_build_from_source: "true", JOBS: "max" }, timeoutMs: 840_000 },
        );
        copyFileSync(
          join(dir, "node_modules", "better-sqlite3", "build", "Release", "better_sqlite3.node"),
          staging,
        );
      }
      renameSync(staging, cached);
      return cached;
    })();
    sqliteBuilds.set(key, build);
  }
  return build;
}

function placeSqlite(dir: string, built: string): void {
  const release = join(dir, "node_modules", "better-sqlite3", "build", "Release");
  mkdirSync(release, { recursive: true });
  copyFileSync(built, join(release, "better_sqlite3.node"));
}

const npmInstall = [
  "install",
  "--prefer-offline",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
  "--ignore-scripts",
];

function writeApp(dir: string, name: string, dependencies: Record<string, string>): void {
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name, private: true, type: "module", dependencies }),
  );
}

/**
 * A scratch app: `dependencies` installed first (while the tarball is packed), then
 * hookwise added to them with a plain `npm install` — as in a project that has its AI SDK,
 * TypeScript and drivers already (no --legacy-peer-deps: a peer range that excludes one of
 * them fails here). Install scripts are skipped; better-sqlite3's native module is built
 * (or taken from the cache) meanwhile and put in place.
 */
async function app(
  name: string,
  dependencies: Record<string, string>,
  packed: Promise<string>,
): Promise<string> {
  const dir = join(work, name);
  cpSync(join(import.meta.dirname, "app"), dir, { recursive: true });
  // The README's example, word for word: the app's tsconfig compiles it with typed.ts.
  writeFileSync(join(dir, "readme.ts"), readmeExample(join(root, "README.md")));
  writeApp(dir, name, dependencies);
  // A pinned version is built (or found in the cache) from the start.
  const wanted = dependencies["better-sqlite3"];
  const pinned = wanted && /^\d/.test(wanted) ? builtSqlite(wanted) : undefined;
  pinned?.catch(() => {}); // awaited below
  await run("npm", npmInstall, dir);
  const [built] = await Promise.all([
    wanted ? (pinned ?? builtSqlite(sqliteVersion(dir))) : undefined,
    name === "peers-highest"
      ? run("npm", ["install", "--prefix", "ts5", ...npmInstall.slice(1), `typescript@${TYPESCRIPT_5}`], dir)
      : undefined,
    (async () => {
      writeApp(dir, name, { hookwise: await packed, ...dependencies });
      await run("npm", npmInstall, dir);
    })(),
  ]);
  if (built) placeSqlite(dir, built);
  return dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * Both ends of every peer range, and of the TypeScript the examples compile with (not a
 * peer): 5.0 with the lowest peers; 7, and 5.0 beside it, with the highest.
 */
const ends = {
  lowest: { typescript: "5.0.4" } as Record<string, string>,
  highest: { typescript: "^7.0.0" } as Record<string, string>,
};
/** The second TypeScript of the highest app, in a folder of its own (both would install a `tsc` bin). */
const TYPESCRIPT_5 = "5.0.4";
for (const [peer, range] of Object.entries(pkg.peerDependencies)) {
  const { lowest, highest } = rangeEnds(range);
  ends.lowest[peer] = lowest;
  ends.highest[peer] = highest;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "hookwise-install-"));
  // Packed (its prepack builds) while the peer apps install what they have besides hookwise.
  const packed = run("npm", ["pack", "--pack-destination", work], root).then(() =>
    join(work, readdirSync(work).find((file) => file.endsWith(".tgz"))!),
  );
  const installing = (name: string, dir: Promise<string>) => {
    dir.catch(() => {}); // its test reports it
    apps.set(name, dir);
  };
  for (const [name, peers] of Object.entries(ends))
    installing(name, app(`peers-${name}`, { ...peers, zod: "^4.0.0", "@types/node": "^20.0.0" }, packed));
  tarball = await packed;
  // `npm install hookwise zod` in an empty project, scripts and all.
  const first = join(work, "first-command");
  cpSync(join(import.meta.dirname, "app"), first, { recursive: true });
  writeApp(first, "first-command", { hookwise: tarball, zod: "^4.0.0" });
  installing(
    "first-command",
    run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], first).then(() => first),
  );
  // docs/harnesses.md's first step, in a project that has only a package.json.
  const newcomer = join(work, "newcomer");
  mkdirSync(newcomer);
  writeApp(newcomer, "newcomer", {});
  installing(
    "newcomer",
    run("npm", ["install", "-D", tarball, "--no-audit", "--no-fund", "--loglevel=error"], newcomer).then(
      () => newcomer,
    ),
  );
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
  killAllHarnesses();
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
        "package/dist/hook.cjs",
        "package/dist/code-cache.cjs",
        "package/CHANGELOG.md",
        "package/examples/quickstart/hookwise.yaml",
      ]),
    );
  });

  it("every peer range is ^X.Y.Z alternatives, each end installed below", () => {
    expect(rangeEnds("^11.0.0 || ^12.0.0")).toEqual({ lowest: "11.0.0", highest: "^12.0.0" });
    expect(() => rangeEnds(">=5")).toThrow(/not of the form/);
    for (const peer of Object.keys(pkg.peerDependencies)) {
      expect(ends.lowest[peer], peer).toBeDefined();
      expect(ends.highest[peer], peer).toBeDefined();
    }
  });

  it.concurrent("runs the quickstart right after `npm install hookwise zod`: no native build, state in the working directory", async () => {
    const dir = await apps.get("first-command")!;
    expect(existsSync(join(dir, "node_modules", "better-sqlite3"))).toBe(false);
    const quickstart = "node_modules/hookwise/examples/quickstart/hookwise.yaml";
    const out = await run("npx", ["hookwise", "run", quickstart, "--prompt", "What is 17 + 25?"], dir);
    expect(out).toContain("42");
    expect(readdirSync(join(dir, "node_modules/hookwise/examples/quickstart"))).not.toContain(".hookwise");
    expect(readdirSync(join(dir, ".hookwise"))).toEqual(["state"]);
    // The same from stdin, in the same session store.
    const piped = await run("npx", ["hookwise", "run", quickstart], dir, { input: "What is 17 + 25?\n" });
    expect(piped).toContain("42");
    // A provider whose package the app lacks: validate says what to install (exit 2).
    const refused = await run(
      "npx",
      ["hookwise", "validate", quickstart, "--model", "openai:gpt-4.1-mini"],
      dir,
    ).then(
      () => "validate passed",
      (error: Error) => error.message,
    );
    expect(refused).toContain("exited 2");
    expect(refused).toContain("npm install @ai-sdk/openai");
  });

  it.concurrent.each(Object.keys(ends))(
    "installs with the %s version of each peer range, runs the smoke test on them and type-checks the typed example",
    async (name) => {
      const dir = await apps.get(name)!;
      const sqlite = sqliteVersion(dir);
      if (name === "lowest") expect(sqlite).toBe(ends.lowest["better-sqlite3"]);
      const [smoke] = await Promise.all([
        run(process.execPath, ["smoke.mjs"], dir, {
          extraEnv: { SMOKE_SQLITE: "1", ...(redisUrl ? { REDIS_URL: redisUrl } : {}) },
        }),
        run("npx", ["tsc", "--noEmit", "-p", "."], dir),
        ...(name === "highest"
          ? [run(process.execPath, ["ts5/node_modules/typescript/bin/tsc", "--noEmit", "-p", "."], dir)]
          : []),
      ]);
      // The app's own better-sqlite3 loaded its native module and kept state.
      expect(smoke).toContain(`sqlite ${sqlite} ok`);
      expect(smoke).toContain("smoke ok");
    },
    900_000, // a better-sqlite3 not built before is built from source while the app installs
  );

  it.skipIf(!harnesses.available).concurrent(
    `guards the real Claude Code ${harnesses.versions.claude} as docs/harnesses.md's quick start says ${harnesses.reason}`,
    async () => {
      const dir = await apps.get("newcomer")!;
      const quickStart = codeBlocks(join(root, "docs", "harnesses.md")).find(
        (block) => block.language === "yaml" && block.code.startsWith("harness: claude"),
      )!;
      writeFileSync(join(dir, "hookwise.yaml"), quickStart.code);
      await run("npx", ["hookwise", "validate", "hookwise.yaml"], dir);
      const setup = await run("npx", ["hookwise", "setup", "claude", "hookwise.yaml"], dir);
      expect(setup).toContain(".claude/settings.json");
      // The command names the project's own install, through Claude Code's project variable.
      const settings = JSON.parse(readFileSync(join(dir, ".claude", "settings.json"), "utf8"));
      expect(JSON.stringify(settings.hooks)).toContain(
        'node \\"$CLAUDE_PROJECT_DIR\\"/node_modules/hookwise/bin/hookwise.js hook',
      );

      mkdirSync(join(dir, "victim"));
      writeFileSync(join(dir, "victim", "keep.txt"), "still here\n");
      const fake = await startFakeAnthropic([
        { tool: "Bash", input: { command: "rm -rf victim", description: "delete victim" } },
        { tool: "Bash", input: { command: "echo allowed > allowed.txt", description: "write allowed.txt" } },
        { text: "Done." },
      ]);
      const home = mkdtempSync(join(work, "home-"));
      try {
        const result = await runClaude({ cwd: dir, home, prompt: "Tidy up.", fake, timeoutMs: 240_000 });
        const context = `exit ${result.exitCode}\nstdout: ${result.stdout.slice(-2000)}\nstderr: ${result.stderr.slice(-2000)}`;
        expect(result.exitCode, context).toBe(0);
        // The policy refused the delete: the folder is there, and the model read the reason.
        expect(readFileSync(join(dir, "victim", "keep.txt"), "utf8"), context).toBe("still here\n");
        const turns = fake.turnRequests();
        expect(turns.length, context).toBeGreaterThanOrEqual(3);
        expect(turns[1]!.text, context).toContain("no recursive deletes; remove the files one by one");
        // The allowed command ran.
        expect(readFileSync(join(dir, "allowed.txt"), "utf8"), context).toBe("allowed\n");
        // What was decided is in the project's store, under Claude Code's session id.
        const session = (JSON.parse(result.stdout) as { session_id: string }).session_id;
        const history = await run("npx", ["hookwise", "history", "hookwise.yaml", "--session", session], dir);
        expect(history).toContain("deny");
        expect(history).toContain("no recursive deletes");
      } finally {
        await fake.close();
      }
    },
    600_000,
  );
});
