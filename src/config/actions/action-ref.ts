/**
 * A nested action inside `chain`: only its `type` is checked here; the loader and
 * `compileAction` validate the rest against that type's own module.
 */
import { lazy } from "../../deps/load-package.js";
import { z } from "../../deps/zod.js";

export const actionRef = lazy(() =>
  z.looseObject({ type: z.string().describe("An action type") }).describe("A nested action"),
);
