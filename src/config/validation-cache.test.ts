import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { kindOutputsOf } from "./check/kind-outputs-of.js";
import { validateConfigText } from "./check/validate-config.js";
import { ConfigError } from "./source/config-error.js";
import { type CachedValidation, cachedValidation } from "./validation-cache.js";

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

  it("ignores an entry that does not read back whole or has the wrong shape, and writes it again", () => {
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    const path = join(folder, entries()[0]!);
    const kept = readFileSync(path, "utf8");
    // A byte changed in the payload: its checksum no longer matches.
    writeFileSync(path, kept.replace('contains(\\"rm\\")', 'contains(\\"xx\\")'));
    expect(cachedValidation(folder, file, CONFIG, "build-1", validate)?.validated.appPolicies[0]?.when).toBe(
      'args.command.contains("rm")',
    );
    expect(counted.runs).toBe(2);
    // Cut short.
    writeFileSync(path, kept.slice(0, kept.length / 2));
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    expect(counted.runs).toBe(3);
    // Whole and checksummed, but not an entry's shape.
    const { createHash } = process.getBuiltinModule("node:crypto");
    const payload = JSON.stringify({ format: 1, key: "x", validated: {}, warnings: [] });
    writeFileSync(path, `${createHash("sha256").update(payload).digest("hex")}\n${payload}`);
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
    const kept = readFileSync(path, "utf8");
    const data = JSON.parse(kept.slice(kept.indexOf("\n") + 1));
    const [key] = Object.keys(data.validated.kindOutputs);
    data.validated.kindOutputs[key!] = { type: "gate" };
    const payload = JSON.stringify(data);
    const { createHash } = process.getBuiltinModule("node:crypto");
    writeFileSync(path, `${createHash("sha256").update(payload).digest("hex")}\n${payload}`);
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

  it("uses and keeps no entry for a config another user owns: writing the cache must not answer for a config one cannot change", () => {
    // A config deployed read-only by an administrator, guarding an agent that runs as this
    // user: an entry in this user's cache with its policies taken out must not be read.
    const { counted, validate } = validator(CONFIG);
    cachedValidation(folder, file, CONFIG, "build-1", validate);
    const kept = readFileSync(join(folder, entries()[0]!), "utf8");
    const sha256 = (text: string) =>
      process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex");
    /** An entry for `config` that reads back whole, its policies taken out. */
    const poison = (config: string) => {
      const data = JSON.parse(kept.slice(kept.indexOf("\n") + 1));
      data.key = sha256(JSON.stringify([data.format, "build-1", config, CONFIG]));
      data.validated.appPolicies = [];
      const payload = JSON.stringify(data);
      writeFileSync(
        join(folder, `validated-${sha256(config).slice(0, 24)}.json`),
        `${sha256(payload)}\n${payload}`,
      );
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
