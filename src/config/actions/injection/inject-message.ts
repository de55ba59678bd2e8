/**
 * `inject_message`: content the model is guaranteed to see. Transform.
 *
 * On `model_request` it patches this attempt's outbound copy only, never the
 * transcript: `auto` / `user` add the text after the last message (`placement: end`, the
 * default: everything before it stays cached by the provider) or to the run's user message
 * (`placement: user_message`); `system` appends to the system prompt after a blank line
 * (or becomes it when there is none); `new_message`
 * inserts a message with `role` at `position` (`end`, or `before_last`) into the history.
 *
 * On `session_start`, `run_start`, `step_start`, `step_end`, `run_end` the message is
 * persisted in the transcript (flow.inject; on `run_end`, seen on the session's next run): `auto` / `user` as a user message, `system` as a system
 * message, `new_message` with its `role` (`position` applies to model_request only).
 */
import { z } from "../../../deps/zod.js";
import type { ModelMessage } from "../../../events/payloads.js";
import { flow } from "../../../hooks/flow.js";
import { renderTemplate } from "../../build/templates.js";
import { defineAction } from "../action-module.js";

const description = "Injects content the model sees: auto/user (user message), system, or new_message.";

export const injectMessage = defineAction({
  type: "inject_message",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("inject_message"),
        content: z.string().min(1).describe("The text injected ({{…}} templates filled)"),
        strategy: z.enum(["auto", "user", "system", "new_message"]).default("auto"),
        role: z.enum(["user", "system", "assistant"]).default("user").describe("new_message only"),
        position: z.enum(["end", "before_last"]).default("end").describe("new_message on model_request only"),
        placement: z
          .enum(["end", "user_message"])
          .optional()
          .describe(
            "auto/user on model_request only: end (default: after the last message, cache-friendly) or user_message (the run's user message)",
          ),
      })
      .describe(description),
  events: ["session_start", "run_start", "step_start", "step_end", "run_end", "model_request"],
  kind: () => "transform",
  compile: (config, services) => (evaluation) => {
    const content = renderTemplate(config.content, evaluation, services.workspace);
    const role =
      config.strategy === "new_message" ? config.role : config.strategy === "system" ? "system" : "user";
    const message = { role, content } as ModelMessage;
    const event = evaluation.event;
    if (event.type !== "model_request") return flow.inject([message]);
    const { request } = event;
    if (config.strategy === "auto" || config.strategy === "user")
      return flow.patch({ appendToUserMessage: content, placement: config.placement ?? "end" });
    if (config.strategy === "system")
      return flow.patch({ system: request.system ? `${request.system}\n\n${content}` : content });
    const messages = [...request.messages];
    const at = config.position === "before_last" ? Math.max(messages.length - 1, 0) : messages.length;
    messages.splice(at, 0, message);
    return flow.patch({ messages });
  },
  example: {
    type: "inject_message",
    strategy: "auto",
    content: "Remember to follow the coding standards.",
    role: "user",
    position: "end",
  },
});
