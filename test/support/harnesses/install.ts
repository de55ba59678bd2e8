/**
 * Finds the real agent harness CLIs (Claude Code, Codex CLI, Gemini CLI) that
 * `scripts/install-harnesses.mjs` installs, pinned, into a cache folder outside the repository.
 *
 * In CI (`HOOKWISE_CI=1`) a missing install is a failure, never a skip: `.ci/run` installs them
 * first. Elsewhere they are installed on first use (about 30 s, once); where that fails (no
 * registry), `harnesses.available` is false and the tests say why they skip.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export type HarnessName = "claude" | "codex" | "gemini";

export interface HarnessInstall {
  /** Whether the three CLIs are installed and can be run. */
  readonly available: boolean;
  /** Why they are not available ("" when they are). */
  readonly reason: string;
  /** The cache folder holding the install. */
  readonly dir: string;
  /** The pinned version of each harness package. */
  readonly versions: Readonly<Record<HarnessName, string>>;
  /** The executable of each harness (a native binary or a node script with a shebang). */
  readonly bin: Readonly<Record<HarnessName, string>>;
}

const script = fileURLToPath(new URL("../../../scripts/install-harnesses.mjs", import.meta.url));
const pinsFile = fileURLToPath(new URL("./versions.json", import.meta.url));
const packages: Record<HarnessName, string> = {
  claude: "@anthropic-ai/claude-code",
  codex: "@openai/codex",
  gemini: "@google/gemini-cli",
};

function locate(): HarnessInstall {
  const pins = JSON.parse(readFileSync(pinsFile, "utf8")) as { packages: Record<string, string> };
  const specs = Object.entries(pins.packages).map(([name, version]) => `${name}@${version}`);
  const hash = createHash("sha256").update(specs.join("\n")).digest("hex").slice(0, 12);
  const root = process.env.HOOKWISE_HARNESS_CACHE || join(homedir(), ".cache", "hookwise-harnesses");
  const dir = join(root, hash);
  const bin = {
    claude: join(dir, "node_modules", ".bin", "claude"),
    codex: join(dir, "node_modules", ".bin", "codex"),
    gemini: join(dir, "node_modules", ".bin", "gemini"),
  };
  const versions = {
    claude: pins.packages[packages.claude]!,
    codex: pins.packages[packages.codex]!,
    gemini: pins.packages[packages.gemini]!,
  };
  const installed = () =>
    existsSync(join(dir, ".installed")) && Object.values(bin).every((path) => existsSync(path));
  if (installed()) return { available: true, reason: "", dir, versions, bin };
  const missing = `the agent harness CLIs (${specs.join(", ")}) are not installed in ${dir}`;
  if (process.env.HOOKWISE_CI === "1") {
    throw new Error(`${missing}; HOOKWISE_CI=1 requires them: run node scripts/install-harnesses.mjs first`);
  }
  console.warn(`[hookwise tests] ${missing}: installing them (once, about 30 s) ...`);
  const result = spawnSync(process.execPath, [script, "harnesses"], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
  if (result.status === 0 && installed()) return { available: true, reason: "", dir, versions, bin };
  const reason = `${missing} and installing them failed (${result.stderr.trim().split("\n").pop() ?? ""}): the real-harness tests are skipped`;
  console.warn(`[hookwise tests] ${reason}`);
  return { available: false, reason, dir, versions, bin };
}

/** The installed harnesses, located (and installed outside CI) once per test file. */
export const harnesses: HarnessInstall = locate();
