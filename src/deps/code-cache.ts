/**
 * The CLI's cache of compiled code for the packages built into `dist/deps/` (zod, yaml, the
 * CEL engine, picomatch) and for `hookwise hook`'s own build (`dist/hook.cjs`, which the
 * installed CLI loads with this module's own build, `dist/code-cache.cjs`), on Node versions
 * that have no compile cache of their own.
 *
 * Node 22.1 and later keep compiled code between runs when a program asks
 * (`module.enableCompileCache()`, which the CLI calls). On Node 20 each command compiles
 * those packages afresh: about 600 KB of code, a third of `hookwise validate`'s own time.
 * Here V8's code cache takes its place: a bundled package is compiled as a script with the
 * cached code of an earlier run, and when there was none (or V8 refused it) the code
 * compiled by this run, including what ran lazily, is written when the process exits.
 *
 * Only the CLI turns this on; a program that imports hookwise writes nothing. The cache lives
 * in `$NODE_COMPILE_CACHE` when set (the folder Node's own cache uses), otherwise in
 * `$XDG_CACHE_HOME/hookwise` or `~/.cache/hookwise`, in a folder per Node version, made
 * readable by its owner only. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as it does
 * Node's. A cache that cannot be read or written is skipped: it only saves time.
 *
 * V8 checks a cached entry against its own version and flags and the source's length, not
 * its content, so each entry is named after a hash of the file's content that the build
 * writes on the file's first line (see tsdown.config.ts). For the same reason an entry is
 * code that runs: one compiled from other code of the same length runs in its place. So the
 * cache serves only a package the running user owns (who could change its files as well): an
 * install of another user's (root's, for a hook guarding an agent that runs as this user) is
 * compiled afresh each time, never from a folder this user can write. Likewise an entry is
 * read only when the running user owns it and no group or other user may write it.
 */
import {
  closeSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";

let folder: string | undefined;
/** Scripts compiled without a usable cache entry: their code is written at exit. */
const unsaved: { script: import("node:vm").Script; file: string; stale: string }[] = [];

/** Whether the running user owns `file`; where there are no user ids (Windows), yes. */
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
 * The cached entry `entry`, when only the running user could have written it (theirs, and
 * writable by no group or other: a cache folder another user can write, `$NODE_COMPILE_CACHE`
 * shared, must not hand this user code to run); undefined otherwise, or when there is none.
 * Checked on the descriptor it is read from, so no file put in its place meanwhile is read.
 */
function ownEntry(entry: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(entry, "r");
  } catch {
    return undefined; // not cached yet
  }
  try {
    const stats = fstatSync(fd);
    const uid = process.getuid?.();
    if (uid !== undefined && (stats.uid !== uid || (stats.mode & 0o022) !== 0)) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Turns the cache on for this process (the CLI calls it once, before any command runs). */
export function cacheCompiledDeps(env: NodeJS.ProcessEnv = process.env): void {
  if (folder !== undefined || "enableCompileCache" in (process.getBuiltinModule("node:module") as object))
    return;
  if (env.NODE_DISABLE_COMPILE_CACHE) return;
  const root =
    env.NODE_COMPILE_CACHE ||
    join(env.XDG_CACHE_HOME || join(process.getBuiltinModule("node:os").homedir(), ".cache"), "hookwise");
  folder = join(root, `v8-${process.version}-${process.arch}`);
  process.once("exit", saveCompiled);
}

/** Whether bundled packages load through the cache (see `loadBundled`). */
export function compiledDepsCached(): boolean {
  return folder !== undefined;
}

/** What `loadCached` ran, by file: a file required again (or in a cycle) is that module. */
const loaded = new Map<string, { exports: unknown }>();

/**
 * Loads a bundled package's CommonJS file through the cache: what `require(file)` gives,
 * with the file's compiled code taken from, or kept for, the next run. A file of the same
 * build it requires (`./name.cjs`: `hookwise hook`'s own build) loads the same way, unless
 * Node's `require` already loaded it. `found`: where the caller already knows a module the
 * file requires by name to be (its path), so it is not looked for through `node_modules`.
 */
export function loadCached(file: string, found?: Readonly<Record<string, string>>): unknown {
  const known = loaded.get(file);
  if (known !== undefined) return known.exports;
  const source = readFileSync(file, "utf8");
  const hash = /^\/\/ content-hash: (\w+)\n/.exec(source)?.[1];
  if (hash === undefined || folder === undefined || !ownedByUs(file)) return createRequire(file)(file);
  const name = basename(file).replace(/\.cjs$/, "");
  const entry = join(folder, `${name}-${hash}.code`);
  const cachedData = ownEntry(entry);
  // The wrapper Node itself puts around a CommonJS file, on the file's first line, so
  // positions in stack traces stay the file's own; and `__import`, which the build writes
  // for `import()` (a script compiled here has no module loader of its own to import with).
  // node:vm and node:os are taken here, not imported: `import "hookwise"` never needs them.
  const { Script } = process.getBuiltinModule("node:vm");
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`,
    { filename: file, cachedData },
  );
  if (cachedData === undefined || script.cachedDataRejected)
    unsaved.push({ script, file: entry, stale: name });
  const module = { exports: {} as unknown };
  loaded.set(file, module);
  const nodeRequire = createRequire(file);
  const require = Object.assign((id: string) => {
    if (!id.startsWith("./") || !id.endsWith(".cjs")) return nodeRequire(found?.[id] ?? id);
    const path = join(dirname(file), id);
    return nodeRequire.cache[path]?.exports ?? loadCached(path);
  }, nodeRequire);
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    require,
    module,
    file,
    dirname(file),
    (specifier: string) => import(specifier),
  );
  return module.exports;
}

function saveCompiled(): void {
  if (unsaved.length === 0 || folder === undefined) return;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // A folder another user may write (a shared `$NODE_COMPILE_CACHE`) could hold a link
    // where an entry is written: nothing is written there.
    const stats = lstatSync(folder);
    const uid = process.getuid?.();
    if (!stats.isDirectory() || (uid !== undefined && (stats.uid !== uid || (stats.mode & 0o022) !== 0)))
      return;
    const present = readdirSync(folder);
    for (const { script, file, stale } of unsaved) {
      // An entry of an earlier build of the same package is never read again.
      for (const old of present)
        if (
          old.startsWith(`${stale}-`) &&
          /^[0-9a-f]{16}\.code$/.test(old.slice(stale.length + 1)) &&
          old !== basename(file)
        )
          rmSync(join(folder, old), { force: true });
      // Written beside and renamed into place: a process starting meanwhile reads a whole
      // entry or none.
      const partial = `${file}.${process.pid}`;
      // Created anew ("wx"): never through a file or link already there (one a process of
      // the same id left when it was killed is removed first).
      rmSync(partial, { force: true });
      writeFileSync(partial, script.createCachedData(), { mode: 0o600, flag: "wx" });
      renameSync(partial, file);
    }
  } catch {
    // A cache that cannot be written only costs the next run its time.
  }
}
