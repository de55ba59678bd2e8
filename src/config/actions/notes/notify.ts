/**
 * `notify`: publishes a notification on the in-process bus, which the CLI
 * prints and a server can stream. Inspect, any event; title and message are templated,
 * with control characters in filled values escaped (printable.ts).
 */
import { z } from "../../../deps/zod.js";
import { renderTemplate } from "../../build/templates.js";
import { defineAction } from "../action-module.js";

const description = "Publishes a notification (title, message, level, tag) to the notification bus.";

export const notify = defineAction({
  type: "notify",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("notify"),
        title: z.string().describe("Templated like the message"),
        message: z.string().describe('E.g. "Token usage at {tokens}"'),
        level: z.enum(["info", "warning", "error"]).default("info"),
        tag: z.string().optional().describe("A grouping tag"),
      })
      .describe(description),
  events: "any",
  kind: () => "inspect",
  compile: (config, services) => (evaluation) => {
    const render = (text: string) =>
      renderTemplate(text, evaluation, services.workspace, { stats: true, printable: true });
    services.notifications.publish({
      title: render(config.title),
      message: render(config.message),
      level: config.level,
      ...(config.tag !== undefined ? { tag: config.tag } : {}),
      hook: evaluation.hookId,
      sessionId: evaluation.context.sessionId,
      runId: evaluation.context.runId,
      at: Date.now(),
    });
    return undefined;
  },
  example: {
    type: "notify",
    title: "Context pressure high",
    message: "Token usage at {tokens} - compaction may be needed.",
    level: "warning",
    tag: "pressure_alert",
  },
});
