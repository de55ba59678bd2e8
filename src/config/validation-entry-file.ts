/**
 * The files of the validation cache (`cachedValidation`): their names, and their content read
 * back only when it is whole.
 *
 * No cryptographic hash here, on purpose: node:crypto is not loaded by a `hookwise hook` call
 * answered from the cache (loading it makes Node compile about thirty built-in modules, its
 * streams among them: milliseconds of every call), and none is needed. What lets an entry
 * answer for a config is an exact comparison of what it was made from (the config's path and
 * whole text, and the build: see `cachedValidation`), never a hash of them; the hashes here
 * only name an entry's file (two paths with the same name only replace each other's entry)
 * and check that a file reads back as it was written (a file cut short or with a byte
 * changed is ignored). Neither is a guard against someone who writes the cache folder: what
 * guards is that an entry is read only from a file and a folder the running user owns and no
 * one else may write (the folder may sit where others can write: XDG_CACHE_HOME=/tmp/cache,
 * say), and that a temporary file is created new, never through a link planted at its name.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";

/** Characters of the checksum that ends an entry's file, after a newline. */
const CHECKSUM_LENGTH = 16;

/**
 * A 64-bit hash of `bytes` as 16 hex digits: two multiply-xor (FNV-1a style) lanes over
 * 32-bit words, then the last bytes one by one. Each step of a lane maps its state one to
 * one, so a change of one word always changes the hash. Not cryptographic (see above).
 */
function hash64(bytes: Uint8Array): string {
  const count = bytes.length >> 2;
  // Read as 32-bit words where they are aligned (a whole file read is), else from a copy.
  const words =
    bytes.byteOffset % 4 === 0
      ? new Int32Array(bytes.buffer, bytes.byteOffset, count)
      : new Int32Array(new Uint8Array(bytes.subarray(0, count * 4)).buffer);
  let low = 0x811c9dc5;
  let high = 0x2b992ddf;
  for (let index = 0; index < count; index++) {
    low = Math.imul(low ^ words[index]!, 0x01000193);
    high = Math.imul(high ^ words[index]!, 0x5bd1e995);
  }
  for (let index = count * 4; index < bytes.length; index++) {
    low = Math.imul(low ^ bytes[index]!, 0x01000193);
    high = Math.imul(high ^ bytes[index]!, 0x5bd1e995);
  }
  return (low >>> 0).toString(16).padStart(8, "0") + (high >>> 0).toString(16).padStart(8, "0");
}

/** The name of the entry of the config `file` (an absolute path): one per config file. */
export function entryFileName(file: string): string {
  return `validated-${hash64(Buffer.from(file, "utf8"))}.json`;
}

/** The JSON value `path` holds when it reads back whole (it ends with a checksum of the rest). */
export function readEntryFile(path: string): unknown {
  let bytes: Buffer;
  let fd: number | undefined;
  try {
    if (!ownPrivate(statSync(dirname(path)))) return undefined;
    fd = openSync(path, "r");
    // The file opened, not its name: what is read is what was checked.
    if (!ownPrivate(fstatSync(fd))) return undefined;
    bytes = readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const end = bytes.length - CHECKSUM_LENGTH - 1;
  if (end < 0 || bytes[end] !== 0x0a) return undefined;
  // The payload first: it starts the file, so its words are read where they lie.
  const payload = bytes.subarray(0, end);
  if (bytes.toString("latin1", end + 1) !== hash64(payload)) return undefined;
  try {
    return JSON.parse(payload.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Writes `data` as JSON to `path` in `folder`, atomically (a temporary file renamed). */
export function writeEntryFile(folder: string, path: string, data: unknown): void {
  const payload = Buffer.from(JSON.stringify(data), "utf8");
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // An entry written where another user could change it would not be read back.
  if (!ownPrivate(statSync(folder))) return;
  const temporary = join(folder, `.${process.pid}-${Date.now().toString(36)}.tmp`);
  let created = false;
  try {
    // "wx": a new file, or an error (a file or link already there is not followed or written).
    writeFileSync(temporary, Buffer.concat([payload, Buffer.from(`\n${hash64(payload)}`, "latin1")]), {
      mode: 0o600,
      flag: "wx",
    });
    created = true;
    renameSync(temporary, path);
    created = false;
  } finally {
    // Only a file this call created: what was already at the name is someone else's.
    if (created) rmSync(temporary, { force: true });
  }
}

/**
 * Whether no one but the running user could have written what `stats` describes: owned by
 * them, not writable by its group or others. Where there are no user ids (Windows), yes.
 */
function ownPrivate(stats: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
}
