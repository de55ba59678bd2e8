import { describe, expect, it } from "vitest";
import { compileExpression } from "../expression.js";
import { toCelValue } from "./to-cel-value.js";

/** A charge that counts the items it is told of. */
function counter() {
  const seen = { items: 0, calls: 0 };
  return {
    seen,
    charge: (items: number) => {
      seen.items += items;
      seen.calls++;
    },
  };
}

describe("toCelValue", () => {
  it("gives arguments that need nothing converted as they are, charged their items all the same", () => {
    const args = { command: "ls -la", flags: ["-a", true, null], nested: { ratio: 0.5 } };
    const { seen, charge } = counter();
    expect(toCelValue(args, charge)).toBe(args);
    // command, flags, its 3 items, nested, ratio.
    expect(seen.items).toBe(7);
  });

  it("converts into a copy what CEL reads otherwise, charging the same items", () => {
    const args = { count: 3, skip: undefined, list: [1, "a"], when: new Date(0) };
    const { seen, charge } = counter();
    const converted = toCelValue(args, charge) as Record<string, unknown>;
    expect(converted).not.toBe(args);
    expect(converted).toEqual({ count: 3n, list: [1n, "a"], when: "1970-01-01T00:00:00.000Z" });
    expect("skip" in converted).toBe(false);
    // count, list, its 2 items, when (skip is dropped, uncharged).
    expect(seen.items).toBe(5);
    // The caller's value is left as it was.
    expect(args.count).toBe(3);
  });

  it("copies a value with a `__proto__` key of its own, a hole, or another prototype, as before", () => {
    const hostile = JSON.parse('{"__proto__": {"x": "y"}, "a": "b"}') as object;
    expect(toCelValue(hostile)).not.toBe(hostile);
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case
    const holey = ["a", , "b"];
    expect(toCelValue(holey)).not.toBe(holey);
    const made = new (class Made {
      name = "x";
    })();
    expect(toCelValue(made)).not.toBe(made);
    expect(toCelValue(made)).toEqual({ name: "x" });
  });

  it("cuts a cycle (null where it closes), ready or not", () => {
    const looped: Record<string, unknown> = { name: "x" };
    looped.self = looped;
    expect(toCelValue(looped)).toEqual({ name: "x", self: null });
  });

  it("converts a large value item by item, each charged as it goes (the budget can stop it midway)", () => {
    const many = Array.from({ length: 5000 }, (_, index) => `item ${index}`);
    const { seen, charge } = counter();
    expect(toCelValue(many, charge)).toEqual(many);
    expect(seen.items).toBe(5000);
    expect(seen.calls).toBe(5000);
  });

  it("evaluates the same in expressions, whichever way a value went", () => {
    const size = compileExpression('args.command.startsWith("rm") && size(args.flags) == 2');
    expect(size({ args: { command: "rm -rf", flags: ["-r", "-f"] } })).toBe(true);
    const sum = compileExpression("args.count + 1 == 4 && !has(args.skip)");
    expect(sum({ args: { count: 3, skip: undefined } })).toBe(true);
  });
});
