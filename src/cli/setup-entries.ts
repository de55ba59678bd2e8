/**
 * What `hookwise setup` writes into a harness's settings file and how it finds it again:
 * the words naming the config in the command, the matcher of its own entries, the harness
 * events a config needs. `setup` writes the entries; `validate` reads them back to warn when
 * a config now needs events its entries miss.
 */
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { HookwiseError } from "../errors/hookwise-error.js";
import { mayHoldSession } from "../harnesses/held-session.js";
import type { SettingsObject } from "../harnesses/merge-settings.js";
import type { HarnessEventKind, HarnessName, HarnessProtocol } from "../harnesses/types.js";

export type SetupScope = "project" | "user" | "local";

/** Quoted for the POSIX shell the harness runs hook commands with. */
export function quote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The installed `hookwise` script of a project, if the project has one. */
export function projectInstall(projectDir: string): string | undefined {
  const bin = join(projectDir, "node_modules", "hookwise", "bin", "hookwise.js");
  return existsSync(bin) ? bin : undefined;
}

/**
 * How the command names a path: through the harness's project variable
 * (`"$CLAUDE_PROJECT_DIR"/hookwise.yaml`) when `variable` is given, else by absolute path;
 * quoted for the shell either way.
 */
export function pathWord(path: string, projectDir: string, variable: string | undefined): string {
  return variable === undefined
    ? quote(path)
    : `"$${variable}"/${quote(relative(projectDir, path).split(sep).join("/"))}`;
}

/** Whether `path` is inside `dir`. */
export function isInside(dir: string, path: string): boolean {
  const rest = relative(dir, path);
  return !rest.startsWith("..") && !isAbsolute(rest);
}

/**
 * Where the command names hookwise and the config through the harness's project variable: in
 * a project that installed hookwise, with a harness that tells hook commands where the
 * project is (`$CLAUDE_PROJECT_DIR`), for a config inside the project; undefined otherwise.
 */
export function projectVariable(
  protocol: HarnessProtocol,
  configFile: string,
  projectDir: string,
  scope: SetupScope,
): string | undefined {
  const variable = protocol.settings.projectDirVariable;
  return scope !== "user" && variable && projectInstall(projectDir) && isInside(projectDir, configFile)
    ? variable
    : undefined;
}

/**
 * Whether a settings file's command is one setup wrote for this config and harness: it runs
 * `hook <the config, named as setup names it> --harness <harness>`, word for word. Another
 * config's command is not, even where its path contains this one's (`ci/hookwise.yaml` and
 * `hookwise.yaml`): setup never takes out a guard it did not write for this config.
 */
export function ownCommand(configWord: string, harness: HarnessName): (command: string) => boolean {
  return (command) => ownTail(command, configWord, harness) !== undefined;
}

/** What follows setup's words in `command` (`" --agent reviewer …"`), or undefined when they are not in it. */
function ownTail(command: string, configWord: string, harness: HarnessName): string | undefined {
  const words = ` hook ${configWord} --harness ${harness}`;
  for (let at = command.indexOf(words); at >= 0; at = command.indexOf(words, at + 1)) {
    const next = command[at + words.length];
    if (next === undefined || next === " " || next === ";") return command.slice(at + words.length);
  }
  return undefined;
}

/** The `--agent` setup wrote into one of its commands (undefined: the config's default agent). */
export function agentOfCommand(
  command: string,
  configWord: string,
  harness: HarnessName,
): string | undefined {
  const tail = ownTail(command, configWord, harness);
  if (tail === undefined || !tail.startsWith(" --agent ")) return undefined;
  const rest = tail.slice(" --agent ".length);
  if (!rest.startsWith("'")) return /^[^\s;]+/.exec(rest)?.[0];
  // The form quote() writes: '…' with each ' as '\''.
  let agent = "";
  for (let at = 1; at < rest.length; ) {
    const end = rest.indexOf("'", at);
    if (end < 0) return undefined;
    agent += rest.slice(at, end);
    if (!rest.startsWith("'\\''", end)) return agent;
    agent += "'";
    at = end + 4;
  }
  return undefined;
}

/** The harness's events the config's hooks and policies need, in the harness's order. */
export function eventsNeeded(protocol: HarnessProtocol, hookEvents: ReadonlySet<string>): string[] {
  const events: string[] = [];
  for (const [kind, names] of Object.entries(protocol.settings.eventsFor) as [HarnessEventKind, string[]][]) {
    if (hookEvents.has(kind)) events.push(...names);
  }
  return events;
}

/**
 * The harness's events a config's hooks and policies need, the config loaded as the hook
 * loads it (a broken config throws: it would block every call).
 */
export async function configEvents(
  configPath: string,
  protocol: HarnessProtocol,
  agent: string | undefined,
): Promise<string[]> {
  const { loadHarnessHooks } = await import("../config/load-harness-hooks.js");
  const hooks = await loadHarnessHooks(configPath, protocol.name, {
    ...(agent ? { agent } : {}),
    store: new (await import("../state/memory-store.js")).MemoryStore(),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  const registered = hooks.registry.list();
  const hookEvents = new Set<string>(registered.map((hook) => hook.event));
  await hooks.close();
  // A session such a hook stops is held by refusing its prompts and tool calls, which must reach hookwise.
  if (registered.some((hook) => hook.kind !== "inspect" && mayHoldSession(protocol, hook.event))) {
    hookEvents.add("run_start");
    hookEvents.add("tool_call");
  }
  return eventsNeeded(protocol, hookEvents);
}

/** A settings file read whole: missing or empty is `{}`; not a JSON object throws. */
export function readSettings(file: string): { text: string; object: SettingsObject } {
  if (!existsSync(file)) return { text: "", object: {} };
  const text = readFileSync(file, "utf8");
  if (text.trim() === "") return { text, object: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HookwiseError(
      `${file} is not JSON (${(error as Error).message}); fix it first: setup changes nothing in a file it cannot read whole`,
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new HookwiseError(`${file} is not a JSON object; setup changes nothing in it`);
  return { text, object: value as SettingsObject };
}

/** Setup's commands in a settings file, by the harness event they run on. */
export function ownEntries(
  settings: SettingsObject,
  protocol: HarnessProtocol,
  isOurs: (command: string) => boolean,
): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const hooks = settings.hooks;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return found;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const commands = groups.flatMap((group) => protocol.settings.commandsOf(group).filter(isOurs));
    if (commands.length) found.set(event, commands);
  }
  return found;
}
