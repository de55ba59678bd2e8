import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kindOutputsOf } from "./check/kind-outputs-of.js";
import { validateConfigText } from "./check/validate-config.js";
import { ConfigError } from "./source/config-error.js";
import { type CachedValidation, cachedValidation } from "./validation-cache.js";
import { entryFileName, readEntryFile, writeEntryFile } from "./validation-entry-file.js";

const CONFIG = `harness: claude
runtime:
  policies:
    - { decision: deny, tool: Bash, when: 'args.command.contains("rm")', reason: no rm }
agents:
  - id: main
    hooks:
      - { id: gate-curl, on: tool_call, condition: { type: expression, expr: 'args.command.startsWith("curl")' }, action: { type: gate } }
`;

let dir: string;
let folder: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookwise-validation-cache-"));
  folder = join(dir, ".hookwise", "cache");
  file = join(dir, "hookwise.yaml");
  writeFileSync(file, CONFIG);
});

afterEach(() => {
  chmodSync(dir, 0o700);
  rmSync(dir, { recursive: true, force: true });
});

/** Validates `text` as `readConfig` does, counting the validations. */
function validator(text: string) {
  const counted = { runs: 0 };
  const validate = (): CachedValidation => {
    counted.runs++;
    const result = validateConfigText(text, file);
    if (!result.validated) throw new ConfigError(result.issues);
    return {
      validated: result.validated,
      warnings: result.issues.filter((issue) => issue.severity === "warning"),
    };
  };
  return { counted, validate };
}

const entries = () => readdirSync(folder).filter((name) => name.startsWith("validated-"));

/** What an entry holds, as far as these tests change it. */
interface EntryData {
  build: string;
  file: string;
  text: string;
  validated: { appPolicies: unknown[] };
}

describe("cachedValidation", () => {
  it("validates a config once per text and build, and reads the same result back", () => {
    const { counted, validate } = validator(CONFIG);
    const first = cachedValidation(folder, file, CONFIG, "build-1", validate)!;
    const again = cachedValidation(folder, file, CONFIG, "build-1", validate)!;
    expect(counted.runs).toBe(1);
    expect(again).toEqual(first);
    expect(again.validated.agentHooks).toBeInstanceOf(Map);
    expect(again.validated.agentHooks.get("main")?.[0]?.id).toBe("gate-curl");
    expect(again.validated.appPolicies[0]?.when).toBe('args.command.contains("rm")');
    expect(entries()).toHaveLength(1);
  });

  it("validates again when the text or the build changed, keeping one entry per config", () => {
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    cachedValidation(folder, file, CONFIG, "build-2", validate);
    expect(counted.runs).toBe(2);
    const changed = CONFIG.replace('contains("rm")', 'contains("shred")');
    const other = validator(changed);
    const result = cachedValidation(folder, file, changed, "build-2", other.validate)!;
    expect(other.counted.runs).toBe(1);
    expect(result.validated.appPolicies[0]?.when).toBe('args.command.contains("shred")');
    expect(entries()).toHaveLength(1);
  });

  it("answers only for the very path, text and build an entry was made from, compared in full, not by a hash", () => {
    // The entry's file is named by a cheap hash of the path alone: a changed text, or another
    // path whose name is the same, finds this file, and must not be answered from it. Each
    // entry below reads back whole (its checksum matches) and has its policies taken out: one
    // used by mistake lets through what the config denies.
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    const path = join(folder, entryFileName(file));
    expect(entries()).toEqual([entryFileName(file)]);
    const kept = readEntryFile(path) as EntryData;
    expect(kept).toMatchObject({ build: "build-1", file, text: CONFIG });
    const poison = (change: Partial<EntryData>) => {
      const data = { ...structuredClone(kept), ...change };
      data.validated.appPolicies = [];
      writeEntryFile(folder, path, data);
    };
    const denies = () => cachedValidation(folder, file, CONFIG, "build-1", validate)?.validated.appPolicies;
    // The same text, path and build: the entry answers (this is what the changes below break).
    poison({});
    expect(denies()).toHaveLength(0);
    expect(counted.runs).toBe(1);
    for (const change of [
      // Another text: one character more, one changed, or cut short.
      { text: `${CONFIG} ` },
      { text: CONFIG.replace('contains("rm")', 'contains("rn")') },
      { text: CONFIG.slice(0, -1) },
      // Another config file whose entry's name is the same.
      { file: join(dir, "other.yaml") },
      // Another build (or bundled package).
      { build: "build-2" },
    ]) {
      poison(change);
      const runs = counted.runs;
      expect(denies(), JSON.stringify(change)).toHaveLength(1);
      expect(counted.runs, JSON.stringify(change)).toBe(runs + 1);
      // Written again for what it validated: the next load reads it.
      expect(readEntryFile(path)).toMatchObject({ build: "build-1", file, text: CONFIG });
    }
  });

  it("names an entry's file after its config's path, the same each time", () => {
    const name = entryFileName("/home/someone/project/hookwise.yaml");
    expect(name).toMatch(/^validated-[0-9a-f]{16}\.json$/);
    expect(entryFileName("/home/someone/project/hookwise.yaml")).toBe(name);
    expect(entryFileName("/home/someone/project/hookwise.yml")).not.toBe(name);
    expect(entryFileName("/home/someone/projecT/hookwise.yaml")).not.toBe(name);
  });

  it("ignores an entry that does not read back whole or has the wrong shape, and writes it again", () => {
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    const path = join(folder, entries()[0]!);
    const kept = readFileSync(path, "utf8");
    // A byte changed in what validation found (the text it was made from left as it is): its
    // checksum no longer matches.
    const policy = kept.lastIndexOf('contains(\\"rm\\")');
    expect(policy).toBeGreaterThan(kept.indexOf('"validated":'));
    writeFileSync(path, `${kept.slice(0, policy)}contains(\\"xx\\")${kept.slice(policy + 16)}`);
    expect(cachedValidation(folder, file, CONFIG, "build-1", validate)?.validated.appPolicies[0]?.when).toBe(
      'args.command.contains("rm")',
    );
    expect(counted.runs).toBe(2);
    // Cut short.
    writeFileSync(path, kept.slice(0, kept.length / 2));
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    expect(counted.runs).toBe(3);
    // Whole and checksummed, but not an entry's shape.
    writeEntryFile(folder, path, {
      format: 4,
      build: "build-1",
      file,
      text: CONFIG,
      validated: {},
      warnings: [],
    });
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    expect(counted.runs).toBe(4);
    // Written again each time: the next call reads it.
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    expect(counted.runs).toBe(4);
  });

  it("keeps the schemas' outputs validation found with the config, and ignores an entry whose outputs are not JSON text", () => {
    const { counted, validate } = validator(CONFIG);
    const withOutputs = (): CachedValidation => {
      const found = validate();
      return { ...found, validated: { ...found.validated, kindOutputs: kindOutputsOf(found.validated) } };
    };
    const first = cachedValidation(folder, file, CONFIG, "build-1", withOutputs)!;
    expect(Object.keys(first.validated.kindOutputs!).length).toBeGreaterThan(0);
    expect(cachedValidation(folder, file, CONFIG, "build-1", withOutputs)).toEqual(first);
    expect(counted.runs).toBe(1);
    // Whole and checksummed, an output that is not JSON text: the config is validated again.
    const path = join(folder, entries()[0]!);
    const data = readEntryFile(path) as { validated: { kindOutputs: Record<string, unknown> } };
    const [key] = Object.keys(data.validated.kindOutputs);
    data.validated.kindOutputs[key!] = { type: "gate" };
    writeEntryFile(folder, path, data);
    expect(cachedValidation(folder, file, CONFIG, "build-1", withOutputs)).toEqual(first);
    expect(counted.runs).toBe(2);
  });

  it("keeps no config that does not validate: its errors are found again on every load", () => {
    const broken = `${CONFIG}    unknown_field: 1\n`;
    const { counted, validate } = validator(broken);
    expect(() => cachedValidation(folder, file, broken, "build-1", validate)).toThrow(ConfigError);
    expect(() => cachedValidation(folder, file, broken, "build-1", validate)).toThrow(ConfigError);
    expect(counted.runs).toBe(2);
    expect(() => readdirSync(folder)).toThrow();
  });

  it("keeps no config with claude_hooks (its validation reads other files)", () => {
    writeFileSync(join(dir, "settings.json"), JSON.stringify({ hooks: {} }));
    const text = `${CONFIG}claude_hooks: settings.json\n`;
    const { counted, validate } = validator(text);
    cachedValidation(folder, file, text, "build-1", validate);
    cachedValidation(folder, file, text, "build-1", validate);
    expect(counted.runs).toBe(2);
  });

  it("holds no value from the environment", () => {
    process.env.HOOKWISE_CACHE_TEST_TOKEN = "s3cr3t-value-never-stored";
    try {
      const text = `${CONFIG}toolsets:\n  api:\n    kind: openapi\n    spec: ./api.json\n    headers:\n      Authorization: "Bearer \${HOOKWISE_CACHE_TEST_TOKEN}"\n`;
      const { validate } = validator(text);
      cachedValidation(folder, file, text, "build-1", validate);
      const kept = readFileSync(join(folder, entries()[0]!), "utf8");
      expect(kept).not.toContain("s3cr3t-value-never-stored");
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} the config holds, kept as written
      expect(kept).toContain("${HOOKWISE_CACHE_TEST_TOKEN}");
    } finally {
      delete process.env.HOOKWISE_CACHE_TEST_TOKEN;
    }
  });

  it("validates as usual when the folder cannot be written", () => {
    chmodSync(dir, 0o500);
    const { counted, validate } = validator(CONFIG);
    const result = cachedValidation(folder, file, CONFIG, "build-1", validate);
    expect(result?.validated.appPolicies).toHaveLength(1);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    // Root may write anywhere: then the second load read the entry.
    expect(counted.runs).toBe(process.getuid?.() === 0 ? 1 : 2);
  });

  it("uses no entry another user could have written: one they own, one others may write, one in a folder others may write", () => {
    // The cache folder may sit where others can write (XDG_CACHE_HOME=/tmp/cache): an entry
    // planted there with the policies taken out, or one of this user's made writable to all,
    // must not answer for the config.
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    const path = join(folder, entryFileName(file));
    const kept = readEntryFile(path) as EntryData;
    const poison = () => {
      const data = structuredClone(kept);
      data.validated.appPolicies = [];
      writeEntryFile(folder, path, data);
    };
    const denies = () => cachedValidation(folder, file, CONFIG, "build-1", validate)?.validated.appPolicies;
    // Planted as it is, by this user, in this user's folder: answered (what the cases below break).
    poison();
    expect(denies()).toHaveLength(0);
    expect(counted.runs).toBe(1);
    const cases: [string, () => void][] = [
      ["an entry others may write", () => chmodSync(path, 0o666)],
      ["a folder others may write", () => chmodSync(folder, 0o777)],
    ];
    // Root gives the entry away; anyone else cannot.
    if (process.getuid?.() === 0)
      cases.push(["an entry another user owns", () => chownSync(path, 65534, 65534)]);
    for (const [what, plant] of cases) {
      chmodSync(folder, 0o700);
      poison();
      plant();
      const runs = counted.runs;
      expect(denies(), what).toHaveLength(1);
      expect(counted.runs, what).toBe(runs + 1);
    }
  });

  it("writes no entry through a link planted at its temporary file's name", () => {
    // In a folder others may write, the temporary file's name (process id and time) can be
    // guessed: a link planted there must not make the write land in the file it points to.
    const target = join(dir, "victim");
    writeFileSync(target, "kept");
    mkdirSync(folder, { recursive: true });
    const now = Date.now();
    for (let at = now - 50; at < now + 3000; at++)
      symlinkSync(target, join(folder, `.${process.pid}-${at.toString(36)}.tmp`));
    const { validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    expect(readFileSync(target, "utf8")).toBe("kept");
  });

  it("uses and keeps no entry for a config another user owns: writing the cache must not answer for a config one cannot change", () => {
    // A config deployed read-only by an administrator, guarding an agent that runs as this
    // user: an entry in this user's cache with its policies taken out must not be read.
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    const kept = readEntryFile(join(folder, entries()[0]!)) as EntryData;
    /** An entry for `config` that reads back whole, its policies taken out. */
    const poison = (config: string) => {
      const data = structuredClone(kept);
      data.file = config;
      data.validated.appPolicies = [];
      writeEntryFile(folder, join(folder, entryFileName(config)), data);
    };
    poison(file);
    // While the config is this user's own, the entry is used (its owner could change the config as well).
    expect(cachedValidation(folder, file, CONFIG, "build-1", validate)?.validated.appPolicies).toHaveLength(
      0,
    );
    // Another user's config (root gives this one away; anyone else takes a file of root's).
    const foreign = process.getuid?.() === 0 ? file : "/etc/hostname";
    if (foreign === file) chownSync(file, 65534, 65534);
    poison(foreign);
    const { counted: again, validate: validateAgain } = validator(CONFIG);
    const found = cachedValidation(folder, foreign, CONFIG, "build-1", validateAgain)!;
    expect(found.validated.appPolicies[0]?.when).toBe('args.command.contains("rm")');
    cachedValidation(folder, foreign, CONFIG, "build-1", validateAgain);
    expect(again.runs).toBe(2);
    expect(counted.runs).toBe(1);
  });
});
