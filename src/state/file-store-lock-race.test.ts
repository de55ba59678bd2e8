/**
 * The file store's lock taken over from a crashed holder while another process does the same:
 * only the crashed holder's lock file is removed, never the one the other process has just
 * taken in its place (two holders would count from the same value).
 */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** The lock file whose next read answers the crashed holder's pid (what was read before). */
const staleRead: { lock: string | undefined; pid: string } = { lock: undefined, pid: "2147483646" };

vi.mock("node:fs", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:fs")>();
  const readFileSync = ((file: fs.PathOrFileDescriptor, options?: unknown) => {
    if (file === staleRead.lock) {
      staleRead.lock = undefined;
      return staleRead.pid;
    }
    return original.readFileSync(file, options as BufferEncoding);
  }) as typeof original.readFileSync;
  return { ...original, readFileSync, default: { ...original, readFileSync } };
});

const { FileStore } = await import("./file-store.js");
const { StateStoreError } = await import("./state-store-error.js");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(join(tmpdir(), "hookwise-file-lock-"));
});
afterEach(() => {
  staleRead.lock = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("FileStore lock takeover", () => {
  it("leaves a live holder's lock that replaced the crashed one after it was read", async () => {
    const store = new FileStore({ path: dir, lockTimeoutMs: 200 });
    const lock = join(dir, "lock");
    // Another process already took over the crashed holder's lock: the file names it (alive);
    // this process read the lock just before, when it still named the crashed one.
    fs.writeFileSync(lock, String(process.ppid));
    staleRead.lock = lock;
    const refused = await store.set("raced", true).catch((error: unknown) => error);
    expect(StateStoreError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain("stayed locked by another process");
    expect(fs.readFileSync(lock, "utf8")).toBe(String(process.ppid));
    expect(await store.get("raced")).toBeUndefined();
    expect(fs.readdirSync(dir).sort()).toEqual(["lock", "sessions", "values", "windows"]);
  });

  it("still takes over a lock whose process is gone", async () => {
    const store = new FileStore({ path: dir, lockTimeoutMs: 200 });
    fs.writeFileSync(join(dir, "lock"), staleRead.pid);
    await store.set("after-crash", 1);
    expect(await store.get("after-crash")).toBe(1);
    expect(fs.readdirSync(dir).sort()).toEqual(["sessions", "swept", "values", "windows"]);
  });

  it("takes over a gone holder's lock past a lock.break a crashed process left, and only an old one", async () => {
    const store = new FileStore({ path: dir, lockTimeoutMs: 300 });
    const lock = join(dir, "lock");
    const guard = join(dir, "lock.break");
    fs.writeFileSync(lock, staleRead.pid);
    fs.writeFileSync(guard, "");
    // A fresh one: another process is taking the lock away right now, so this one waits.
    const waited = await store.set("guarded", 1).catch((error: unknown) => error);
    expect((waited as Error).message).toContain("stayed locked by another process");
    expect(fs.existsSync(lock)).toBe(true);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(guard, old, old);
    await store.set("guarded", 2);
    expect(await store.get("guarded")).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual(["sessions", "swept", "values", "windows"]);
  });
});
