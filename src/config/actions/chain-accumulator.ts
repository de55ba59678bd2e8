/**
 * What a `chain` carries from one child to the next. A child's rewrite is applied to a
 * local view of the evaluation, so later children see it (transform_params then a `log`
 * of `{{tool.params.x}}` logs the new value), and the accumulated rewrite is the chain's
 * answer:
 *
 * - `rewriteArgs` / `rewriteResult` / `rewriteInput` / `rewriteOutput`: the latest value;
 * - `patch` (model_request): patches merge by the engine's rules, and the local request
 *   gets the patched `system` / `messages`, so two `system` injections both land;
 * - `inject`: messages concatenate;
 * - `editMessages` (replaceMessages, compact): edits concatenate in order; with injected
 *   messages too, the answer is one `editMessages` flow carrying both (`append`);
 * - `allow` carries nothing (a chain that does not deny allows).
 *
 * Terminal flows (deny, ask, skip, terminate, retry, repair, fallback) are not
 * accumulated: the chain stops and returns them.
 */
import type { AnyEventPayload, ModelMessage } from "../../events/payloads.js";
import { type Flow, flow, type MessageEdit } from "../../hooks/flow.js";
import { mergeRequestPatches } from "../../hooks/merge-request-patch.js";
import type { RequestPatch } from "../../hooks/request-patch.js";
import type { Evaluation, ToolView } from "../build/evaluation.js";

const TERMINAL: ReadonlySet<Flow["type"]> = new Set([
  "deny",
  "ask",
  "skip",
  "terminate",
  "retry",
  "repair",
  "fallback",
]);

export function isTerminal(result: Flow): boolean {
  return TERMINAL.has(result.type);
}

const EVALUATION_KEYS = ["event", "context", "stats", "tool", "error", "messages", "hookId"];

/**
 * A view of `evaluation` with some fields replaced. Every other field is a getter that
 * reads through, so lazy statistics are neither computed early nor detached from their
 * object (a spread would do both).
 */
function withFields(evaluation: Evaluation, fields: { event: AnyEventPayload; tool?: ToolView }): Evaluation {
  const view = {};
  for (const key of new Set([...EVALUATION_KEYS, ...Object.keys(evaluation)])) {
    Object.defineProperty(view, key, {
      enumerable: true,
      get: () =>
        Object.hasOwn(fields, key) ? fields[key as keyof typeof fields] : evaluation[key as keyof Evaluation],
    });
  }
  return view as Evaluation;
}

export class ChainAccumulator {
  #evaluation: Evaluation;
  #result: Flow | undefined;
  readonly #patches: RequestPatch[] = [];
  readonly #injected: ModelMessage[] = [];
  readonly #edits: MessageEdit[] = [];

  constructor(evaluation: Evaluation) {
    this.#evaluation = evaluation;
  }

  /** What the next child sees. */
  get evaluation(): Evaluation {
    return this.#evaluation;
  }

  /** The chain's answer once every child ran. */
  get result(): Flow | undefined {
    return this.#result;
  }

  apply(result: Flow): void {
    const current = this.#evaluation;
    const event = current.event;
    const tool = current.tool;
    const patched = (fields: Record<string, unknown>) => ({ ...event, ...fields }) as AnyEventPayload;
    switch (result.type) {
      case "rewriteArgs":
        this.#view(patched({ args: result.args }), tool && { ...tool, params: result.args });
        break;
      case "rewriteResult":
        this.#view(patched({ result: result.result }), tool && { ...tool, result: result.result });
        break;
      case "rewriteInput":
        this.#view(patched({ input: result.input }), tool);
        break;
      case "rewriteOutput":
        this.#view(patched({ output: result.output }), tool);
        break;
      case "patch": {
        this.#patches.push(result.patch);
        if (event.type === "model_request") {
          const request = { ...event.request };
          if (result.patch.system !== undefined) request.system = result.patch.system;
          if (result.patch.messages !== undefined) request.messages = result.patch.messages;
          this.#view({ ...event, request }, tool);
        }
        const merged = mergeRequestPatches(
          this.#patches.map((patch, index) => ({ hook: String(index), patch })),
        );
        this.#result = flow.patch(merged.patch);
        return;
      }
      case "inject":
        this.#injected.push(...result.messages);
        this.#result = this.#messagesResult();
        return;
      case "editMessages":
        this.#edits.push(...result.edits);
        if (result.append) this.#injected.push(...result.append);
        this.#result = this.#messagesResult();
        return;
      default:
        return;
    }
    this.#result = result;
  }

  #messagesResult(): Flow {
    if (this.#edits.length === 0) return flow.inject([...this.#injected]);
    return {
      type: "editMessages",
      edits: [...this.#edits],
      ...(this.#injected.length ? { append: [...this.#injected] } : {}),
    };
  }

  #view(event: AnyEventPayload, tool: ToolView | undefined): void {
    this.#evaluation = withFields(this.#evaluation, tool === undefined ? { event } : { event, tool });
  }
}
