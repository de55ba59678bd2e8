import { describe, expect, it } from "vitest";
import { maskSecrets, registerSecret, SHORTEST_SECRET } from "./secret-registry.js";

describe("registerSecret", () => {
  it("masks a secret of exactly the shortest length; a shorter value is nobody's key and stays", () => {
    const shortest = `${"k".repeat(SHORTEST_SECRET - 1)}9`;
    const shorter = `${"q".repeat(SHORTEST_SECRET - 2)}7`;
    expect(shortest).toHaveLength(SHORTEST_SECRET);
    registerSecret(shortest, "SHORT_KEY");
    registerSecret(shorter, "SHORTER");
    expect(maskSecrets(`a ${shortest} b ${shorter}`)).toBe(`a [redacted SHORT_KEY] b ${shorter}`);
  });
});
