/**
 * `validate`'s warning for a harness whose settings file has `hookwise setup`'s entries for
 * this config, but not for every event the config now needs: a policy or hook added since
 * setup ran is never called by the harness on those events until setup runs again.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import type { ConfigIssue, ConfigPath } from "../config/source/config-error.js";
import { HookwiseError } from "../errors/hookwise-error.js";
import { HARNESSES } from "../harnesses/protocols.js";
import type { HarnessName, HarnessProtocol } from "../harnesses/types.js";
import {
  agentOfCommand,
  configEvents,
  isInside,
  ownCommand,
  ownEntries,
  pathWord,
  quote,
  readSettings,
  type SetupScope,
} from "./setup-entries.js";

export interface SetupCheckSource {
  /** The config's path as given (named in the warnings and the command to run). */
  file: string;
  positionOf(path: ConfigPath): { line: number; column: number };
}

/** A settings file setup may have written for the config, with the words its commands name the config by. */
interface Candidate {
  file: string;
  scope: SetupScope;
  projectDir: string;
  configWords: string[];
}

/**
 * The settings files to look in: the project's and local ones of the config's folder and of
 * each folder above it (the project setup ran in), and the user's.
 */
function candidates(protocol: HarnessProtocol, configFile: string): Candidate[] {
  const home = resolve(homedir());
  const found: Candidate[] = [];
  const variable = protocol.settings.projectDirVariable;
  for (let dir = dirname(configFile); ; dir = dirname(dir)) {
    // The home folder's files are the user scope's.
    if (dir !== home) {
      const words = [pathWord(configFile, dir, undefined)];
      if (variable && isInside(dir, configFile)) words.push(pathWord(configFile, dir, variable));
      for (const scope of ["project", "local"] as const) {
        const relativeFile = protocol.settings.files[scope];
        if (relativeFile !== undefined)
          found.push({ file: join(dir, relativeFile), scope, projectDir: dir, configWords: words });
      }
    }
    if (dirname(dir) === dir) break;
  }
  const userFile = protocol.settings.files.user;
  if (userFile !== undefined)
    found.push({
      file: join(home, userFile),
      scope: "user",
      projectDir: home,
      configWords: [pathWord(configFile, home, undefined)],
    });
  return found;
}

/** The JSON strings of a text that is not JSON as a whole, each read. */
function stringsOf(text: string): string[] {
  const strings: string[] = [];
  for (const [literal] of text.matchAll(/"(?:[^"\\\n]|\\.)*"/g)) {
    try {
      strings.push(JSON.parse(literal) as string);
    } catch {
      // Not a string literal JSON reads: not one of setup's commands either.
    }
  }
  return strings;
}

/** The settings file as the warning names it: `~/…` in the home folder, relative to the current folder within it. */
function labelOf(candidate: Candidate): string {
  if (candidate.scope === "user") return `~/${relative(candidate.projectDir, candidate.file)}`;
  return isInside(process.cwd(), candidate.file) ? relative(process.cwd(), candidate.file) : candidate.file;
}

/** The command that brings the entries up to date. */
function setupCommandLine(
  harness: HarnessName,
  configPath: string,
  candidate: Candidate,
  agent: string | undefined,
): string {
  const words = ["hookwise", "setup", harness, configPath];
  if (candidate.scope !== "project") words.push("--scope", candidate.scope);
  if (candidate.scope !== "user" && resolve(candidate.projectDir) !== resolve(process.cwd()))
    words.push(
      "--project",
      isInside(process.cwd(), candidate.projectDir)
        ? relative(process.cwd(), candidate.projectDir)
        : candidate.projectDir,
    );
  if (agent !== undefined) words.push("--agent", agent);
  return words.map((word, index) => (index < 2 ? word : quote(word))).join(" ");
}

export async function checkSetup(
  harnesses: readonly HarnessName[],
  source: SetupCheckSource,
): Promise<ConfigIssue[]> {
  const issues: ConfigIssue[] = [];
  const configFile = resolve(source.file);
  const at = source.positionOf(["harness"]);
  const warn = (message: string) =>
    issues.push({ severity: "warning", file: source.file, ...at, path: ["harness"], message });
  for (const harness of harnesses) {
    const protocol = HARNESSES[harness];
    // The events each agent needs, loaded once whatever the number of files naming it.
    const needs = new Map<string | undefined, Promise<string[]>>();
    for (const candidate of candidates(protocol, configFile)) {
      const matchers = candidate.configWords.map((word) => ({ word, isOurs: ownCommand(word, harness) }));
      const isOurs = (command: string) => matchers.some((matcher) => matcher.isOurs(command));
      let settings: ReturnType<typeof readSettings>;
      try {
        settings = readSettings(candidate.file);
      } catch (error) {
        // A file this user cannot read (EACCES) cannot hold what validate could check.
        if (!HookwiseError.isInstance(error)) continue;
        // Said only when the file names this config: another project's broken file is not ours to report.
        if (stringsOf(readFileSync(candidate.file, "utf8")).some(isOurs))
          warn(
            `${labelOf(candidate)}${error.message.slice(candidate.file.length).split("; ")[0]}: whether ${protocol.label} runs hookwise on every event this config needs cannot be checked`,
          );
        continue;
      }
      const entries = ownEntries(settings.object, protocol, isOurs);
      if (entries.size === 0) continue;
      // Setup's entries by the agent they run (`--agent`), each checked against that agent's hooks.
      const byAgent = new Map<string | undefined, Set<string>>();
      for (const [event, commands] of entries)
        for (const command of commands) {
          const word = matchers.find((matcher) => matcher.isOurs(command))!.word;
          const agent = agentOfCommand(command, word, harness);
          byAgent.set(agent, (byAgent.get(agent) ?? new Set()).add(event));
        }
      for (const [agent, present] of byAgent) {
        let needed: string[];
        try {
          if (!needs.has(agent)) needs.set(agent, configEvents(source.file, protocol, agent));
          needed = await needs.get(agent)!;
        } catch (error) {
          if (!HookwiseError.isInstance(error)) throw error;
          warn(`${protocol.label}'s entries of hookwise setup could not be checked: ${error.message}`);
          continue;
        }
        const missing = needed.filter((event) => !present.has(event));
        if (missing.length === 0) continue;
        warn(
          `${labelOf(candidate)} runs hookwise for ${protocol.label} on ${[...present].join(", ")} but not on ${missing.join(", ")}, which this config's hooks and policies now need: ${protocol.label} does not call hookwise there, so they do not apply; run \`${setupCommandLine(harness, source.file, candidate, agent)}\``,
        );
      }
    }
  }
  return issues;
}
