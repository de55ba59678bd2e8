import { describe, expect, it } from "vitest";
import { flatUuid } from "./flat-uuid.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("flatUuid", () => {
  it("makes version 4 UUIDs, none twice, across many blocks of random bytes", () => {
    const ids = Array.from({ length: 3000 }, () => flatUuid());
    for (const id of ids) expect(id).toMatch(V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("uses every hex digit in every free position (the bytes are random, not a pattern)", () => {
    const ids = Array.from({ length: 600 }, () => flatUuid());
    // Position 0 (a free nibble), 14 (the version: always 4) and 19 (the variant: 8–b).
    const seen = (position: number) => new Set(ids.map((id) => id[position])).size;
    expect(seen(0)).toBe(16);
    expect(seen(35)).toBe(16);
    expect(seen(14)).toBe(1);
    expect(seen(19)).toBe(4);
  });
});
