/**
 * Ending a session (`session_end`): an API call, an idle expiry or a process
 * shutdown. Inspect hooks see it; the session's in-process scratchpad is dropped; the
 * transcript stays in the store unless the caller asks for it to be deleted.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import { SessionNotKeptError } from "../errors/session-not-kept-error.js";
import type { EventPayload } from "../events/payloads.js";
import { HookRunner } from "../hooks/hook-runner.js";
import { type ContextSource, OperationContext } from "../hooks/operation-context.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import { sessionRunsKey } from "./run-index.js";
import type { SessionRuntime } from "./types.js";

export interface EndSessionOptions {
  /** Why it ended, as hooks see it (default "closed"). */
  reason?: string;
  /** Also delete the transcript from the store. */
  delete?: boolean;
}

export async function endSession(
  runtime: SessionRuntime,
  sessionId: string,
  options: EndSessionOptions = {},
): Promise<void> {
  const runner = new HookRunner({ registries: [{ registry: runtime.registry, depth: 0 }], log: runtime.log });
  if (runner.wants("session_end")) {
    // A one-shot session its store did not keep ends with no stored transcript.
    const record = await runtime.store.loadSession(sessionId).catch((error: unknown) => {
      if (SessionNotKeptError.isInstance(error)) return undefined;
      throw error;
    });
    const sessionScratch = runtime.sessionScratch.get(sessionId) ?? new Scratchpad();
    const runScratch = new Scratchpad(sessionScratch);
    // A context outside any run: identity, the transcript as stored, empty run scopes.
    const source: ContextSource = {
      runId: `session-end-${nodeCrypto().randomUUID()}`,
      sessionId,
      agentName: runtime.name,
      agentPath: [runtime.name],
      isStreaming: false,
      signal: new AbortController().signal,
      log: runtime.log,
      sessionScratch,
      runScratch,
      stepScratch: new Scratchpad(runScratch),
      step: -1,
      messages: record?.messages ?? [],
      input: "",
      turn: 0,
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
    const event: EventPayload<"session_end"> = {
      type: "session_end",
      agentPath: source.agentPath,
      sessionId,
      reason: options.reason ?? "closed",
    };
    runner.inspect(event, new OperationContext(source, 1));
    await runner.settle();
    runner.close();
  }
  runtime.sessionScratch.delete(sessionId);
  if (options.delete) {
    await runtime.store.deleteSession(sessionId);
    await runtime.store.delete(sessionRunsKey(sessionId));
  }
}
