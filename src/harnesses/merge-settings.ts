/**
 * Adding and removing `hookwise hook` entries in a harness's settings file, keeping every
 * other key and every other hook as it was. An entry is setup's own when one of its
 * commands is the command setup writes (`isOurs`); adding again first takes out the old
 * ones, so a second setup changes nothing and a changed config's events are brought up to date.
 */
import type { HarnessSettings } from "./types.js";

export type SettingsObject = Record<string, unknown>;

/** The file without setup's entries: each hook list without them, emptied lists and `hooks` dropped. */
export function withoutOurs(
  file: SettingsObject,
  settings: HarnessSettings,
  isOurs: (command: string) => boolean,
): SettingsObject {
  const hooks = file.hooks;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return file;
  const kept: Record<string, unknown> = {};
  let changed = false;
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      kept[event] = groups;
      continue;
    }
    const left = groups.filter((group) => !settings.commandsOf(group).some(isOurs));
    if (left.length !== groups.length) changed = true;
    if (left.length) kept[event] = left;
  }
  if (!changed) return file;
  const { hooks: _dropped, ...rest } = file;
  return Object.keys(kept).length ? { ...rest, hooks: kept } : rest;
}

/**
 * The file with one entry running `command` for each of `events`: an event's old entry of
 * setup's is replaced where it stands (so a second run changes nothing wherever it is in the
 * list), a new one goes last, and setup's entries for events no longer needed are taken out.
 */
export function withOurs(
  file: SettingsObject,
  settings: HarnessSettings,
  command: string | ((event: string) => string),
  events: readonly string[],
  isOurs: (command: string) => boolean,
): SettingsObject {
  const old = file.hooks;
  const before =
    typeof old === "object" && old !== null && !Array.isArray(old) ? (old as Record<string, unknown>) : {};
  const base = withoutOurs(file, settings, isOurs);
  const hooks = { ...((base.hooks as Record<string, unknown> | undefined) ?? {}) };
  for (const event of events) {
    const group = settings.group(typeof command === "string" ? command : command(event), event);
    const previous = Array.isArray(before[event]) ? (before[event] as unknown[]) : [];
    const at = previous.findIndex((entry) => settings.commandsOf(entry).some(isOurs));
    if (at < 0) {
      hooks[event] = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : []), group];
      continue;
    }
    // Where the first old entry stood, among the entries that are not setup's.
    const kept = previous.slice(0, at).filter((entry) => !settings.commandsOf(entry).some(isOurs)).length;
    const list = [...(Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [])];
    list.splice(kept, 0, group);
    hooks[event] = list;
  }
  const defaults = settings.fileDefaults ?? {};
  const missing = Object.fromEntries(Object.entries(defaults).filter(([key]) => !(key in base)));
  return { ...missing, ...base, hooks };
}

/** A unified-style diff of two texts, line by line (settings files are small). */
export function lineDiff(before: string, after: string, label: string): string {
  const a = before === "" ? [] : before.split("\n");
  const b = after.split("\n");
  // Longest common subsequence table, from the ends.
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out = [`--- ${label}`, `+++ ${label}`];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!))
      out.push(`+ ${b[j++]}`);
    else out.push(`- ${a[i++]}`);
  }
  return out.join("\n");
}
