import { describe, expect, it } from "vitest";
import { secretForms } from "./secret-forms.js";
import { secretMasker } from "./secret-masker.js";

const mask = (secrets: string[], text: string) =>
  secretMasker(secrets.map((value) => ({ value }))).text(text);

describe("secretMasker", () => {
  it("masks two secrets where one contains the other, each whole, wherever they stand", () => {
    const outer = "tok-outer-INNER-secret-77";
    const inner = "INNER-secret";
    for (const order of [
      [outer, inner],
      [inner, outer],
    ]) {
      expect(mask(order, `a ${outer} b ${inner} c`)).toBe("a [redacted] b [redacted] c");
    }
    // Overlapping (neither contains the other): nothing of either is left.
    expect(mask(["abcdefgh12", "gh12345678"], "x abcdefgh12345678 y")).toBe("x [redacted] y");
  });

  it("masks a secret holding / + = in its percent-encoded form, in either case of hex", () => {
    const secret = "tok/with+plus=eq";
    const encoded = encodeURIComponent(secret);
    expect(encoded).toBe("tok%2Fwith%2Bplus%3Deq");
    expect(mask([secret], `?token=${encoded}&a=1`)).toBe("?token=[redacted]&a=1");
    expect(mask([secret], `?token=${encoded.toLowerCase()}`)).toBe("?token=[redacted]");
    expect(mask([secret], `token=${secret.replaceAll("/", "\\/")}`)).toBe("token=[redacted]");
  });

  it("masks base64 at every offset (an Authorization: Basic value, a token inside a blob), and any case", () => {
    const secret = "p4ss/word+42=x";
    for (const user of ["", "u", "us", "user", "bot:"]) {
      const basic = Buffer.from(`${user}:${secret}`).toString("base64");
      const out = mask([secret], `Basic ${basic}`);
      // What is left is at most the characters that also hold bits of the user name.
      expect(out).toContain("[redacted]");
      expect(
        Buffer.from(out.replace(/^Basic /, "").replace("[redacted]", ""), "base64").toString(),
      ).not.toContain(secret.slice(1, -1));
    }
    expect(mask([secret], `B64 ${Buffer.from(secret).toString("base64url")}`)).toBe("B64 [redacted]");
    expect(mask([secret], `loud ${secret.toUpperCase()}`)).toBe("loud [redacted]");
  });

  it("masks a secret that is a JSON object's key, in a parsed value and in its text", () => {
    const secret = "key-as-a-secret-99";
    const masker = secretMasker([{ value: secret, name: "K" }]);
    const value = { [secret]: { nested: [`has ${secret}`] }, other: 1 };
    expect(masker.value(value)).toEqual({ "[redacted K]": { nested: ["has [redacted K]"] }, other: 1 });
    expect(masker.text(JSON.stringify(value))).toBe(
      '{"[redacted K]":{"nested":["has [redacted K]"]},"other":1}',
    );
    // Unchanged parts are the same objects; nothing masked: the value itself.
    const clean = { a: [1, "x"] };
    expect(masker.value(clean)).toBe(clean);
  });

  it("masks a JSON-escaped secret and one escaped twice (a JSON text inside a JSON string)", () => {
    const secret = 'q"uote\\back';
    const once = JSON.stringify(secret).slice(1, -1);
    const twice = JSON.stringify(once).slice(1, -1);
    expect(mask([secret], `a ${once} b ${twice}`)).toBe("a [redacted] b [redacted]");
  });

  it("masks an error in place: message, stack, fields and cause", () => {
    const secret = "err-secret-123456";
    const cause = new Error(`inner ${secret}`);
    const error = Object.assign(new Error(`outer ${secret}`, { cause }), { body: { echo: secret } });
    const masked = secretMasker([{ value: secret }]).value(error);
    expect(masked).toBe(error);
    expect(`${error.message} ${error.stack} ${JSON.stringify(error.body)} ${cause.message}`).not.toContain(
      secret,
    );
  });

  it("lists each spelling once, longest first", () => {
    const forms = secretForms("abc/def+ghi");
    expect(new Set(forms).size).toBe(forms.length);
    expect([...forms].sort((a, b) => b.length - a.length)).toEqual(forms);
  });
});
