/**
 * `harnessReferencesClean`: when the validation cache may keep the verdict of checking a
 * harness config's references (a `hookwise hook` call answered from an entry then skips it).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { positionOf } from "../source/source-map.js";
import { checkHarnessReferences, harnessReferencesClean } from "./check-references.js";
import { validateConfigText } from "./validate-config.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function verdict(yaml: string, dir = "/nowhere") {
  const result = validateConfigText(yaml, "h.yaml");
  expect(result.validated, JSON.stringify(result.issues)).toBeDefined();
  const source = { file: "h.yaml", positionOf: (at: (string | number)[]) => positionOf(result.source, at) };
  const config = result.validated!.config;
  return {
    clean: harnessReferencesClean(config, dir, source),
    issues: checkHarnessReferences(config, dir, source).map((issue) => issue.message),
  };
}

describe("harnessReferencesClean", () => {
  it("is true for a harness config whose references are all found", () => {
    const found = verdict(
      [
        "harness: [claude, codex]",
        "runtime:",
        "  policies:",
        "    - { decision: deny, tool: shell, when: 'args.command.contains(\"rm\")' }",
        '    - { decision: ask_user, tool: "mcp__github__*" }',
        "  hooks:",
        "    - { id: g, on: tool_call, condition: { type: tool_name, match: Bash }, action: { type: gate } }",
        "",
      ].join("\n"),
    );
    expect(found).toEqual({ clean: true, issues: [] });
  });

  it("is false when the check finds a problem, an error or a warning", () => {
    const wrong = verdict("harness: claude\nruntime:\n  policies:\n    - { decision: deny, tool: Bsh }\n");
    expect(wrong.issues.join()).toContain("Bsh");
    expect(wrong.clean).toBe(false);
    // Under a `not`, a tool_name matching nothing is a warning: kept out of the entry too.
    const warned = verdict(
      "harness: claude\nruntime:\n  hooks:\n    - { id: n, on: tool_call, condition: { type: not, condition: { type: tool_name, match: Bsh } }, action: { type: gate } }\n",
    );
    expect(warned.issues.length).toBeGreaterThan(0);
    expect(warned.clean).toBe(false);
  });

  it("is false when the check looks at a file besides the config: a shell action's program can go missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "hookwise-refs-"));
    dirs.push(dir);
    writeFileSync(join(dir, "check.sh"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const yaml =
      "harness: claude\nruntime:\n  hooks:\n    - { id: s, on: tool_call, action: { type: shell, command: ./check.sh } }\n";
    expect(verdict(yaml, dir)).toEqual({ clean: false, issues: [] });
  });

  it("is false for a config that guards no harness", () => {
    expect(verdict("runtime:\n  policies:\n    - { decision: deny, tool: shell }\n", "/nowhere").clean).toBe(
      false,
    );
  });
});
