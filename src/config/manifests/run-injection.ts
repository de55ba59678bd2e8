/**
 * Runs one synthetic tool-call injection when its hook fires:
 *
 * 1. `once`: an earlier pair of this injection in the history → nothing to do.
 * 2. TTL: the latest pair's expiry (read from its call id) is still ahead → the fresh
 *    result is reused, the tool is not called.
 * 3. The content strategy produces the result (the real tool by default). A throw is
 *    logged and the injection skipped; the run goes on.
 * 4. `append_if_changed` with the same result as the latest pair → that pair is updated in
 *    place (`flow.replaceMessages`: new id, new expiry; nothing if even the id is the same);
 *    otherwise (`always`, a changed result, no earlier pair) → a new pair is appended
 *    (`flow.inject`). Call ids are unique in the history (`always` repeats equal pairs).
 *
 * Everything it needs is in the history, so a stateless server that receives the history
 * from its client behaves like one that stores it.
 */

import { toolCallIdsOf } from "../../context/tool-pairing.js";
import type { ModelMessage } from "../../events/payloads.js";
import { type Flow, flow } from "../../hooks/flow.js";
import { toToolOutput } from "../../tools/tool-output.js";
import type { ActionServices, Evaluation } from "../build/evaluation.js";
import { CONTENT_STRATEGIES } from "./content/index.js";
import { injectedToolName } from "./injected-tool-name.js";
import type { InjectionSpec } from "./injection-spec.js";
import { injectionKey, makeSyntheticCallId, stableJson } from "./synthetic-call-id.js";
import { findInjectedPair, syntheticPair } from "./synthetic-pair.js";

export async function runInjection(
  spec: InjectionSpec,
  evaluation: Evaluation,
  services: ActionServices,
): Promise<Flow | undefined> {
  const toolName = injectedToolName(spec.toolsetName, spec.toolName);
  const args = spec.arguments;
  const key = injectionKey(toolName, args);
  const existing = findInjectedPair(evaluation.context.messages, key);
  const now = services.now?.() ?? Date.now();
  if (spec.frequency === "once" && existing) return undefined;
  if (spec.refresh && existing?.expiresAt !== undefined && now < existing.expiresAt * 1000) return undefined;

  const strategy = CONTENT_STRATEGIES().get(spec.content.strategy);
  if (!strategy) throw new Error(`unknown content strategy "${spec.content.strategy}"`);
  let content: unknown;
  try {
    content = await strategy.produce(spec.content, { toolName, arguments: args, evaluation, services });
  } catch (error) {
    services.log.warn(
      `injection ${spec.label}: ${toolName} failed, nothing injected: ${error instanceof Error ? error.message : String(error)}`,
      { hook: spec.label, tool: toolName },
    );
    return undefined;
  }
  if (content === undefined) return undefined;

  const output = toToolOutput(content, false);
  const expiresAt = spec.refresh ? Math.floor(now / 1000) + spec.refresh.ttlMinutes * 60 : undefined;
  const messages = evaluation.context.messages;
  const pairOf = (callId: string) => syntheticPair({ toolName, args, callId, output });
  if (
    spec.frequency === "append_if_changed" &&
    existing &&
    stableJson(existing.output) === stableJson(output)
  ) {
    if (existing.callId === makeSyntheticCallId(key, output, expiresAt)) return undefined;
    const callId = uniqueCallId(messages, key, output, expiresAt, existing.callId);
    return flow.replaceMessages([existing.call, existing.result], pairOf(callId));
  }
  return flow.inject(pairOf(uniqueCallId(messages, key, output, expiresAt)));
}

/** A call id no other tool call of the history has (`reusable`: the one being replaced). */
function uniqueCallId(
  messages: readonly ModelMessage[],
  key: string,
  output: unknown,
  expiresAt: number | undefined,
  reusable?: string,
): string {
  const taken = new Set(messages.flatMap(toolCallIdsOf));
  if (reusable) taken.delete(reusable);
  for (let salt = 0; ; salt++) {
    const id = makeSyntheticCallId(key, output, expiresAt, salt);
    if (!taken.has(id)) return id;
  }
}
