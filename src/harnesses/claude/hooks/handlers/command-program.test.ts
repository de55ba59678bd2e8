import { describe, expect, it } from "vitest";
import { commandFile, leadingWords } from "./command-program.js";

const project = "/work/project";

describe("the file a command handler starts", () => {
  it("reads the program, or an interpreter's script, with $CLAUDE_PROJECT_DIR filled in", () => {
    expect(
      commandFile({ command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh --strict' }, project),
    ).toEqual({
      file: "/work/project/.claude/hooks/check.sh",
      role: "program",
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
    expect(commandFile({ command: "${CLAUDE_PROJECT_DIR}/hooks/a.sh" }, project)?.file).toBe(
      "/work/project/hooks/a.sh",
    );
    expect(commandFile({ command: ".claude/hooks/a.sh" }, project)?.file).toBe(
      "/work/project/.claude/hooks/a.sh",
    );
    expect(commandFile({ command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/p.py' }, project)).toEqual({
      file: "/work/project/.claude/hooks/p.py",
      role: "script",
    });
    expect(commandFile({ command: "./bin/check", args: ["--x"] }, project)?.file).toBe(
      "/work/project/bin/check",
    );
  });

  it("reads nothing it is not sure of: other expansions, shell syntax, assignments, bare names, options", () => {
    for (const command of [
      "$HOME/.claude/hooks/a.sh",
      "~/hooks/a.sh",
      "$(pwd)/a.sh",
      "cd hooks && ./a.sh",
      "FOO=1 ./a.sh",
      "jq -r .tool_name",
      "node -e 'x'",
      "python3 -m checks",
      "./hooks/*.sh",
      "{ ./a.sh; }",
    ])
      expect(commandFile({ command }, project), command).toBeUndefined();
    expect(commandFile({ command: "$X/a", args: [] }, project)).toBeUndefined();
    expect(leadingWords("./a.sh;rm x", project)).toEqual([]);
    expect(leadingWords("'./my hooks/a.sh' x", project)).toEqual(["./my hooks/a.sh", "x"]);
  });
});
