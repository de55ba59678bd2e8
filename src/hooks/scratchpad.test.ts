/** Scoped scratchpads: reads fall through to broader scopes, writes stay put. */
import { describe, expect, test } from "vitest";
import { Scratchpad } from "../index.js";

describe("Scratchpad", () => {
  test("a value set in a broader scope is visible in narrower ones, never the other way", () => {
    const session = new Scratchpad();
    const run = new Scratchpad(session);
    const step = new Scratchpad(run);
    const operation = new Scratchpad(step);
    session.set("s", 1);
    step.set("st", 2);
    operation.set("op", 3);
    expect([operation.get("s"), operation.get("st"), operation.get("op")]).toEqual([1, 2, 3]);
    expect([run.get("st"), run.get("op"), session.get("st")]).toEqual([undefined, undefined, undefined]);
    expect([run.has("s"), run.has("st")]).toEqual([true, false]);
  });

  test("a narrower write shadows without changing the broader scope; delete unshadows", () => {
    const run = new Scratchpad();
    const step = new Scratchpad(run);
    run.set("k", "run");
    step.set("k", "step");
    expect([run.get("k"), step.get("k")]).toEqual(["run", "step"]);
    expect(step.delete("k")).toBe(true);
    expect(step.get("k")).toBe("run");
    expect(step.delete("k")).toBe(false); // never deletes a broader scope's value
    expect(run.get("k")).toBe("run");
  });

  test("update reads through, writes in its own scope, and returns the new value", () => {
    const run = new Scratchpad();
    const step = new Scratchpad(run);
    run.set("n", 10);
    expect(step.update<number>("n", (value) => (value ?? 0) + 1)).toBe(11);
    expect([run.get("n"), step.get("n")]).toEqual([10, 11]);
    expect([...step.entries()]).toEqual([["n", 11]]);
  });

  test("update is atomic per key under concurrent async callers", async () => {
    const pad = new Scratchpad();
    await Promise.all(
      Array.from({ length: 50 }, async (_, index) => {
        await new Promise((resolve) => setImmediate(resolve));
        pad.update<number[]>("seen", (list) => [...(list ?? []), index]);
      }),
    );
    expect(pad.get<number[]>("seen")).toHaveLength(50);
  });
});

describe("a scope that registers itself on its first write", () => {
  test("calls back once, on the first write, not on reads", () => {
    let registered = 0;
    const scope = new Scratchpad(undefined, () => registered++);
    scope.get("a");
    scope.has("a");
    [...scope.entries()];
    expect(registered).toBe(0);
    scope.set("a", 1);
    scope.update<number>("a", (value) => (value ?? 0) + 1);
    expect(registered).toBe(1);
    expect(scope.get("a")).toBe(2);
  });
});
