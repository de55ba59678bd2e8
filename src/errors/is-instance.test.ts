/**
 * Every error class the package entries export answers `isInstance` for its own kind only:
 * an inherited `HookwiseError.isInstance` would say yes to every hookwise error. A copy's error
 * (another bundle of hookwise) is recognised by its marker and its name.
 */
import { describe, expect, test } from "vitest";
import * as aiSdk from "../ai-sdk/index.js";
import * as hookwise from "../index.js";
import { HookwiseError } from "./hookwise-error.js";

const errorClasses = Object.entries({ ...hookwise, ...aiSdk }).filter(
  (entry): entry is [string, typeof HookwiseError] =>
    typeof entry[1] === "function" && entry[1].prototype instanceof HookwiseError,
);

/** An error of `name` from another copy of hookwise: the shared marker, not this copy's class. */
function fromAnotherCopy(name: string): Error {
  const error = Object.assign(new Error("from another copy"), { name });
  (error as unknown as Record<symbol, unknown>)[Symbol.for("hookwise.error")] = true;
  return error;
}

describe("the exported error classes' isInstance", () => {
  test("there are error classes to check", () => {
    expect(errorClasses.length).toBeGreaterThan(10);
  });

  test.each(errorClasses)("%s recognises its own kind only", (name, ErrorClass) => {
    expect(ErrorClass.isInstance(new HookwiseError("another kind"))).toBe(false);
    expect(ErrorClass.isInstance(fromAnotherCopy("SomeOtherError"))).toBe(false);
    expect(ErrorClass.isInstance(fromAnotherCopy(name))).toBe(true);
  });
});
