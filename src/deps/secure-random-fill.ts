/**
 * Fills a buffer from the system's secure random source, without loading node:crypto where
 * the system has one to read.
 *
 * `hookwise hook` is a new process on every tool call of a harness, and needs one random id
 * (its run's). Loading node:crypto for it (or Web Crypto's `globalThis.crypto`, which on
 * Node 20 loads it the same way) makes Node compile about thirty built-in modules, its
 * streams among them: milliseconds of every call. Where the kernel's random source is a
 * device (Linux, macOS, the BSDs), its bytes are read from `/dev/urandom`: the source
 * node:crypto's own generator is seeded from, as unpredictable as what node:crypto answers.
 * Anywhere else (Windows), or when that device cannot be read, or is not a character device
 * (a file left in its place), the bytes come from node:crypto: never from a weaker source.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { nodeCrypto } from "./node-crypto.js";

/** Fills `buffer` with secure random bytes and answers it. */
export function secureRandomFill<T extends Uint8Array>(buffer: T): T {
  if (process.platform !== "win32" && readDevice(buffer)) return buffer;
  return nodeCrypto().randomFillSync(buffer);
}

/** Whether `buffer` was filled from /dev/urandom. */
function readDevice(buffer: Uint8Array): boolean {
  let fd: number;
  try {
    fd = openSync("/dev/urandom", "r");
  } catch {
    return false;
  }
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
    let filled = 0;
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (read <= 0) return false;
      filled += read;
    }
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}
