import { describe, expect, it } from "vitest";
import { functionToolName, qualifiedToolName, sanitizeToolName } from "../index.js";

const VALID = /^[A-Za-z0-9_-]{1,64}$/;

describe("sanitizeToolName", () => {
  it("maps every character outside [A-Za-z0-9_-] to _", () => {
    expect(sanitizeToolName("fs.read file/now")).toBe("fs_read_file_now");
    expect(sanitizeToolName("météo:v2")).toBe("m_t_o_v2");
    expect(sanitizeToolName("keep-this_Name09")).toBe("keep-this_Name09");
  });

  it("keeps a name of exactly 64 characters as it is", () => {
    const name = "a".repeat(64);
    expect(sanitizeToolName(name)).toBe(name);
  });

  it("truncates a longer name to 64 characters with a short stable hash", () => {
    const long = `memory_server_${"get_all_the_memories_".repeat(5)}`;
    const name = sanitizeToolName(long);
    expect(name).toHaveLength(64);
    expect(name).toMatch(VALID);
    expect(name).toMatch(/_[0-9a-f]{8}$/);
    expect(name.startsWith("memory_server_get_all_the_memories_")).toBe(true);
    // Stable: the same input gives the same name, every time and in every process.
    expect(sanitizeToolName(long)).toBe(name);
  });

  it("gives two long names that differ only after the cut two different names", () => {
    const base = "x".repeat(70);
    const one = sanitizeToolName(`${base}_one`);
    const two = sanitizeToolName(`${base}_two`);
    expect(one).not.toBe(two);
    expect(one).toHaveLength(64);
    expect(two).toHaveLength(64);
  });
});

describe("functionToolName and qualifiedToolName", () => {
  it("prefixes a toolset's tools: toolset_tool, sanitized", () => {
    expect(functionToolName("fs", "read")).toBe("fs_read");
    expect(functionToolName("memory-server", "get.memories")).toBe("memory-server_get_memories");
    expect(qualifiedToolName("fs", "read")).toBe("fs.read");
  });

  it("keeps a tool without a toolset verbatim", () => {
    expect(functionToolName(undefined, "add")).toBe("add");
    expect(qualifiedToolName(undefined, "add")).toBe("add");
  });

  it("prefix: false keeps the tool's own name, still valid for a provider", () => {
    expect(functionToolName("internal", "deploy", false)).toBe("deploy");
    expect(functionToolName("mcp", "get.memories", false)).toBe("get_memories");
    expect(functionToolName("mcp", "t".repeat(80), false)).toMatch(VALID);
  });

  it("keeps a long prefixed name within 64 characters", () => {
    const name = functionToolName(
      "a_really_long_toolset_name_for_testing",
      "and_an_even_longer_tool_name_here",
    );
    expect(name).toHaveLength(64);
    expect(name).toMatch(VALID);
    expect(name).toBe(
      functionToolName("a_really_long_toolset_name_for_testing", "and_an_even_longer_tool_name_here"),
    );
  });
});
