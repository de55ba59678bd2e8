/**
 * `toUIMessageStream(agent.stream(…))`: a hookwise run as an AI SDK UI message stream, so an
 * unmodified `useChat` front end renders its text, tool calls and results — and every hook
 * decision, as `data-hook` parts. One run is one assistant message (its id: the run id).
 *
 * Text and reasoning of a step are parts that open at their first delta and close at the
 * step's end (or before its tool calls). A tool result that is an error — a denied, failed
 * or invalid call — is a `tool-output-error` whose text is the message the model received.
 * Every step ends (`finish-step`), a suspended one too: its calls that ran have their
 * output, its denied ones their error, and each call awaiting a human gets the AI SDK's
 * own `tool-approval-request` (answered with `addToolApprovalResponse` and the next
 * message), plus a `data-approval` part; a run that ended in error sends an `error` chunk.
 * A resumed run continues the message its suspension ended: it never announces again a
 * call of that message (which would reset the call's input). Cancelling the stream stops reading the run; to
 * also stop the run, pass the same signal to `agent.stream(input, { signal })`.
 */
import type { AgentEvent, RunResult } from "../loop/run-result.js";
import type { HookwiseUIMessageChunk } from "./ui-message-chunk.js";

export interface ToUIMessageStreamOptions {
  /** The assistant message's id; default: the run id. */
  messageId?: string;
  /** Send each hook firing as a `data-hook` part (default true). */
  hooks?: boolean;
  /** Called with the run's result once the stream ended (not when it was cancelled). */
  onFinish?: (result: RunResult) => void | Promise<void>;
}

function errorText(result: unknown): string {
  if (typeof result === "string") return result;
  if (result instanceof Error) return result.message;
  return JSON.stringify(result) ?? String(result);
}

/** Turns hookwise stream events into UI message chunks; stateful (open parts, known calls). */
export function uiMessageChunker(options: Omit<ToUIMessageStreamOptions, "onFinish"> = {}) {
  const withHooks = options.hooks ?? true;
  let text: string | undefined;
  let reasoning: string | undefined;
  let parts = 0;
  let stepOpen = false;
  let resumed = false;
  const calls = new Set<string>();
  /** Calls whose result was sent. */
  const settled = new Set<string>();
  /** The arguments each call ran with, for announcing a call only its result showed. */
  const ranWith = new Map<string, unknown>();
  const closeOpen = (out: HookwiseUIMessageChunk[]) => {
    if (text !== undefined) out.push({ type: "text-end", id: text });
    if (reasoning !== undefined) out.push({ type: "reasoning-end", id: reasoning });
    text = undefined;
    reasoning = undefined;
  };
  return (event: AgentEvent): HookwiseUIMessageChunk[] => {
    const out: HookwiseUIMessageChunk[] = [];
    switch (event.type) {
      case "run-start":
        resumed = event.resumed === true;
        out.push({ type: "start", messageId: options.messageId ?? event.runId });
        out.push({
          type: "data-run",
          data: {
            runId: event.runId,
            sessionId: event.sessionId,
            agentPath: event.agentPath,
            ...(event.resumed ? { resumed: true } : {}),
          },
        });
        break;
      case "step-start":
        stepOpen = true;
        out.push({ type: "start-step" });
        break;
      case "text-delta":
        if (text === undefined) {
          text = `text-${event.step}-${parts++}`;
          out.push({ type: "text-start", id: text });
        }
        out.push({ type: "text-delta", id: text, delta: event.delta });
        break;
      case "reasoning-delta":
        if (reasoning === undefined) {
          reasoning = `reasoning-${event.step}-${parts++}`;
          out.push({ type: "reasoning-start", id: reasoning });
        }
        out.push({ type: "reasoning-delta", id: reasoning, delta: event.delta });
        break;
      case "tool-call":
        closeOpen(out);
        calls.add(event.toolCallId);
        out.push({
          type: "tool-input-available",
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.args,
        });
        break;
      case "tool-execution-start":
        ranWith.set(event.toolCallId, event.args);
        break;
      case "tool-result":
        closeOpen(out);
        settled.add(event.toolCallId);
        // A reader drops a result of a call it never saw: announce it first — unless the
        // run is resumed, whose calls the message it continues announced already.
        if (!calls.has(event.toolCallId) && !resumed) {
          calls.add(event.toolCallId);
          out.push({
            type: "tool-input-available",
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            input: ranWith.get(event.toolCallId) ?? {},
          });
        }
        out.push(
          event.isError
            ? { type: "tool-output-error", toolCallId: event.toolCallId, errorText: errorText(event.result) }
            : { type: "tool-output-available", toolCallId: event.toolCallId, output: event.result },
        );
        break;
      case "hook":
        if (!withHooks) break;
        // One part per firing (a `hook` event carries its dispatch's firings).
        for (const entry of event.firings) out.push({ type: "data-hook", data: entry });
        break;
      case "step-finish":
        closeOpen(out);
        stepOpen = false;
        out.push({ type: "finish-step" });
        break;
      case "run-finish": {
        closeOpen(out);
        const { result } = event;
        const approvals = result.approvals ?? [];
        for (const approval of approvals) {
          if (!calls.has(approval.toolCallId) && !resumed) {
            calls.add(approval.toolCallId);
            out.push({
              type: "tool-input-available",
              toolCallId: approval.toolCallId,
              toolName: approval.toolName,
              input: approval.args,
            });
          }
          out.push({
            type: "tool-approval-request",
            approvalId: approval.id,
            toolCallId: approval.toolCallId,
          });
        }
        // A call deferred behind one awaiting approval (a sequential batch) ends in a state
        // too: not run yet, said as an error the resumed run's output replaces.
        if (result.outcome === "suspended") {
          const waiting = new Set(approvals.map((approval) => approval.toolCallId));
          const names = [...new Set(approvals.map((approval) => approval.qualifiedName))].join(", ");
          for (const id of calls) {
            if (settled.has(id) || waiting.has(id)) continue;
            out.push({
              type: "tool-output-error",
              toolCallId: id,
              errorText: `not run yet: it runs once the approval of ${names || "an earlier call"} is decided`,
            });
          }
        }
        // A suspended (or failed) run ends its step here: it never got a step-finish.
        if (stepOpen) out.push({ type: "finish-step" });
        stepOpen = false;
        for (const approval of approvals) {
          out.push({ type: "data-approval", id: approval.id, data: approval });
        }
        out.push({
          type: "data-outcome",
          data: {
            runId: result.runId,
            sessionId: result.sessionId,
            outcome: result.outcome,
            ...(result.reason !== undefined ? { reason: result.reason } : {}),
            ...(result.hook !== undefined ? { hook: result.hook } : {}),
            usage: result.usage,
          },
        });
        if (result.outcome === "error")
          out.push({ type: "error", errorText: result.reason ?? "the run failed" });
        out.push({ type: "finish" });
        break;
      }
      default:
        break;
    }
    return out;
  };
}

/**
 * A hookwise event stream (`agent.stream()`, `agent.resumeStream()`, or any iterable of its
 * events) as a ReadableStream of UI message chunks.
 */
export function toUIMessageStream(
  events: AsyncIterable<AgentEvent>,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<HookwiseUIMessageChunk> {
  const chunker = uiMessageChunker(options);
  let iterator: AsyncIterator<AgentEvent> | undefined;
  let result: RunResult | undefined;
  return new ReadableStream<HookwiseUIMessageChunk>({
    async pull(controller) {
      iterator ??= events[Symbol.asyncIterator]();
      try {
        // One event may give no chunk (a hook when hooks are off): read until one does.
        for (;;) {
          const next = await iterator.next();
          if (next.done) {
            controller.close();
            if (result && options.onFinish) await options.onFinish(result);
            return;
          }
          if (next.value.type === "run-finish") result = next.value.result;
          const chunks = chunker(next.value);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (chunks.length > 0) return;
        }
      } catch (error) {
        controller.enqueue({ type: "error", errorText: errorText(error) });
        controller.close();
      }
    },
    async cancel() {
      await iterator?.return?.();
    },
  });
}
