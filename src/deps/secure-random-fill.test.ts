import { describe, expect, it } from "vitest";
import { secureRandomFill } from "./secure-random-fill.js";

describe("secureRandomFill", () => {
  it("fills every byte of a buffer, each time with other bytes, and answers that buffer", () => {
    const buffer = Buffer.alloc(64 * 1024);
    expect(secureRandomFill(buffer)).toBe(buffer);
    // Every byte value shows up in 64 KB of random bytes, and no long run of zeros is left.
    expect(new Set(buffer).size).toBe(256);
    expect(buffer.indexOf(Buffer.alloc(16))).toBe(-1);
    const before = Buffer.from(buffer);
    secureRandomFill(buffer);
    expect(buffer.equals(before)).toBe(false);
    // A view into a larger buffer: only its own bytes.
    const whole = Buffer.alloc(48);
    secureRandomFill(whole.subarray(16, 32));
    expect(whole.subarray(0, 16).equals(Buffer.alloc(16))).toBe(true);
    expect(whole.subarray(32).equals(Buffer.alloc(16))).toBe(true);
    expect(whole.subarray(16, 32).equals(Buffer.alloc(16))).toBe(false);
  });
});
