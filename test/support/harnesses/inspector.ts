/**
 * Finds the MCP Inspector and the Node 22 binary it runs on, which
 * `scripts/install-harnesses.mjs` installs, pinned, from npm into a cache folder outside the
 * repository (the Inspector needs a newer Node than the repository's).
 *
 * In CI (`HOOKWISE_CI=1`) a missing install is a failure, never a skip: `.ci/run` installs it
 * first. Elsewhere `inspector.available` is false and `inspector.reason` says how to install it.
 * `HOOKWISE_INSPECTOR_CLI` (the path of an Inspector's launcher script) overrides the installed one.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export interface InspectorInstall {
  /** Whether the Inspector and its Node binary are installed and can be run. */
  readonly available: boolean;
  /** Why they are not available ("" when they are). */
  readonly reason: string;
  /** The cache folder holding the install. */
  readonly dir: string;
  /** The pinned version of the Inspector package. */
  readonly version: string;
  /** The Node binary to run the Inspector with. */
  readonly node: string;
  /** The Inspector's launcher script (`inspector --cli …` is `node <cli> --cli …`). */
  readonly cli: string;
}

const pinsFile = fileURLToPath(new URL("./versions.json", import.meta.url));
const INSPECTOR = "@modelcontextprotocol/inspector";

function locate(): InspectorInstall {
  const pins = JSON.parse(readFileSync(pinsFile, "utf8")) as { inspector: Record<string, string> };
  // The same specs, in the same order, as the install script hashes.
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const specs = Object.entries(pins.inspector).map(([name, version]) =>
    name === "node" ? `${nodePackage}@${version}` : `${name}@${version}`,
  );
  const hash = createHash("sha256").update(specs.join("\n")).digest("hex").slice(0, 12);
  const root = process.env.HOOKWISE_HARNESS_CACHE || join(homedir(), ".cache", "hookwise-harnesses");
  const dir = join(root, `inspector-${hash}`);
  const modules = join(dir, "node_modules");
  const pinnedNode = join(modules, nodePackage, "bin", "node");
  const override = process.env.HOOKWISE_INSPECTOR_CLI;
  const cli = override || join(modules, INSPECTOR, "clients", "launcher", "build", "index.js");
  // An Inspector of your own runs on the pinned Node when it is installed, else on this one.
  const node = override && !existsSync(pinnedNode) ? process.execPath : pinnedNode;
  const version = pins.inspector[INSPECTOR]!;
  const installed = override
    ? existsSync(cli)
    : existsSync(join(dir, ".installed")) && existsSync(node) && existsSync(cli);
  if (installed) return { available: true, reason: "", dir, version, node, cli };
  const missing = override
    ? `HOOKWISE_INSPECTOR_CLI names ${override}, which does not exist`
    : `the MCP Inspector and the Node it runs on (${specs.join(", ")}) are not installed in ${dir}`;
  if (process.env.HOOKWISE_CI === "1") {
    throw new Error(`${missing}; HOOKWISE_CI=1 requires them: run node scripts/install-harnesses.mjs first`);
  }
  const reason = `${missing}: the Inspector test is skipped (install them with: node scripts/install-harnesses.mjs inspector)`;
  console.warn(`[hookwise tests] ${reason}`);
  return { available: false, reason, dir, version, node, cli };
}

/** The installed Inspector, located once per test file. */
export const inspector: InspectorInstall = locate();
