/**
 * Random (version 4) UUIDs as flat strings, for the ids a run holds for its whole life (its
 * run id, a one-shot session's id).
 *
 * `crypto.randomUUID()` builds its text by concatenation: a chain of string pieces of about
 * 490 bytes that lives as long as the id. Reading a character of it once flattened the chain
 * while the reading code ran in the interpreter, but optimised code reads through the chain
 * without flattening it, so a busy process kept every chain (two per run, ~850 bytes of the
 * ~8 KB a parked run holds). Here the text is written into a buffer and read out as one
 * Latin-1 string: one flat string of 56 bytes, and faster than `randomUUID()` (~105 ns
 * against ~120–210 ns per id). The bytes come from the system's secure random source, in
 * blocks of 256 ids, as `randomUUID()` draws them, read without loading node:crypto where
 * the system allows (see `secureRandomFill`): `hookwise hook` takes its run's id from here.
 */
import { secureRandomFill } from "../deps/secure-random-fill.js";

const IDS_PER_BLOCK = 256;
const BLOCK = 16 * IDS_PER_BLOCK;
/** The hex digits' character codes. */
const DIGITS = Buffer.from("0123456789abcdef", "latin1");

let random: Buffer | undefined;
let offset = BLOCK;
/** The 36 characters of the id being written. */
const text = Buffer.alloc(36);

export function flatUuid(): string {
  if (offset === BLOCK) {
    random = secureRandomFill(random ?? Buffer.alloc(BLOCK));
    offset = 0;
  }
  const bytes = random!;
  let at = 0;
  for (let index = 0; index < 16; index++) {
    let byte = bytes[offset + index]!;
    // The version (4) and the variant (10xx), as RFC 9562 has them.
    if (index === 6) byte = (byte & 0x0f) | 0x40;
    else if (index === 8) byte = (byte & 0x3f) | 0x80;
    if (index === 4 || index === 6 || index === 8 || index === 10) text[at++] = 0x2d;
    text[at++] = DIGITS[byte >> 4]!;
    text[at++] = DIGITS[byte & 0x0f]!;
  }
  offset += 16;
  return text.toString("latin1", 0, 36);
}
