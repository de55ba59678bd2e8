/**
 * `tool` (the default strategy): runs the real tool with the entry's arguments. A tool
 * that answers with fallback or error content (rather than throwing) is injected as-is.
 */
import { lazy } from "../../../deps/load-package.js";
import { z } from "../../../deps/zod.js";
import { defineContentStrategy } from "./content-strategy.js";

const description = "Calls the real tool (any toolset of the config) and injects its result.";

export const toolContent = lazy(() =>
  defineContentStrategy({
    strategy: "tool",
    description,
    schema: z.strictObject({ strategy: z.literal("tool") }).describe(description),
    produce: (_config, request) =>
      request.services.callTool(request.toolName, request.arguments, request.evaluation),
  }),
);
