/**
 * Finds the real MCP servers the gateway tests put behind `hookwise mcp` — the official
 * filesystem server, `@modelcontextprotocol/server-filesystem` — which
 * `scripts/install-harnesses.mjs` installs, pinned, from npm into a cache folder outside the
 * repository, and writes a gateway project in front of it.
 *
 * In CI (`HOOKWISE_CI=1`) a missing install is a failure, never a skip: `.ci/run` installs it
 * first. Elsewhere `filesystemServer.available` is false and `filesystemServer.reason` says how
 * to install it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface McpServerInstall {
  /** Whether the server is installed and can be run. */
  readonly available: boolean;
  /** Why it is not available ("" when it is). */
  readonly reason: string;
  /** The cache folder holding the install. */
  readonly dir: string;
  /** The pinned version of the server package. */
  readonly version: string;
  /** The server's entry script (`node <entry> <allowed folder>…` runs it over stdio). */
  readonly entry: string;
}

const pinsFile = fileURLToPath(new URL("./versions.json", import.meta.url));
const FILESYSTEM = "@modelcontextprotocol/server-filesystem";
const ROOT = resolve(import.meta.dirname, "../../..");

function locate(): McpServerInstall {
  const pins = JSON.parse(readFileSync(pinsFile, "utf8")) as { servers: Record<string, string> };
  // The same specs, in the same order, as the install script hashes.
  const specs = Object.entries(pins.servers).map(([name, version]) => `${name}@${version}`);
  const hash = createHash("sha256").update(specs.join("\n")).digest("hex").slice(0, 12);
  const root = process.env.HOOKWISE_HARNESS_CACHE || join(homedir(), ".cache", "hookwise-harnesses");
  const dir = join(root, `servers-${hash}`);
  const entry = join(dir, "node_modules", FILESYSTEM, "dist", "index.js");
  const version = pins.servers[FILESYSTEM]!;
  if (existsSync(join(dir, ".installed")) && existsSync(entry)) {
    return { available: true, reason: "", dir, version, entry };
  }
  const missing = `the MCP filesystem server (${specs.join(", ")}) is not installed in ${dir}`;
  if (process.env.HOOKWISE_CI === "1") {
    throw new Error(`${missing}; HOOKWISE_CI=1 requires it: run node scripts/install-harnesses.mjs first`);
  }
  const reason = `${missing}: the tests in front of it are skipped (install it with: node scripts/install-harnesses.mjs servers)`;
  console.warn(`[hookwise tests] ${reason}`);
  return { available: false, reason, dir, version, entry };
}

/** The installed filesystem server, located once per test file. */
export const filesystemServer: McpServerInstall = locate();

/** The example's toolset line that starts its own small server, replaced by the real one. */
const EXAMPLE_SERVER = /command: node\n(\s+)args: \[\.\/fs-server\.mjs, \.\][^\n]*/;
/** The example's scripted model, for `hookwise run` only: the gateway needs none. */
const EXAMPLE_MODEL = /^models:\n {2}default: [^\n]*\n/m;

/**
 * Writes examples/mcp-gateway/hookwise.yaml into `dir` with its filesystem toolset changed to
 * the real `@modelcontextprotocol/server-filesystem`, allowed the folder the gateway runs in
 * (`.`), and without its scripted model (the gateway needs none); makes that folder's notes/ (the real server writes only into existing folders).
 * `edit` may change the config's text before it is written. Returns the config's path.
 */
export function realFilesystemGateway(dir: string, edit: (yaml: string) => string = (yaml) => yaml): string {
  const example = readFileSync(join(ROOT, "examples/mcp-gateway/hookwise.yaml"), "utf8");
  if (!EXAMPLE_SERVER.test(example) || !EXAMPLE_MODEL.test(example)) {
    throw new Error(
      "examples/mcp-gateway/hookwise.yaml no longer has the toolset and model this test replaces",
    );
  }
  const yaml = example
    .replace(EXAMPLE_MODEL, "")
    .replace(
      EXAMPLE_SERVER,
      (_line, indent: string) =>
        `command: ${JSON.stringify(process.execPath)}\n${indent}args: [${JSON.stringify(filesystemServer.entry)}, .]`,
    );
  mkdirSync(join(dir, "notes"), { recursive: true });
  const config = join(dir, "hookwise.yaml");
  writeFileSync(config, edit(yaml));
  return config;
}
