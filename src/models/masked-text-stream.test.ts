import { describe, expect, it } from "vitest";
import { MaskedTextStream } from "./masked-text-stream.js";

const SECRETS = ["sk-live-0123456789", "tok-abcdefgh"];
const mask = (text: string) => SECRETS.reduce((out, secret) => out.split(secret).join("[redacted]"), text);

/** Feeds `pieces` through a stream; returns every piece it let out, then what flush gave. */
function through(pieces: readonly string[]): string[] {
  const stream = new MaskedTextStream(mask, () => SECRETS);
  return [...pieces.map((piece) => stream.push(piece)), stream.flush()];
}

describe("MaskedTextStream", () => {
  it("masks a secret split across pieces: no piece carries any part of it", () => {
    const out = through(["key: sk-l", "ive-01", "2345", "6789 ok"]);
    expect(out.join("")).toBe("key: [redacted] ok");
    for (const piece of out) expect(piece).not.toMatch(/sk-l|ive-01|2345|6789/);
  });

  it("holds back only an end that could begin a secret, and lets it out once it cannot", () => {
    expect(through(["plain text.", " more."])).toEqual(["plain text.", " more.", ""]);
    // A single letter that begins a secret waits too.
    expect(through(["the cat", " sat."])).toEqual(["the ca", "t sat.", ""]);
    // "sk-" could begin the secret: held; "sk-x" cannot: out with the next piece.
    expect(through(["a sk-", "x b"])).toEqual(["a ", "sk-x b", ""]);
    // The text ended on a beginning: flush gives it (it is no whole secret).
    expect(through(["ends with tok-abc"])).toEqual(["ends with ", "tok-abc"]);
  });

  it("masks whole secrets within one piece, and a secret right after a held beginning", () => {
    expect(through(["tok-abcdefgh and sk-live-0123456789"]).join("")).toBe("[redacted] and [redacted]");
    expect(through(["sk-tok-", "abcdefgh"]).join("")).toBe("sk-[redacted]");
  });

  it("reads the secrets at each piece (a secret registered later is held too)", () => {
    const secrets: string[] = [];
    const stream = new MaskedTextStream(
      (text) => secrets.reduce((out, secret) => out.split(secret).join("#"), text),
      () => secrets,
    );
    expect(stream.push("abc-")).toBe("abc-");
    secrets.push("late-secret-1");
    expect(stream.push("late-sec")).toBe("");
    expect(stream.push("ret-1!")).toBe("#!");
  });
});
