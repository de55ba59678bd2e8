/**
 * `hookwise hook <config> --harness claude|codex|gemini|cursor`: one hook event of a
 * coding-agent harness on stdin, answered in that harness's format with the config's
 * hooks and policies. Fail closed: malformed stdin, an unknown event, a config that does
 * not load, a store that cannot be reached, a hook that throws or times out, or no answer
 * within `--timeout` — each blocks what the event is about, with the reason. Every
 * decision is recorded in the config's store as a run of the harness's session.
 */
import { read } from "node:fs";
import { join } from "node:path";
import { saveRunRecord } from "../../agent/run-recorder.js";
import { harnessRunRecord } from "../../config/harness-record.js";
import { type HarnessHooks, loadHarnessHooks } from "../../config/load-harness-hooks.js";
import { printable } from "../../config/printable.js";
import { ConfigError, formatIssue } from "../../config/source/config-error.js";
import { loadPackage } from "../../deps/load-package.js";
import { HookwiseError } from "../../errors/hookwise-error.js";
import { decideHarnessEvent } from "../../harnesses/decide-harness-event.js";
import { HarnessInputError } from "../../harnesses/harness-input-error.js";
import { HARNESSES } from "../../harnesses/protocols.js";
import type { HarnessAnswer, HarnessEvent, HarnessName, HarnessProtocol } from "../../harnesses/types.js";
import { flatUuid } from "../../loop/flat-uuid.js";
import { defaultState } from "../default-state.js";
import { keepStdoutForProtocol } from "../keep-stdout-for-protocol.js";
import type { CliIO } from "../types.js";
import { userCacheDir } from "../user-cache-dir.js";

export interface HookCommandOptions {
  harness: HarnessName;
  agent?: string;
  /** Seconds to answer in (default 45, under the harnesses' own 60 s hook timeout). */
  timeout?: number;
}

/** Stdin larger than this is refused (a harness's event is a few KB; a Write's content can be MBs). */
const MAX_INPUT = 32 * 1024 * 1024;

export const DEFAULT_HOOK_TIMEOUT_S = 45;

async function readStdin(stream?: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (stream === undefined) {
    const done = await readOwnStdin((chunk) => {
      size += chunk.length;
      if (size > MAX_INPUT)
        throw new HarnessInputError(`the hook event on stdin is over ${MAX_INPUT / 1024 / 1024} MB`);
      chunks.push(chunk);
    });
    if (done) return Buffer.concat(chunks).toString("utf8");
  }
  for await (const chunk of stream ?? process.stdin) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_INPUT)
      throw new HarnessInputError(`the hook event on stdin is over ${MAX_INPUT / 1024 / 1024} MB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads the process's stdin from its file descriptor until its end, each chunk to `take`
 * (which may throw to stop). Not through `process.stdin`: making that stream loads the
 * network and stream modules, a tenth of what a hook's process spent before it decided.
 * Answers false when the descriptor cannot be read so (one made non-blocking by whoever
 * shares it): what was read is taken, and the stream reads the rest.
 */
function readOwnStdin(take: (chunk: Buffer) => void): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const next = () => {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      read(0, buffer, 0, buffer.length, null, (error, bytes) => {
        if (error) {
          // No more to read: a Windows pipe's writer closed it, or there is no stdin at all.
          if (error.code === "EOF" || error.code === "EBADF") return resolve(true);
          if (error.code === "EAGAIN" || error.code === "EWOULDBLOCK") return resolve(false);
          return reject(error);
        }
        if (bytes === 0) return resolve(true);
        try {
          take(buffer.subarray(0, bytes));
        } catch (taken) {
          return reject(taken);
        }
        next();
      });
    };
    next();
  });
}

function readPayload(text: string): Record<string, unknown> {
  if (text.trim() === "") throw new HarnessInputError("no hook event on stdin (expected the harness's JSON)");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HarnessInputError(`the hook event on stdin is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new HarnessInputError("the hook event on stdin is not a JSON object");
  return value as Record<string, unknown>;
}

/** Why a hook call could not decide, in one line (config errors: every error, each at its place). */
function reasonOf(error: unknown): string {
  if (ConfigError.isInstance(error)) {
    const lines = error.issues
      .filter((issue) => issue.severity === "error")
      .map((issue) => formatIssue(issue));
    return `hookwise: the config does not load, so this is blocked:\n${lines.join("\n")}`;
  }
  if (HookwiseError.isInstance(error)) return `hookwise: ${error.message} (blocked)`;
  const message = error instanceof Error ? error.message : String(error);
  return `hookwise: could not decide (${message}), so this is blocked`;
}

function write(io: CliIO, answer: HarnessAnswer): number {
  if (answer.stdout) io.stdout.write(answer.stdout);
  if (answer.stderr) io.stderr.write(printable(answer.stderr.trimEnd()).concat("\n"));
  return answer.exitCode;
}

/**
 * The answer written, and blocked when it did not reach the harness: an answer on stdout that
 * its reader never got (it closed the pipe) would leave an exit code 0 alone, which every
 * harness takes as "go on".
 */
function answered(
  io: CliIO,
  answer: HarnessAnswer,
  protocol: HarnessProtocol,
  eventName: string | undefined,
): number {
  const code = write(io, answer);
  io.stdout.flush?.();
  if (!answer.stdout || !io.stdout.lost?.()) return code;
  return write(
    io,
    protocol.refuse(
      "hookwise: the answer could not be written to stdout (its reader closed it), so this is blocked",
      eventName,
    ),
  );
}

export async function hookCommand(
  configPath: string,
  options: HookCommandOptions,
  io: CliIO,
  stdin?: NodeJS.ReadableStream,
): Promise<number> {
  const protocol = HARNESSES[options.harness];
  // The process's stdout is the answer: a harness reads anything else printed there (a tool
  // module's `console.log`) as an answer that is not JSON (Gemini CLI: an allow; Claude Code
  // and Codex CLI: no answer), and runs the call as it was.
  if (stdin === undefined) keepStdoutForProtocol();
  const timeoutMs = (options.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000;
  let event: HarnessEvent | undefined;
  let eventName: string | undefined;
  // Made when a hook first needs the signal (or the call times out): most calls are decided
  // without one, and the first `AbortController` loads a module of Node's own.
  let controller: AbortController | undefined;
  const abortable = (): AbortController => {
    controller ??= new AbortController();
    return controller;
  };
  const signal = () => abortable().signal;
  let timer: NodeJS.Timeout | undefined;
  const until = Date.now() + timeoutMs;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // A signal made after this reads as aborted too.
      abortable().abort(new DOMException("hookwise hook timed out", "TimeoutError"));
      reject(new HookwiseError(`no decision within ${timeoutMs / 1000} s (--timeout)`));
    }, timeoutMs);
    timer.unref();
  });
  let hooks: HarnessHooks | undefined;
  try {
    const payload = readPayload(await Promise.race([readStdin(stdin), deadline]));
    eventName = typeof payload.hook_event_name === "string" ? payload.hook_event_name : undefined;
    event = protocol.parse(payload);
    hooks = await Promise.race([
      loadHarnessHooks(configPath, options.harness, {
        ...(options.agent ? { agent: options.agent } : {}),
        // As every command of the CLI keeps it: SQLite when better-sqlite3 loads, else files.
        defaultState: defaultState(configPath, undefined, (message) =>
          io.stderr.line(`hookwise: warning: ${printable(message)}`),
        ),
        // A process per tool call: the config is validated once per change, not per call. The
        // user's own cache, not the project's: a project cannot ship entries of its own.
        validationCache: join(userCacheDir(), "validated"),
        // Stdout is the answer: everything hooks say goes to stderr.
        logger: loggerFor(io),
      }),
      deadline,
    ]);
    const startedAt = Date.now();
    // Not node:crypto's `randomUUID()`: loading node:crypto costs a call milliseconds (see `secureRandomFill`).
    const runId = flatUuid();
    let outcome = await Promise.race([
      decideHarnessEvent(event, {
        protocol,
        registry: hooks.registry,
        policies: hooks.policies,
        store: hooks.store,
        log: loggerFor(io),
        runId,
        signal,
        telemetry: hooks.telemetry,
        mask: hooks.mask,
      }),
      deadline,
    ]);
    if (outcome.verdict.decision === "ask") {
      // `approvals: inbox`: a `hookwise serve` on the same store decides, within the deadline.
      const { decideAskInInbox } = await import("../inbox-approval.js");
      const log = (line: string) => io.stderr.line(`hookwise: ${line}`);
      const asked = decideAskInInbox(hooks, event, outcome, { until, signal: signal(), log });
      outcome = await Promise.race([asked, deadline]);
    }
    const answer = protocol.answer(event, outcome.verdict);
    await Promise.race([
      saveRunRecord(hooks.store, harnessRunRecord(event, outcome, runId, startedAt, hooks.mask)),
      deadline,
    ]);
    return answered(io, answer, protocol, eventName);
  } catch (error) {
    const reason = reasonOf(error);
    if (event !== undefined) {
      const answer = protocol.answer(event, { decision: "deny", reason, failed: true });
      // What cannot be blocked (a session's end, a notification) still says why on stderr.
      const given = answer.exitCode === 0 && !answer.stdout ? protocol.refuse(reason, eventName) : answer;
      return answered(io, given, protocol, eventName);
    }
    return answered(io, protocol.refuse(reason, eventName), protocol, eventName);
  } finally {
    clearTimeout(timer);
    // The process ends with the answer: spans still batched are sent first.
    if (hooks?.telemetry) await flushSpans(timeoutMs);
    await hooks?.close().catch((error: unknown) => io.stderr.line(`hookwise: ${reasonOf(error)}`));
  }
}

/**
 * Sends the spans the registered provider still holds (a batch processor's), bounded: an
 * exporter that cannot be reached never holds the harness's tool call. A provider is
 * registered by the program's own OpenTelemetry setup, e.g. `NODE_OPTIONS=--import …`.
 */
async function flushSpans(timeoutMs: number): Promise<void> {
  const { trace } = loadPackage<typeof import("@opentelemetry/api")>("@opentelemetry/api");
  const provider = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const delegate = (provider.getDelegate?.() ?? provider) as { forceFlush?: () => Promise<void> };
  if (typeof delegate.forceFlush !== "function") return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    delegate.forceFlush().catch(() => {}),
    new Promise((resolve) => {
      timer = setTimeout(resolve, Math.min(timeoutMs, 5000));
    }),
  ]);
  clearTimeout(timer);
}

function loggerFor(io: CliIO) {
  return {
    debug() {},
    info: (message: string) => io.stderr.line(`hookwise: ${printable(message)}`),
    warn: (message: string) => io.stderr.line(`hookwise: warning: ${printable(message)}`),
    error: (message: string) => io.stderr.line(`hookwise: error: ${printable(message)}`),
  };
}
