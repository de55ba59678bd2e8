/**
 * The file store's file names for keys. A key's file is named after the key's UTF-8 bytes
 * in lowercase hex (`k<hex>`): two keys get two names on every file system, a
 * case-insensitive one (macOS, Windows) included, which base64 names would not. A key too
 * long for that (a file name is at most 255 bytes) or that is not well-formed text (a lone
 * surrogate has no UTF-8 bytes of its own) is named `l<hex of its first bytes>-<sha256>`;
 * every file also holds its key, which is what readers go by.
 */
import { nodeCrypto } from "../deps/node-crypto.js";

/** Keys up to this many bytes are named by all of them: `k` and 240 hex digits. */
const WHOLE = 120;
/** How many of a long key's bytes its name shows, so `keys(prefix)` skips most files unread. */
const SHOWN = 80;

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function keyFileName(key: string): string {
  const bytes = Buffer.from(key, "utf8");
  if (bytes.length <= WHOLE && !loneSurrogate.test(key)) return `k${bytes.toString("hex")}`;
  // JSON keeps a lone surrogate apart from U+FFFD, which UTF-8 would make it.
  const digest = nodeCrypto().createHash("sha256").update(JSON.stringify(key)).digest("hex");
  return `l${bytes.subarray(0, SHOWN).toString("hex")}-${digest}`;
}

const whole = /^k((?:[0-9a-f]{2})*)$/;
const long = /^l((?:[0-9a-f]{2})*)-[0-9a-f]{64}$/;

/**
 * Whether the key of file `name` may start with `prefix`: "yes" or "no" when the name holds
 * the whole key, "maybe" when only the file says (a long key), "no" for a file that is not
 * a key's (a temporary file, another program's).
 */
export function keyFileMatch(name: string, prefix: string): "yes" | "no" | "maybe" {
  const plain = whole.exec(name);
  if (plain) return Buffer.from(plain[1]!, "hex").toString("utf8").startsWith(prefix) ? "yes" : "no";
  const cut = long.exec(name);
  if (!cut) return "no";
  const shown = Buffer.from(cut[1]!, "hex");
  const wanted = Buffer.from(prefix, "utf8");
  const length = Math.min(shown.length, wanted.length);
  return shown.subarray(0, length).equals(wanted.subarray(0, length)) ? "maybe" : "no";
}
