/**
 * A nested action inside `chain`: only its `type` is checked here; the loader and
 * `compileAction` validate the rest against that type's own module.
 */
import { z } from "zod";

export const actionRef = z
  .looseObject({ type: z.string().describe("An action type") })
  .describe("A nested action");
