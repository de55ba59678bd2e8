/**
 * A tool-call session's transcript in the store: each call adds the call and its result
 * (as the hooks left it, masked of the configured secrets) to the session's messages.
 * A session of an MCP client may make thousands of calls, and a save writes the whole
 * transcript: saves are spaced (at most one per `SAVE_EVERY_MS`, each taking every call
 * that arrived meanwhile, and `flush` saves at once), and the transcript keeps the latest
 * `KEPT_MESSAGES` messages (every call keeps its own run record, which `trace` shows). A
 * save refused because another process committed first (a replica serving the same
 * session) is done again on top of the stored session: no call is lost.
 */
import { SessionBusyError } from "../errors/session-busy-error.js";
import type { ModelMessage } from "../events/payloads.js";
import type { HookLogger } from "../hooks/hook-context.js";
import type { ModelToolCall } from "../models/language-model.js";
import { maskSecretsIn as maskDeep } from "../secrets/secret-registry.js";
import type { SessionRecord, StateStore } from "../state/state-store.js";
import { toToolOutput } from "../tools/tool-output.js";

const ATTEMPTS = 5;
const SAVE_EVERY_MS = 200;
/** 500 calls: each is a call message and a result message. */
export const KEPT_MESSAGES = 1_000;

export class TranscriptWriter {
  readonly #store: StateStore;
  readonly #sessionId: string;
  readonly #log: HookLogger;
  #waiting: { messages: ModelMessage[]; calls: number } = { messages: [], calls: 0 };
  #saving: Promise<void> | undefined;
  #session: SessionRecord | undefined;
  /** The next save waits for this timer (undefined: none is waiting). */
  #timer: NodeJS.Timeout | undefined;
  #wake: (() => void) | undefined;

  constructor(store: StateStore, sessionId: string, log: HookLogger) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#log = log;
  }

  /** Adds a call and its result; saved soon (see `flush`). */
  add(call: ModelToolCall, result: { result: unknown; isError: boolean }): void {
    const messages = maskDeep(
      JSON.parse(
        JSON.stringify([
          {
            role: "assistant",
            content: [
              {
                type: "tool-call",
                toolCallId: call.toolCallId,
                toolName: call.toolName,
                input: call.args ?? {},
              },
            ],
          },
          {
            role: "tool",
            content: [
              {
                type: "tool-result",
                toolCallId: call.toolCallId,
                toolName: call.toolName,
                output: toToolOutput(result.result, result.isError),
              },
            ],
          },
        ]),
      ) as ModelMessage[],
    );
    this.#waiting.messages.push(...messages);
    this.#waiting.calls++;
    this.#saving ??= this.#drain();
  }

  /** Saves now what waits, and resolves once every call added so far is saved (or its failure logged). */
  async flush(): Promise<void> {
    while (this.#saving) {
      this.#wakeUp();
      await this.#saving;
    }
  }

  #wakeUp(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Waits `SAVE_EVERY_MS` (or until `flush`). */
  #pause(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
      this.#timer = setTimeout(() => this.#wakeUp(), SAVE_EVERY_MS);
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.calls > 0) {
        await this.#pause();
        const batch = this.#waiting;
        this.#waiting = { messages: [], calls: 0 };
        await this.#save(batch).catch((error: unknown) =>
          this.#log.warn(
            `session ${this.#sessionId}: ${batch.calls} tool call(s) not saved to its transcript: ${(error as Error).message}`,
          ),
        );
      }
    } finally {
      this.#saving = undefined;
    }
  }

  async #save(batch: { messages: ModelMessage[]; calls: number }): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const now = Date.now();
      const session = this.#session ??
        (await this.#store.loadSession(this.#sessionId)) ?? {
          id: this.#sessionId,
          messages: [],
          createdAt: now,
          updatedAt: now,
          version: 0,
        };
      const next: SessionRecord = {
        ...session,
        messages: [...session.messages, ...batch.messages].slice(-KEPT_MESSAGES),
        updatedAt: now,
        runs: (session.runs ?? 0) + batch.calls,
      };
      try {
        next.version = await this.#store.saveSession(next);
        this.#session = next;
        return;
      } catch (error) {
        this.#session = undefined;
        if (!SessionBusyError.isInstance(error) || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
