/**
 * One harness hook event through a config's hooks and policies, in hookwise's own order
 * (transforms → decides → before-observers → inspects), as the agent loop runs the same
 * event: a `PreToolUse` is a `tool_call`, a `PostToolUse` a `tool_result`, a
 * `UserPromptSubmit` a `run_start`… The outcome is a neutral verdict the harness's protocol
 * writes back, and the hooks' firings, for the record of the session.
 *
 * Every event is its own process: what outlives it — `max_fires`, `cooldown`, `rate_limit`,
 * counters, the session scratchpad — lives in the store, keyed by the harness's session id.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import type { AnyEventPayload, EventPayload, ModelMessage } from "../events/payloads.js";
import type { BlockingOutcome } from "../hooks/blocking.js";
import type { HookLogger } from "../hooks/hook-context.js";
import type { HookRegistry, HookSelection } from "../hooks/hook-registry.js";
import { HookRunner } from "../hooks/hook-runner.js";
import { type ContextSource, OperationContext } from "../hooks/operation-context.js";
import { Scratchpad } from "../hooks/scratchpad.js";
import type { HookTraceEntry } from "../hooks/trace.js";
import { decidingPolicy, type Policy, policyDecisionOf } from "../policy/policy.js";
import type { StateStore } from "../state/state-store.js";
import type { RunTelemetry } from "../telemetry/run-telemetry.js";
import { runTelemetryModule } from "../telemetry/run-telemetry.part.js";
import type { RunSummary, TelemetrySettings } from "../telemetry/types.js";
import { takeQueuedContext } from "./claude/hooks/context-queue.js";
import { type HarnessTool, harnessTool } from "./harness-tools.js";
import { heldSessionRefusal, holdSessionIfStopped } from "./held-session.js";
import type { HarnessEvent, HarnessProtocol, HarnessVerdict } from "./types.js";

export interface HarnessDispatchOptions {
  readonly protocol: HarnessProtocol;
  /** The agent's hooks, its policies' decide hook among them. */
  readonly registry: HookRegistry;
  /** The same policies as a list: an explicit allow is told from the default one. */
  readonly policies: readonly Policy[];
  readonly store: StateStore;
  readonly log: HookLogger;
  /** The run id this event is recorded under. */
  readonly runId: string;
  /**
   * Aborts the event's hooks. A function: the signal is made when a hook first needs it
   * (most events are decided without one).
   */
  readonly signal?: AbortSignal | (() => AbortSignal);
  /** Spans for this event (the config's `runtime.telemetry`): undefined, none. */
  readonly telemetry?: TelemetrySettings | undefined;
  /** Masks the credentials in what the spans record of the event (`HarnessHooks.mask`). */
  readonly mask?: <T>(value: T) => T;
}

/** What was decided, and about what, for the session's record. */
export interface HarnessOutcome {
  readonly verdict: HarnessVerdict;
  /** The hooks that fired, in firing order. */
  readonly trace: readonly HookTraceEntry[];
  /** The tool the event was about, by hookwise's names, with the arguments it would run with. */
  readonly tool?: { functionName: string; qualifiedName: string; args: unknown; ranArgs?: unknown };
}

const NONE: HarnessVerdict = Object.freeze({ decision: "none" }) as HarnessVerdict;

/** Where a session's scratchpad values live between hook processes. */
function scratchPrefix(sessionId: string): string {
  return `harness-scratch:${sessionId}:`;
}

/**
 * Set before a session's first scratchpad key is written, and never removed: a session
 * without it has no keys, and its events read one value instead of listing keys by prefix
 * (which on Redis walks the whole keyspace, records of every session included).
 */
function scratchMarker(sessionId: string): string {
  return `harness-scratch-kept:${sessionId}`;
}

async function loadScratch(store: StateStore, sessionId: string): Promise<Map<string, string>> {
  const loaded = new Map<string, string>();
  if ((await store.get(scratchMarker(sessionId))) === undefined) return loaded;
  const prefix = scratchPrefix(sessionId);
  const keys = await store.keys(prefix);
  const values = await Promise.all(keys.map((key) => store.get<string>(key)));
  keys.forEach((key, index) => {
    const value = values[index];
    if (typeof value === "string") loaded.set(key.slice(prefix.length), value);
  });
  return loaded;
}

/** Writes back the keys this event changed (each key alone: another process's keys stay). */
async function saveScratch(
  store: StateStore,
  sessionId: string,
  pad: Scratchpad,
  loaded: ReadonlyMap<string, string>,
): Promise<void> {
  // The common case: no scratchpad before, none now.
  if (loaded.size === 0 && pad.size === 0) return;
  const prefix = scratchPrefix(sessionId);
  const sets: [string, string][] = [];
  const deletes: string[] = [];
  const seen = new Set<string>();
  for (const [key, value] of pad.entries()) {
    seen.add(key);
    const text = JSON.stringify(value);
    if (text === undefined) continue;
    if (loaded.get(key) !== text) sets.push([prefix + key, text]);
  }
  for (const key of loaded.keys()) if (!seen.has(key)) deletes.push(prefix + key);
  // The marker first: a reader that does not find it finds no key either.
  if (sets.length > 0 && loaded.size === 0) await store.set(scratchMarker(sessionId), 1);
  await Promise.all([
    ...sets.map(([key, text]) => store.set(key, text)),
    ...deletes.map((key) => store.delete(key)),
  ]);
}

function messageTexts(messages: readonly ModelMessage[]): string[] {
  return messages
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content
            .map((part) =>
              (part as { type?: string }).type === "text" ? (part as { text: string }).text : "",
            )
            .join(""),
    )
    .filter((text) => text.trim() !== "");
}

/** The part of a rewritten result that was added to the end of the original (a note), if that is all that changed. */
function appendedNote(original: unknown, result: unknown): string | undefined {
  if (typeof original !== "string" || typeof result !== "string") return undefined;
  if (!result.startsWith(original) || result.length === original.length) return undefined;
  return result.slice(original.length).trim();
}

/**
 * What an event's hooks see of their run: a class, not a literal with a getter (a literal
 * with an accessor is built property by property, on every event).
 */
class HarnessSource implements ContextSource {
  readonly runId: string;
  readonly sessionId: string;
  readonly agentName: string;
  readonly log: HookLogger;
  readonly isStreaming = false;
  readonly runScratch: Scratchpad;
  readonly stepScratch: Scratchpad;
  readonly step = 0;
  readonly input: string;
  readonly turn = 0;
  readonly messages: readonly ModelMessage[] = [];
  readonly usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  #signal: AbortSignal | (() => AbortSignal) | undefined;

  constructor(
    event: HarnessEvent,
    options: HarnessDispatchOptions,
    readonly agentPath: readonly string[],
    readonly sessionScratch: Scratchpad,
  ) {
    this.runId = options.runId;
    this.sessionId = event.sessionId;
    this.agentName = event.harness;
    this.log = options.log;
    this.#signal = options.signal;
    this.runScratch = new Scratchpad(sessionScratch);
    this.stepScratch = new Scratchpad(this.runScratch);
    this.input = event.prompt ?? "";
  }

  /** Made when a hook first reads it: nothing aborts an event decided without a signal. */
  get signal(): AbortSignal {
    const given = this.#signal;
    if (typeof given === "function") this.#signal = given();
    this.#signal ??= new AbortController().signal;
    return this.#signal as AbortSignal;
  }
}

/** Whether a policy's tool pattern names MCP tools by server: `mcp__github__*`, `github.delete_*`. */
function namesMcpServer(pattern: string): boolean {
  return pattern.startsWith("mcp__") || pattern.includes(".");
}

/** How long a call's first event's decision waits for its second (Cursor sends them at once). */
const SAME_CALL_TTL_MS = 5 * 60_000;

/** What the second event of a call reads of the first's decision. */
interface EarlierDecision {
  decision: HarnessVerdict["decision"];
  reason?: string;
  hook?: string;
}

/** The store key of a call a harness sends as two events (see `HarnessProtocol.sameCall`). */
function sameCallKey(event: HarnessEvent, protocol: HarnessProtocol): string | undefined {
  const same = event.kind === "tool_call" ? protocol.sameCall?.(event) : undefined;
  if (same === undefined) return undefined;
  const digest = nodeCrypto().createHash("sha256").update(same).digest("hex");
  return `harness-call:${event.harness}:${event.sessionId}:${digest}`;
}

/**
 * The second event of a call answers as the first did, its hooks not run again: a deny
 * denies again, an allow allows, no decision leaves the harness's own rules to decide. (A
 * question is not kept: the second event decides it again, and may be where it is asked.)
 */
function answeredBefore(
  event: HarnessEvent,
  protocol: HarnessProtocol,
  earlier: EarlierDecision,
): HarnessOutcome {
  const decision = earlier.decision === "ask" ? "deny" : earlier.decision;
  const verdict: HarnessVerdict = { decision };
  if (decision !== "none") {
    if (earlier.reason !== undefined) verdict.reason = earlier.reason;
    if (earlier.hook !== undefined) verdict.hook = earlier.hook;
  }
  const tool = harnessTool(protocol, event.tool!.name);
  const args = event.tool!.input;
  return {
    verdict,
    trace: [],
    tool: {
      functionName: tool.functionName,
      qualifiedName: tool.qualifiedName,
      args,
      ...(decision === "deny" ? {} : { ranArgs: args }),
    },
  };
}

/** An event of a held session, refused with `verdict` (and the tool it was about, not run). */
function refusedHeld(
  event: HarnessEvent,
  protocol: HarnessProtocol,
  verdict: HarnessVerdict,
): HarnessOutcome {
  if (event.tool === undefined) return { verdict, trace: [] };
  const tool = harnessTool(protocol, event.tool.name);
  return {
    verdict,
    trace: [],
    tool: { functionName: tool.functionName, qualifiedName: tool.qualifiedName, args: event.tool.input },
  };
}

export async function decideHarnessEvent(
  event: HarnessEvent,
  options: HarnessDispatchOptions,
): Promise<HarnessOutcome> {
  const { store, log } = options;
  // A session hookwise stopped where the harness went on with it: refused, its hooks not run.
  const held = await heldSessionRefusal(store, event);
  if (held !== undefined) return refusedHeld(event, options.protocol, held);
  const sameKey = sameCallKey(event, options.protocol);
  if (sameKey !== undefined) {
    const earlier = await store.get<EarlierDecision>(sameKey);
    if (earlier !== undefined) {
      await store.delete(sameKey);
      return answeredBefore(event, options.protocol, earlier);
    }
  }
  const loaded = await loadScratch(store, event.sessionId);
  const sessionScratch = new Scratchpad();
  for (const [key, text] of loaded) sessionScratch.set(key, JSON.parse(text));
  const agentPath = [event.harness];
  const source = new HarnessSource(event, options, agentPath, sessionScratch);
  // Without telemetry the spans' code is not loaded (a part of its own in `hookwise hook`'s build).
  const spans =
    options.telemetry === undefined
      ? undefined
      : runTelemetryModule().startRunTelemetry(options.telemetry, {
          agentName: event.harness,
          runId: options.runId,
          sessionId: event.sessionId,
          agentPath,
          resumed: false,
        });
  const runner = new HookRunner({
    registries: [{ registry: options.registry, depth: 0 }],
    log,
    keep: { capacity: 8 },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(spans ? { observer: spans } : {}),
  });
  const context = new OperationContext(source, 1);
  const session = new HarnessRun(event, options, runner, context, agentPath, source.stepScratch);
  spans?.annotate({ "hookwise.harness": event.harness, "hookwise.harness.event": event.name });
  if (spans && event.tool) spans.toolStarted({ toolCallId: event.tool.callId, toolName: event.tool.name });
  let outcome: Omit<HarnessOutcome, "trace">;
  try {
    outcome = await session.decide();
    // Inspections (audit logs, notifications) finish before the process answers.
    await runner.settle();
  } catch (error) {
    spans?.toolFailed(event.tool?.callId ?? "", error);
    spans?.runEnded(masked(options.mask, harnessSummary(event, undefined, error)));
    throw error;
  } finally {
    // Its hooks' deadline timer would keep the process alive for up to a second.
    runner.close();
  }
  if (spans) endSpans(spans, event, outcome, options.mask);
  await saveScratch(store, event.sessionId, sessionScratch, loaded);
  await holdSessionIfStopped(store, options.protocol, event, outcome.verdict, options.mask);
  // A rewritten call comes back with its new arguments (another call); a failure is decided
  // again; so is a question, which the second event may be the one to ask.
  const { verdict } = outcome;
  if (
    sameKey !== undefined &&
    verdict.updatedInput === undefined &&
    !verdict.failed &&
    verdict.decision !== "ask"
  ) {
    const earlier: EarlierDecision = {
      decision: verdict.decision,
      ...(verdict.reason !== undefined ? { reason: verdict.reason } : {}),
      ...(verdict.hook !== undefined ? { hook: verdict.hook } : {}),
    };
    // Its reason masked as the record's is: a store keeps what it is given.
    await store.set(sameKey, masked(options.mask, earlier), { ttlMs: SAME_CALL_TTL_MS });
  }
  // Fields named, not spread: a spread of outcomes of several shapes copies property by property.
  const trace = runner.events();
  return outcome.tool === undefined
    ? { verdict: outcome.verdict, trace }
    : { verdict: outcome.verdict, trace, tool: outcome.tool };
}

/** The event's run span (and its tool's), ended with what was decided. */
function endSpans(
  spans: RunTelemetry,
  event: HarnessEvent,
  outcome: Omit<HarnessOutcome, "trace">,
  mask: (<T>(value: T) => T) | undefined,
): void {
  const { verdict } = outcome;
  spans.annotate({ "hookwise.harness.decision": verdict.decision });
  if (event.tool) {
    const denied = verdict.decision === "deny";
    spans.toolEnded(
      event.tool.callId,
      masked(mask, {
        kind: denied
          ? "denied"
          : event.kind === "tool_call" || event.kind === "approval_request"
            ? verdict.decision
            : "result",
        qualifiedName: outcome.tool?.qualifiedName,
        // The harness runs its own tools: a result or an error is of a call that ran.
        executed: event.kind === "tool_result" || event.kind === "tool_error",
        isError: event.kind === "tool_error",
        args: outcome.tool?.ranArgs ?? event.tool.input,
        result: verdict.updatedOutput ?? event.tool.response,
        ...(verdict.hook !== undefined && verdict.decision !== "none" ? { hook: verdict.hook } : {}),
        ...(denied ? { reason: verdict.reason } : {}),
      }),
    );
  }
  spans.runEnded(masked(mask, harnessSummary(event, outcome.verdict)));
}

/** What a span records of the event, its credentials masked when there is a mask. */
function masked<T>(mask: (<V>(value: V) => V) | undefined, value: T): T {
  return mask ? mask(value) : value;
}

function harnessSummary(
  event: HarnessEvent,
  verdict: HarnessVerdict | undefined,
  error?: unknown,
): RunSummary {
  return {
    outcome: error !== undefined ? "error" : verdict?.decision === "deny" ? "denied" : "completed",
    text: event.output ?? "",
    input: event.prompt ?? "",
    usage: { inputTokens: 0, outputTokens: 0 },
    steps: 0,
    ...(error !== undefined ? { reason: error instanceof Error ? error.message : String(error) } : {}),
    ...(verdict?.decision === "deny" && verdict.reason !== undefined ? { reason: verdict.reason } : {}),
    ...(verdict?.hook !== undefined && verdict.decision !== "none" ? { hook: verdict.hook } : {}),
  };
}

/** One event's dispatch: the payload of its hookwise event, its hooks, and the verdict. */
class HarnessRun {
  constructor(
    readonly event: HarnessEvent,
    readonly options: HarnessDispatchOptions,
    readonly runner: HookRunner,
    readonly context: OperationContext,
    readonly agentPath: readonly string[],
    readonly stepScratch: Scratchpad,
  ) {}

  /**
   * The event's hooks' context for the model: messages they injected, and what Claude Code
   * hooks (`claude_hooks`) of a tool event queued for the step's end, which a harness's event
   * does not have.
   */
  contextOf(outcome: BlockingOutcome<AnyEventPayload>): string[] {
    const context = messageTexts(outcome.injected);
    context.push(...takeQueuedContext(this.stepScratch));
    return context;
  }

  /** `fields` (a literal of the caller's own) with the run's lineage: added, not spread into a copy. */
  payload<P extends AnyEventPayload>(fields: Omit<P, "agentPath">): P {
    (fields as { agentPath?: readonly string[] }).agentPath = this.agentPath;
    return fields as P;
  }

  /** Transforms and decides; then, unless they stopped it, the before-observers. */
  async blocking<P extends AnyEventPayload>(
    payload: P,
    validateArgs?: HarnessTool,
  ): Promise<{ outcome: BlockingOutcome<P>; selection: HookSelection }> {
    const selection = this.runner.select(payload);
    const outcome = await this.runner.dispatch(
      payload,
      this.context,
      selection,
      // The tool's input schema is built only when a hook rewrites its arguments.
      validateArgs ? { validateArgs: (args) => validateArgs.input().validate(args) } : undefined,
    );
    return { outcome, selection };
  }

  /** `blocking`, then how it stopped (if it did), then the observers and inspections. */
  async guarded<P extends AnyEventPayload>(
    payload: P,
  ): Promise<{ outcome: BlockingOutcome<P>; stopped: HarnessVerdict | undefined }> {
    const { outcome, selection } = await this.blocking(payload);
    const stopped = this.stopped(outcome);
    await this.after(outcome.payload, selection, stopped === undefined);
    return { outcome, stopped };
  }

  /** Observers (when the operation goes on) and inspections, with the final payload. */
  async after(payload: AnyEventPayload, selection: HookSelection, goesOn: boolean): Promise<void> {
    if (goesOn && selection.observers.length) await this.runner.observe(payload, this.context, selection);
    this.runner.inspect(payload, this.context, selection);
  }

  /** A failure, terminate or deny of a blocking dispatch, as a verdict; undefined when none. */
  stopped(outcome: BlockingOutcome<AnyEventPayload>): HarnessVerdict | undefined {
    if (outcome.failure) {
      return {
        decision: "deny",
        reason: `hookwise: ${outcome.failure.message} (failed closed)`,
        hook: outcome.failure.hook,
        failed: true,
      };
    }
    const terminal = outcome.terminal;
    if (!terminal) return undefined;
    const flow = terminal.flow;
    if (flow.type === "terminate")
      return { decision: "deny", reason: flow.reason, hook: terminal.hook, stop: flow.reason };
    if (flow.type === "deny") return { decision: "deny", reason: flow.reason, hook: terminal.hook };
    return undefined;
  }

  async decide(): Promise<Omit<HarnessOutcome, "trace">> {
    const { event } = this;
    switch (event.kind) {
      case "tool_call":
        return this.toolCall(false);
      case "approval_request":
        return this.toolCall(true);
      case "tool_result":
        return this.toolResult();
      case "tool_error":
        return this.toolError();
      case "run_start":
        return { verdict: await this.runStart() };
      case "run_end":
        return { verdict: await this.runEnd() };
      case "session_start":
        return { verdict: await this.sessionStart() };
      case "session_end":
        return {
          verdict: await this.observeOnly(
            this.payload<EventPayload<"session_end">>({
              type: "session_end",
              sessionId: event.sessionId,
              reason: event.detail ?? "ended",
            }),
          ),
        };
      case "pre_compact":
        return { verdict: await this.preCompact() };
      case "model_request":
        return { verdict: await this.modelRequest() };
      case "model_response":
        return { verdict: await this.observeOnly(this.modelResponse()) };
      default:
        return { verdict: NONE };
    }
  }

  tool(): HarnessTool {
    return harnessTool(this.options.protocol, this.event.tool!.name);
  }

  /**
   * `tool_call` (and a harness's permission prompt, `approval`): rewrites, then decisions.
   * An `ask` is offered to `approval_request` hooks first, as in hookwise's own loop; left
   * unanswered, it is the harness's own question to its user.
   */
  async toolCall(approval: boolean): Promise<Omit<HarnessOutcome, "trace">> {
    const use = this.event.tool!;
    const tool = this.tool();
    const about = { functionName: tool.functionName, qualifiedName: tool.qualifiedName, args: use.input };
    if (!this.runner.wants("tool_call")) return { verdict: NONE, tool: about };
    if (
      use.serverUnknown &&
      this.options.policies.some((policy) => policy.decision !== "allow" && namesMcpServer(policy.tool))
    )
      return {
        verdict: {
          decision: "deny",
          reason: `hookwise: ${this.options.protocol.label} did not say which MCP server "${use.name}" is on (no server of its MCP settings has the url or command it gave), and the config's deny or ask policies name MCP tools by their server; so this is blocked`,
          failed: true,
        },
        tool: about,
      };
    const payload: EventPayload<"tool_call"> = {
      type: "tool_call",
      toolName: tool.functionName,
      qualifiedName: tool.qualifiedName,
      toolCallId: use.callId,
      args: use.input,
      agentPath: this.agentPath,
    };
    const { outcome, selection } = await this.blocking(payload, tool);
    const args = outcome.payload.args;
    const rewritten = outcome.payload.original !== undefined;
    const stopped = this.stopped(outcome);
    if (stopped) {
      this.runner.inspect(outcome.payload, this.context, selection);
      return { verdict: stopped, tool: about };
    }
    let verdict: HarnessVerdict = { decision: "none" };
    const flow = outcome.terminal?.flow;
    if (flow?.type === "skip") {
      // The harness runs its own tool: a skipped call is refused, its result given as the reason.
      const result = typeof flow.result === "string" ? flow.result : JSON.stringify(flow.result);
      verdict = { decision: "deny", reason: result, hook: outcome.terminal!.hook };
    } else if (flow?.type === "ask") {
      verdict = await this.ask(outcome.payload, flow.request.reason, outcome.terminal!.hook);
    } else if (await this.explicitlyAllowed(outcome.payload)) verdict = { decision: "allow" };
    if (approval && verdict.decision === "ask") verdict = { decision: "none" };
    if (rewritten && verdict.decision !== "deny") verdict.updatedInput = args;
    const context = this.contextOf(outcome);
    if (context.length) verdict.context = context;
    await this.after(outcome.payload, selection, verdict.decision !== "deny");
    const ran =
      verdict.decision === "deny"
        ? about
        : {
            functionName: about.functionName,
            qualifiedName: about.qualifiedName,
            args: about.args,
            ranArgs: args,
          };
    return { verdict, tool: ran };
  }

  /** Whether a policy matched the call with `allow`, or a decide hook answered `allow` itself. */
  async explicitlyAllowed(payload: EventPayload<"tool_call">): Promise<boolean> {
    // The policy hook keeps what it found; asked again only when it did not run.
    const seen = policyDecisionOf(payload);
    const policy =
      seen !== undefined
        ? seen
        : await decidingPolicy(
            this.options.policies,
            [payload.qualifiedName, payload.toolName],
            payload.args,
          );
    if (policy?.decision === "allow") return true;
    return this.runner.events().some((entry) => entry.effect === "allow" && entry.hook !== "policy");
  }

  async ask(
    call: EventPayload<"tool_call">,
    reason: string | undefined,
    hook: string,
  ): Promise<HarnessVerdict> {
    const asked: HarnessVerdict = {
      decision: "ask",
      reason: reason ?? `hook "${hook}" asks for approval`,
      hook,
    };
    if (!this.runner.wants("approval_request")) return asked;
    const request = this.payload<EventPayload<"approval_request">>({
      type: "approval_request",
      approvalId: call.toolCallId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      qualifiedName: call.qualifiedName,
      args: call.args,
      ...(reason !== undefined ? { reason } : {}),
    });
    const { outcome, selection } = await this.blocking(request);
    this.runner.inspect(outcome.payload, this.context, selection);
    if (outcome.failure) return this.stopped(outcome)!;
    const answer = outcome.terminal;
    if (answer?.flow.type === "allow") return { decision: "allow", hook: answer.hook };
    if (answer?.flow.type === "deny")
      return { decision: "deny", reason: answer.flow.reason, hook: answer.hook };
    return asked;
  }

  async toolResult(): Promise<Omit<HarnessOutcome, "trace">> {
    const use = this.event.tool!;
    const tool = this.tool();
    const about = {
      functionName: tool.functionName,
      qualifiedName: tool.qualifiedName,
      args: use.input,
      ranArgs: use.input,
    };
    if (!this.runner.wants("tool_result")) return { verdict: NONE, tool: about };
    const payload = this.payload<EventPayload<"tool_result">>({
      type: "tool_result",
      toolName: tool.functionName,
      qualifiedName: tool.qualifiedName,
      toolCallId: use.callId,
      args: use.input,
      result: use.response,
      isError: false,
    });
    const { outcome, stopped } = await this.guarded(payload);
    if (stopped) return { verdict: stopped, tool: about };
    const verdict: HarnessVerdict = { decision: "none" };
    const context = this.contextOf(outcome);
    if (outcome.payload.original !== undefined) {
      const note = appendedNote(use.response, outcome.payload.result);
      if (note !== undefined) context.push(note);
      else {
        verdict.updatedOutput = outcome.payload.result;
        const rewrite = this.runner.events().findLast((entry) => entry.effect === "rewriteResult");
        if (rewrite) verdict.hook = rewrite.hook;
      }
    }
    if (context.length) verdict.context = context;
    return { verdict, tool: about };
  }

  async toolError(): Promise<Omit<HarnessOutcome, "trace">> {
    const use = this.event.tool!;
    const tool = this.tool();
    const about = {
      functionName: tool.functionName,
      qualifiedName: tool.qualifiedName,
      args: use.input,
      ranArgs: use.input,
    };
    if (!this.runner.wants("tool_error")) return { verdict: NONE, tool: about };
    const payload = this.payload<EventPayload<"tool_error">>({
      type: "tool_error",
      toolName: tool.functionName,
      qualifiedName: tool.qualifiedName,
      toolCallId: use.callId,
      args: use.input,
      error: use.error,
    });
    const { outcome, stopped } = await this.guarded(payload);
    if (stopped) return { verdict: stopped, tool: about };
    const flow = outcome.terminal?.flow;
    const context: string[] = [];
    // A recovery's result cannot replace the harness's error; the model reads it beside it.
    if (flow?.type === "rewriteResult" || outcome.payload !== payload) {
      const result = flow?.type === "rewriteResult" ? flow.result : undefined;
      if (result !== undefined) context.push(typeof result === "string" ? result : JSON.stringify(result));
    }
    context.push(...this.contextOf(outcome));
    return { verdict: context.length ? { decision: "none", context } : NONE, tool: about };
  }

  async runStart(): Promise<HarnessVerdict> {
    if (!this.runner.wants("run_start")) return NONE;
    const payload = this.payload<EventPayload<"run_start">>({
      type: "run_start",
      input: this.event.prompt ?? "",
    });
    const { outcome, stopped } = await this.guarded(payload);
    if (stopped) return stopped;
    const context = messageTexts(outcome.injected);
    if (outcome.payload.input !== payload.input) {
      // A harness's prompt cannot be replaced: the rewrite reaches the model as context.
      context.unshift(`The user's request, as hookwise rewrote it: ${outcome.payload.input}`);
    }
    return context.length ? { decision: "none", context } : NONE;
  }

  /**
   * `run_end` (Claude Code's Stop): a deny, or a `retry`, sends the agent back to work with
   * the reason. A failure blocks once: while the agent is already continuing because of a
   * stop hook, a failed hook lets it stop (with the failure on stderr), so a broken hook
   * cannot keep an agent working forever.
   */
  async runEnd(): Promise<HarnessVerdict> {
    if (!this.runner.wants("run_end")) return NONE;
    const payload = this.payload<EventPayload<"run_end">>({
      type: "run_end",
      output: this.event.output ?? "",
      outcome: "completed",
      continuations: this.event.stopActive ? 1 : 0,
    });
    const { outcome, stopped } = await this.guarded(payload);
    if (stopped) {
      if (stopped.failed && this.event.stopActive) {
        this.options.log.error(
          `${stopped.reason}; the agent already continued once for a stop hook, so it may stop`,
        );
        return NONE;
      }
      return stopped;
    }
    const flow = outcome.terminal?.flow;
    if (flow?.type === "retry")
      return { decision: "deny", reason: flow.feedback ?? "Continue.", hook: outcome.terminal!.hook };
    return NONE;
  }

  async sessionStart(): Promise<HarnessVerdict> {
    if (!this.runner.wants("session_start")) return NONE;
    const payload = this.payload<EventPayload<"session_start">>({
      type: "session_start",
      sessionId: this.event.sessionId,
    });
    const { outcome, stopped } = await this.guarded(payload);
    if (stopped) return stopped;
    const context = messageTexts(outcome.injected);
    return context.length ? { decision: "none", context } : NONE;
  }

  async preCompact(): Promise<HarnessVerdict> {
    if (!this.runner.wants("pre_compact")) return NONE;
    const payload = this.payload<EventPayload<"pre_compact">>({
      type: "pre_compact",
      messages: [],
      tokens: 0,
      remove: [],
    });
    const { stopped } = await this.guarded(payload);
    return stopped ?? NONE;
  }

  /** Gemini CLI's BeforeModel: a deny blocks the request; patches are not sent back (the request is the harness's). */
  async modelRequest(): Promise<HarnessVerdict> {
    if (!this.runner.wants("model_request")) return NONE;
    const llm = (this.event.payload.llm_request ?? {}) as { model?: unknown; messages?: unknown };
    const messages = (Array.isArray(llm.messages) ? llm.messages : []).map((message) => ({
      role: (message as { role?: string }).role === "model" ? "assistant" : "user",
      content: String((message as { content?: unknown }).content ?? ""),
    })) as ModelMessage[];
    const userMessage = [...messages].reverse().find((message) => message.role === "user");
    const payload = this.payload<EventPayload<"model_request">>({
      type: "model_request",
      request: {
        step: 0,
        attempt: 1,
        system: undefined,
        messages,
        tools: [],
        toolChoice: "auto",
        ...(typeof llm.model === "string" ? { model: llm.model } : {}),
      },
      userMessage: typeof userMessage?.content === "string" ? userMessage.content : "",
      history: messages,
      isFirstStep: false,
    });
    const { stopped } = await this.guarded(payload);
    return stopped ?? NONE;
  }

  modelResponse(): EventPayload<"model_response"> {
    const response = (this.event.payload.llm_response ?? {}) as {
      candidates?: { content?: { parts?: unknown[] }; finishReason?: string }[];
    };
    const candidate = response.candidates?.[0];
    const text = (candidate?.content?.parts ?? []).filter((part) => typeof part === "string").join("");
    return this.payload<EventPayload<"model_response">>({
      type: "model_response",
      request: { step: 0, attempt: 1, system: undefined, messages: [], tools: [], toolChoice: "auto" },
      text,
      toolCalls: [],
      finishReason: candidate?.finishReason ?? "unknown",
      usage: {},
    });
  }

  /** An event hooks only watch: its inspections run; nothing is answered. */
  async observeOnly(payload: AnyEventPayload): Promise<HarnessVerdict> {
    if (!this.runner.wants(payload.type)) return NONE;
    this.runner.inspect(payload, this.context);
    return NONE;
  }
}
