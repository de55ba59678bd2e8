/**
 * `hookwise hook`'s own start: a new process on every tool call of a harness, so the
 * installed CLI runs it from a build of its own (`dist/hook.cjs`, see tsdown.config.ts)
 * without the rest of the CLI and its argument parser. The usual command lines (those
 * `hookwise setup` writes among them) are read here; any other (`--help`, a mistake, a
 * spelling this does not read) is left to the whole CLI, which answers it as it always does.
 */
import { cacheCompiledDeps } from "../deps/code-cache.js";
import { commandFailure } from "./command-failure.js";
import { type HookCommandOptions, hookCommand } from "./commands/hook-command.js";
import { closeOnInterrupt } from "./interrupts.js";
import { ioFromProcess, maskedIO } from "./process-io.js";

const HARNESS_NAMES: readonly string[] = ["claude", "codex", "gemini", "cursor"];

/** `hook <config> --harness <name> [--agent <id>] [--timeout <seconds>]`, or undefined for any other. */
export function hookArguments(
  argv: readonly string[],
): { config: string; options: HookCommandOptions } | undefined {
  if (argv[0] !== "hook") return undefined;
  let config: string | undefined;
  const given = new Map<string, string>();
  for (let index = 1; index < argv.length; index++) {
    const word = argv[index]!;
    if (!word.startsWith("-")) {
      if (config !== undefined) return undefined;
      config = word;
      continue;
    }
    const equals = word.indexOf("=");
    const flag = equals === -1 ? word : word.slice(0, equals);
    const name = { "--harness": "harness", "--agent": "agent", "-a": "agent", "--timeout": "timeout" }[flag];
    if (name === undefined || given.has(name)) return undefined;
    let value: string | undefined;
    if (equals !== -1 && flag.startsWith("--")) value = word.slice(equals + 1);
    else if (equals === -1) value = argv[++index];
    if (value === undefined || value.startsWith("-")) return undefined;
    given.set(name, value);
  }
  const harness = given.get("harness");
  if (config === undefined || harness === undefined || !HARNESS_NAMES.includes(harness)) return undefined;
  const options: HookCommandOptions = { harness: harness as HookCommandOptions["harness"] };
  const agent = given.get("agent");
  if (agent !== undefined) options.agent = agent;
  const timeout = given.get("timeout");
  if (timeout !== undefined) {
    // As the CLI reads --timeout: a number of seconds above 0.
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
    options.timeout = seconds;
  }
  return { config, options };
}

/**
 * Runs `hookwise hook` with the process's arguments (after `node hookwise`): its exit code,
 * or undefined, having done nothing, when the whole CLI is to read them.
 */
export function hookMain(argv: readonly string[]): Promise<number> | undefined {
  const read = hookArguments(argv);
  if (read === undefined) return undefined;
  cacheCompiledDeps();
  closeOnInterrupt();
  return answer(read.config, read.options);
}

async function answer(config: string, options: HookCommandOptions): Promise<number> {
  const io = maskedIO(ioFromProcess());
  try {
    return await hookCommand(config, options, io);
  } catch (error) {
    return commandFailure(error, io);
  } finally {
    io.flush();
  }
}
