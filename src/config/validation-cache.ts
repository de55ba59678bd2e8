/**
 * Validated configs kept between processes. `hookwise hook` starts a process for every tool
 * call of a harness, and reading and validating the config (YAML, the schema, every CEL
 * expression compiled) was a third of what that process spent; a config that did not change
 * since the last call is validated once.
 *
 * An entry is the result of validating one text of one config file by one build of hookwise:
 * its name holds a hash of the file's path, its content holds the path, the whole text and the
 * build (`build`, see `loadConfig`) it was made from, and it ends with a checksum of itself
 * (see `validation-entry-file.ts`). It answers only for the very same path, text and build,
 * compared in full: not by a hash of them, so no other text can pass for the one validated,
 * and no cryptographic hash (node:crypto) is needed. An entry that does not match, does not
 * read back whole or has the wrong shape is ignored and written again: the config is
 * validated as if there were none, never answered from a doubtful entry. Writing is atomic (a
 * temporary file created new, then renamed), in a folder readable by its owner only; an entry
 * is read only from a file and a folder the user owns and no one else may write (another user
 * could have planted it otherwise); a folder that cannot be read or written, or that others
 * may write, only costs the time.
 *
 * Only a config file the running user owns is answered from the cache: its owner can change
 * the config itself, so an entry they wrote gives them nothing more. A config another user
 * owns (one an administrator deployed read-only, guarding an agent that runs as this user) is
 * validated every time: the cache is this user's to write, and an entry with the config's
 * policies taken out would otherwise let through what the config denies.
 *
 * Only a config whose validation reads nothing but its own text is kept: one with
 * `claude_hooks` reads the Claude Code settings files (and checks the programs they run),
 * so it is validated every time. An entry holds what the config's own text holds, and the
 * warnings about it: no value from the environment. It also holds what the schemas of the
 * config's conditions and actions output (`kindOutputs`), so that compiling its hooks from an
 * entry runs no schema (and does not load zod); and, for a config guarding a harness, that
 * checking its references to the harness's tools found nothing and read no other file
 * (`harnessReferencesClean`), so that a call answered from an entry does not check them again.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ValidatedConfig } from "./check/validate-config.js";
import type { ConfigIssue } from "./source/config-error.js";
import { entryFileName, readEntryFile, writeEntryFile } from "./validation-entry-file.js";

/** What validation found, as `readConfig` keeps it. */
export interface CachedValidation {
  readonly validated: ValidatedConfig;
  readonly warnings: ConfigIssue[];
}

/** Bumped when what an entry holds changes shape. */
const FORMAT = 4;

/** What an entry was made from: it answers for these only, compared in full. */
interface EntrySource {
  readonly build: string;
  readonly file: string;
  readonly text: string;
}

/** The plain data an entry holds (its maps as lists of pairs). */
function toData(source: EntrySource, found: CachedValidation): unknown {
  const { validated } = found;
  return {
    format: FORMAT,
    build: source.build,
    file: source.file,
    text: source.text,
    validated: {
      ...validated,
      agentHooks: [...validated.agentHooks],
      agentPolicies: [...validated.agentPolicies],
    },
    warnings: found.warnings,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function fromData(data: unknown, source: EntrySource): CachedValidation | undefined {
  if (
    !isRecord(data) ||
    data.format !== FORMAT ||
    data.build !== source.build ||
    data.file !== source.file ||
    data.text !== source.text
  )
    return undefined;
  const { validated, warnings } = data;
  if (!isRecord(validated) || !Array.isArray(warnings)) return undefined;
  const {
    config,
    appHooks,
    agentHooks,
    appPolicies,
    agentPolicies,
    manifests,
    claudeSettings,
    kindOutputs,
    harnessReferencesClean,
  } = validated;
  if (
    !isRecord(config) ||
    !Array.isArray(appHooks) ||
    !Array.isArray(agentHooks) ||
    !Array.isArray(appPolicies) ||
    !Array.isArray(agentPolicies) ||
    !Array.isArray(manifests) ||
    !Array.isArray(claudeSettings) ||
    claudeSettings.length > 0 ||
    !(kindOutputs === undefined || (isRecord(kindOutputs) && Object.values(kindOutputs).every(isString))) ||
    !(harnessReferencesClean === undefined || harnessReferencesClean === true)
  )
    return undefined;
  return {
    validated: {
      ...(validated as unknown as ValidatedConfig),
      agentHooks: new Map(agentHooks as [string, ValidatedConfig["appHooks"]][]),
      agentPolicies: new Map(agentPolicies as [string, ValidatedConfig["appPolicies"]][]),
    },
    warnings: warnings as ConfigIssue[],
  };
}

/** Whether the running user owns `file` (symlinks followed); where there are no user ids (Windows), yes. */
function ownedByUs(file: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  try {
    return statSync(file).uid === uid;
  } catch {
    return false;
  }
}

/**
 * What validating `text` (the content of the config `file`, an absolute path) finds: read
 * from `folder` when this build validated this text before, otherwise `validate()`, kept
 * there when it validated without error and read nothing else; a config file another user
 * owns is always validated (see above). `validate` answers undefined
 * when the config has errors (they are thrown by the caller, never kept).
 */
export function cachedValidation(
  folder: string,
  file: string,
  text: string,
  build: string,
  validate: () => CachedValidation | undefined,
): CachedValidation | undefined {
  if (!ownedByUs(file)) return validate();
  const source: EntrySource = { build, file, text };
  const path = join(folder, entryFileName(file));
  const kept = fromData(readEntryFile(path), source);
  if (kept !== undefined) return kept;
  const found = validate();
  if (found === undefined || found.validated.claudeSettings.length > 0) return found;
  try {
    const data = toData(source, found);
    // Kept only when it reads back as it is (plain data: a value JSON cannot hold is not kept).
    if (isDeepStrictEqual(fromData(JSON.parse(JSON.stringify(data)), source), found))
      writeEntryFile(folder, path, data);
  } catch {
    // A cache that cannot be written only saves time.
  }
  return found;
}
