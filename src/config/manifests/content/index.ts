/**
 * The content strategies of synthetic tool-call injection. Adding one = a new module plus
 * its import and its entry in STRATEGIES below; nothing else changes.
 */
import { lazy } from "../../../deps/load-package.js";
import { z } from "../../../deps/zod.js";
import type { ContentStrategy } from "./content-strategy.js";
import { staticContent } from "./static.js";
import { toolContent } from "./tool.js";

const STRATEGIES: () => readonly ContentStrategy[] = lazy(() => [toolContent(), staticContent()]);

export const CONTENT_STRATEGIES: () => ReadonlyMap<string, ContentStrategy> = lazy(
  () => new Map(STRATEGIES().map((strategy) => [strategy.strategy, strategy])),
);

/** `{ strategy: …, … }`, validated by the named strategy's own schema. */
export const contentSchema = lazy(() =>
  z
    .looseObject({ strategy: z.string() })
    .superRefine((value, context) => {
      const strategy = CONTENT_STRATEGIES().get(value.strategy);
      if (!strategy) {
        context.addIssue({
          code: "custom",
          path: ["strategy"],
          message: `unknown content strategy "${value.strategy}"; valid: ${[...CONTENT_STRATEGIES().keys()].join(", ")}`,
        });
        return;
      }
      const parsed = strategy.schema.safeParse(value);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          context.addIssue({ code: "custom", path: issue.path, message: issue.message });
      }
    })
    .describe(
      `Where the injected result comes from: ${STRATEGIES()
        .map((s) => s.strategy)
        .join(", ")}`,
    ),
);

export type ContentConfig = { strategy: string; [key: string]: unknown };

export type { ContentRequest, ContentStrategy } from "./content-strategy.js";
export { defineContentStrategy } from "./content-strategy.js";
