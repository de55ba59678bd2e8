import { describe, expect, it } from "vitest";
import { compileClaudeMatcher } from "./claude-matcher.js";

describe("matchers as Claude Code reads them", () => {
  it.each([undefined, "", "*"])("%j matches everything", (matcher) => {
    const matches = compileClaudeMatcher(matcher);
    expect(matches(["Bash"])).toBe(true);
    expect(matches(["mcp__memory__echo"])).toBe(true);
  });

  it("letters, digits, _ and | are exact names, case-sensitive, never a prefix", () => {
    const bash = compileClaudeMatcher("Bash");
    expect(bash(["Bash"])).toBe(true);
    expect(bash(["BashOutput"])).toBe(false);
    expect(bash(["bash"])).toBe(false);
    const edits = compileClaudeMatcher("Edit|Write");
    expect(edits(["Write"])).toBe(true);
    expect(edits(["Edit"])).toBe(true);
    expect(edits(["TodoWrite"])).toBe(false);
    expect(edits(["Read"])).toBe(false);
    // A prefix of an MCP server is an exact name too: it matches no tool.
    expect(compileClaudeMatcher("mcp__memory")(["mcp__memory__echo"])).toBe(false);
  });

  it("anything else is an unanchored JavaScript regular expression", () => {
    const memory = compileClaudeMatcher("mcp__memory__.*");
    expect(memory(["mcp__memory__echo"])).toBe(true);
    expect(memory(["mcp__github__search"])).toBe(false);
    expect(compileClaudeMatcher("^Notebook")(["NotebookEdit"])).toBe(true);
    expect(compileClaudeMatcher("^Notebook")(["MyNotebook"])).toBe(false);
    expect(compileClaudeMatcher("Edit$|^Write$")(["MultiEdit"])).toBe(true);
    expect(compileClaudeMatcher("fs\\.read_file")(["fs.read_file"])).toBe(true);
  });

  it("checks every name a tool goes by (its Claude Code name and its qualified name)", () => {
    expect(compileClaudeMatcher("Read")(["Read", "fs.read_file"])).toBe(true);
    expect(compileClaudeMatcher("fs\\..*")(["Read", "fs.read_file"])).toBe(true);
    expect(compileClaudeMatcher("Write")(["Read", "fs.read_file"])).toBe(false);
    // An exact name (or a list of them) matches a tool's second name too, not only its first.
    expect(compileClaudeMatcher("fs_read_file")(["Read", "fs_read_file"])).toBe(true);
    expect(compileClaudeMatcher("Write|fs_read_file")(["Read", "fs_read_file"])).toBe(true);
  });

  it("a regular expression that does not compile is an error naming it", () => {
    expect(() => compileClaudeMatcher("Bash(")).toThrow(/matcher "Bash\(" is not a valid regular expression/);
  });
});
