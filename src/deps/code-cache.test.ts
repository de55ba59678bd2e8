import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { cacheCompiledDeps, loadCached } from "./code-cache.js";

const root = mkdtempSync(join(tmpdir(), "hookwise-code-cache-"));
const cache = join(root, "cache");
const exitListeners = process.listeners("exit");
cacheCompiledDeps({ NODE_COMPILE_CACHE: cache });

afterAll(() => {
  // The cache writes what it compiled when the process exits: not into a folder removed here.
  for (const listener of process.listeners("exit"))
    if (!exitListeners.includes(listener)) process.removeListener("exit", listener);
  rmSync(root, { recursive: true, force: true });
});

const wrapped = (source: string) =>
  `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`;

/**
 * A bundled file, and beside it in the cache an entry compiled from other code of the same
 * length (V8 checks only the length), written with `mode`: what the file loads as.
 */
function loadedWithForeignEntry(name: string, mode: number): unknown {
  const hash = "0123456789abcdef";
  const file = join(root, `${name}.cjs`);
  writeFileSync(file, `// content-hash: ${hash}\nmodule.exports = "mine";`);
  const other = new Script(wrapped(`// content-hash: ${hash}\nmodule.exports = "evil";`), { filename: file });
  other.runInThisContext();
  const folder = join(cache, `v8-${process.version}-${process.arch}`);
  mkdirSync(folder, { recursive: true });
  const entry = join(folder, `${name}-${hash}.code`);
  writeFileSync(entry, other.createCachedData());
  chmodSync(entry, mode);
  return loadCached(file);
}

describe.skipIf(
  process.getuid === undefined || "enableCompileCache" in (process.getBuiltinModule("node:module") as object),
)("the compiled-code cache's entries", () => {
  it("uses an entry only the running user could have written (V8 checks no more than the length)", () => {
    expect(loadedWithForeignEntry("own", 0o600)).toBe("evil");
  });

  it("never runs an entry others may write: the file is compiled from its own source", () => {
    expect(loadedWithForeignEntry("shared", 0o666)).toBe("mine");
    expect(loadedWithForeignEntry("group", 0o620)).toBe("mine");
  });
});

describe.skipIf(
  process.getuid === undefined || "enableCompileCache" in (process.getBuiltinModule("node:module") as object),
)("the compiled-code cache's folder", () => {
  it("writes nothing into a folder others may write: no file of the user's is overwritten through a link there", () => {
    const folder = join(cache, `v8-${process.version}-${process.arch}`);
    const file = join(root, "fresh.cjs");
    writeFileSync(file, '// content-hash: fedcba9876543210\nmodule.exports = "fresh";');
    expect(loadCached(file)).toBe("fresh");
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o777);
    const victim = join(root, "victim");
    writeFileSync(victim, "precious");
    const entry = join(folder, "fresh-fedcba9876543210.code");
    // What another user could put where the entry is written before it is renamed into place.
    symlinkSync(victim, `${entry}.${process.pid}`);
    try {
      for (const listener of process.listeners("exit"))
        if (!exitListeners.includes(listener)) (listener as () => void)();
    } finally {
      chmodSync(folder, 0o700);
    }
    expect(readFileSync(victim, "utf8")).toBe("precious");
    expect(existsSync(entry)).toBe(false);
  });
});
