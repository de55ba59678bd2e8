/**
 * A nested condition inside a composite: only its `type` is checked here; the loader and
 * `compileCondition` validate the rest against that type's own module.
 */
import { lazy } from "../../deps/load-package.js";
import { z } from "../../deps/zod.js";

export const conditionRef = lazy(() =>
  z.looseObject({ type: z.string().describe("A condition type") }).describe("A nested condition"),
);
