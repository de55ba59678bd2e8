import { afterEach, describe, expect, it, vi } from "vitest";
import { manySmallObjects, promotedAfter } from "../../test/support/young-gc.js";
import { decodeJson, encodeJson, encodeOnce } from "./json-codec.js";
import { MemoryStore } from "./memory-store.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the store's JSON codec", () => {
  it("revives bytes and URLs wherever they sit, and follows JSON for everything else", () => {
    const value = {
      parts: [
        { type: "image", image: new Uint8Array([1, 2, 255]) },
        { type: "file", data: Buffer.from("hi"), url: new URL("https://example.com/a?b=1") },
        { raw: new Uint8Array([9]).buffer },
      ],
      when: new Date(0),
      gone: undefined,
      text: "plain",
    };
    const back = decodeJson(encodeJson(value)!) as typeof value & { parts: Record<string, unknown>[] };
    expect(back.parts[0]!.image).toEqual(new Uint8Array([1, 2, 255]));
    expect(back.parts[1]!.data).toEqual(new Uint8Array(Buffer.from("hi")));
    expect(back.parts[1]!.url).toBeInstanceOf(URL);
    expect(String(back.parts[1]!.url)).toBe("https://example.com/a?b=1");
    expect(back.parts[2]!.raw).toEqual(new Uint8Array([9]));
    expect(back.when).toBe("1970-01-01T00:00:00.000Z");
    expect("gone" in back).toBe(false);
    expect(encodeJson(undefined)).toBeUndefined();
  });

  it("finds bytes behind a toJSON it cannot foresee, and reports a cycle as JSON does", () => {
    const custom = { toJSON: () => ({ bytes: new Uint8Array([7]) }) };
    expect(decodeJson(encodeJson({ custom })!)).toEqual({ custom: { bytes: new Uint8Array([7]) } });
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(() => encodeJson(cyclic)).toThrow(TypeError);
  });

  it("revives a tag written with a \\u escape (a hand-edited value)", () => {
    expect(decodeJson('{"a":{"\\u0024hookwise":"url","href":"https://example.com/"}}')).toEqual({
      a: new URL("https://example.com/"),
    });
  });

  it("costs a value without bytes or URLs no replacer and no reviver", () => {
    const stringify = vi.spyOn(JSON, "stringify");
    const parse = vi.spyOn(JSON, "parse");
    const plain = { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }], at: new Date(0) };
    const text = encodeJson(plain)!;
    decodeJson(text);
    expect(stringify.mock.calls.at(-1)![1]).toBeUndefined();
    expect(parse.mock.calls.at(-1)![1]).toBeUndefined();

    decodeJson(encodeJson({ image: new Uint8Array([1]) })!);
    expect(stringify.mock.calls.at(-1)![1]).toBeTypeOf("function");
    expect(parse.mock.calls.at(-1)![1]).toBeTypeOf("function");
  });

  it("a value encoded once by its maker is not walked or encoded again when a store writes it", async () => {
    // Every read of `a` is counted: the walk for bytes reads it, and so does JSON.stringify.
    let reads = 0;
    const value = {
      nested: {
        get a() {
          reads++;
          return 1;
        },
      },
    };
    const text = encodeOnce(value, false);
    expect(reads).toBe(1);
    expect(encodeJson(value)).toBe(text);
    const store = new MemoryStore();
    await store.set("k", value);
    expect(reads).toBe(1);
    expect(await store.get("k")).toEqual({ nested: { a: 1 } });
    // Any other value is still walked and encoded as it is.
    const other = { ...value, nested: { ...value.nested } };
    expect(encodeJson(other)).toBe('{"nested":{"a":1}}');
  });

  it("a value encoded once with bytes in it is tagged, so they read back as bytes", () => {
    const value = { result: { image: new Uint8Array([7, 8]) } };
    const back = decodeJson(encodeOnce(value, true)) as typeof value;
    expect(back.result.image).toEqual(new Uint8Array([7, 8]));
    expect(encodeJson(value)).toBe(encodeOnce(value, true));
  });
});

describe("a value encoded once", () => {
  it("keeps its text on itself, hidden from JSON, spreads, keys and clones", () => {
    const value = { a: 1 };
    const text = encodeOnce(value, false);
    expect(JSON.stringify(value)).toBe(text);
    expect(Object.keys(value)).toEqual(["a"]);
    expect({ ...value }).toEqual({ a: 1 });
    expect(structuredClone(value)).toEqual({ a: 1 });
    // An object made from it is not it: encoded as it is.
    expect(encodeJson(Object.create(value))).toBe("{}");
  });

  it("lives no longer than the value: once it is dropped, a young-generation collection frees both", () => {
    const promoted = promotedAfter(() => {
      const value = { items: manySmallObjects() };
      encodeOnce(value, false);
      return value;
    });
    // The text is about 20 KB: kept elsewhere (a weak map's value), it would be promoted.
    expect(promoted).toBeLessThan(4_000);
  });
});
