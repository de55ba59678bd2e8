/**
 * `transform_result`: appends text to the tool's result before the model sees
 * it. Transform, `tool_result` only.
 *
 * - `append_to_result` is appended verbatim (templated), so start it with "\n" to get a
 *   new line; `inject_note` is appended as "\n[note] <note>".
 * - A string result gets the text appended. Any other result (object, list, number) is
 *   JSON-stringified first, so the model receives text: the tool's structured output is
 *   replaced by its JSON plus the note (undefined / null become the empty string).
 */
import { z } from "../../../deps/zod.js";
import { flow } from "../../../hooks/flow.js";
import { renderTemplate } from "../../build/templates.js";
import { defineAction } from "../action-module.js";

const description =
  "Appends text (append_to_result) and/or a note (inject_note) to the tool result. tool_result only.";

function asText(result: unknown): string {
  if (result === undefined || result === null) return "";
  if (typeof result === "string") return result;
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}

export const transformResult = defineAction({
  type: "transform_result",
  description,
  schema: () =>
    z
      .strictObject({
        type: z.literal("transform_result"),
        transformation: z
          .strictObject({
            append_to_result: z.string().optional().describe("Text appended to the result as is"),
            inject_note: z.string().optional().describe('Appended as "\\n[note] …"'),
          })
          .refine((value) => value.append_to_result !== undefined || value.inject_note !== undefined, {
            message: "transformation needs append_to_result or inject_note",
          }),
      })
      .describe(description),
  events: ["tool_result"],
  kind: () => "transform",
  compile: (config, services) => (evaluation) => {
    const { append_to_result: append, inject_note: note } = config.transformation;
    const render = (text: string) => renderTemplate(text, evaluation, services.workspace);
    let text = asText(evaluation.tool?.result);
    if (append !== undefined) text += render(append);
    if (note !== undefined) text += `\n[note] ${render(note)}`;
    return flow.rewriteResult(text);
  },
  example: {
    type: "transform_result",
    transformation: {
      append_to_result: "\nRemember to run tests after editing.",
      inject_note: "File was modified - consider running the test suite.",
    },
  },
});
