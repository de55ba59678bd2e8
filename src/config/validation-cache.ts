/**
 * Validated configs kept between processes. `hookwise hook` starts a process for every tool
 * call of a harness, and reading and validating the config (YAML, the schema, every CEL
 * expression compiled) was a third of what that process spent; a config that did not change
 * since the last call is validated once.
 *
 * An entry is the result of validating one text of one config file by one build of hookwise:
 * its name holds a hash of the file's path, its content holds a hash of the text and of the
 * build (`build`, see `loadConfig`), and a checksum of itself. An entry that does not match,
 * does not read back whole or has the wrong shape is ignored and written again: the config is
 * validated as if there were none, never answered from a doubtful entry. Writing is atomic (a
 * temporary file renamed), in a folder readable by its owner only; a folder that cannot be
 * read or written only costs the time.
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
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { nodeCrypto } from "../deps/node-crypto.js";
import type { ValidatedConfig } from "./check/validate-config.js";
import type { ConfigIssue } from "./source/config-error.js";

/** What validation found, as `readConfig` keeps it. */
export interface CachedValidation {
  readonly validated: ValidatedConfig;
  readonly warnings: ConfigIssue[];
}

/** Bumped when what an entry holds changes shape. */
const FORMAT = 3;

function sha256(text: string): string {
  return nodeCrypto().createHash("sha256").update(text).digest("hex");
}

/** The entry's file: one per config file (a changed config replaces its entry). */
function entryName(file: string): string {
  return `validated-${sha256(file).slice(0, 24)}.json`;
}

/** The plain data an entry holds (its maps as lists of pairs). */
function toData(key: string, found: CachedValidation): unknown {
  const { validated } = found;
  return {
    format: FORMAT,
    key,
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

function fromData(data: unknown, key: string): CachedValidation | undefined {
  if (!isRecord(data) || data.format !== FORMAT || data.key !== key) return undefined;
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

/** The entry's payload when it reads back whole (its first line is the rest's checksum). */
function readEntry(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
  const newline = text.indexOf("\n");
  if (newline < 0) return undefined;
  const payload = text.slice(newline + 1);
  if (text.slice(0, newline) !== sha256(payload)) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

function writeEntry(folder: string, path: string, data: unknown): void {
  const payload = JSON.stringify(data);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const temporary = join(folder, `.${process.pid}-${Date.now().toString(36)}.tmp`);
  try {
    writeFileSync(temporary, `${sha256(payload)}\n${payload}`, { mode: 0o600 });
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
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
  const key = sha256(JSON.stringify([FORMAT, build, file, text]));
  const path = join(folder, entryName(file));
  const kept = fromData(readEntry(path), key);
  if (kept !== undefined) return kept;
  const found = validate();
  if (found === undefined || found.validated.claudeSettings.length > 0) return found;
  try {
    const data = toData(key, found);
    // Kept only when it reads back as it is (plain data: a value JSON cannot hold is not kept).
    if (isDeepStrictEqual(fromData(JSON.parse(JSON.stringify(data)), key), found))
      writeEntry(folder, path, data);
  } catch {
    // A cache that cannot be written only saves time.
  }
  return found;
}
