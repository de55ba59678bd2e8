/**
 * One Claude Code handler → ordinary hookwise hooks (the engine never knows where they came
 * from). The hook fires only when its event's guard and the matcher pass (otherwise it
 * answers `NOT_FIRED` and leaves no trace entry), runs the handler, and returns what the
 * answer means on its event. PreToolUse becomes two hooks of one name: a transform for the
 * rewrite and a decide for the permission, which runs after every rewrite and asks the
 * script again when a later hook changed the arguments it approved.
 *
 * Failures: a crash, a timeout or unusable output throws, and the engine fails closed (the
 * operation does not happen, the error names the hook) unless the handler's failure mode is
 * `continue` — Claude Code's default — which lets it through, logged and traced `fail_open`.
 */
import { isDeepStrictEqual } from "node:util";
import type { AnyEventPayload } from "../../../events/payloads.js";
import type { AnyHook } from "../../../hooks/define-hook.js";
import type { Flow } from "../../../hooks/flow.js";
import type { HookContext, HookLogger } from "../../../hooks/hook-context.js";
import { NOT_FIRED } from "../../../hooks/invoke-hook.js";
import { claudeInput } from "./claude-input.js";
import type { ClaudeTools } from "./claude-tools.js";
import type { ClaudeTranscripts } from "./claude-transcripts.js";
import { queueContext } from "./context-queue.js";
import type { ClaudeCall, ClaudeEvent, ClaudeVerdict } from "./events/index.js";
import type { ClaudeAnswer } from "./handlers/read-claude-answer.js";
import { type PromptAnswerer, runClaudeHandler } from "./handlers/run-claude-handler.js";
import { scriptLabel } from "./handlers/script-label.js";
import type { ClaudeHandlerSpec } from "./settings/claude-handler-spec.js";
import { type ClaudeMatcher, compileClaudeMatcher } from "./settings/claude-matcher.js";

/** What every handler of a set shares. */
export interface ClaudeRuntime {
  readonly projectDir: string;
  /** The environment of commands and of http headers' `$VAR`s: the process's, the settings' `env`, `CLAUDE_PROJECT_DIR`. */
  readonly env: NodeJS.ProcessEnv;
  /** The default failure mode: `open` (Claude Code's) or `closed`. */
  readonly failure: "open" | "closed";
  readonly tools: ClaudeTools;
  readonly transcripts: ClaudeTranscripts;
  readonly log: HookLogger;
  /** Answers `type: "prompt"` handlers (the model's text); absent, such handlers were not compiled. */
  readonly answerPrompt?: PromptAnswerer | undefined;
}

/** How `explain` and introspection describe a compiled handler. */
export interface ClaudeHandlerInfo {
  /** The hookwise hook name(s) it compiled to. */
  readonly hook: string;
  readonly claudeEvent: string;
  readonly event: string;
  readonly kinds: readonly string[];
  readonly matcher: string | undefined;
  readonly origin: string;
  readonly where: string;
  /** The command line or the url. */
  readonly target: string;
  readonly timeoutSeconds: number;
  readonly failure: "open" | "closed";
  readonly scope: "all" | "self" | "children";
}

/** PreToolUse: what the transform part saw and answered, for the decide part of the same call. */
interface DecisionRecord {
  approved: unknown;
  /** `approved` is the script's own rewrite, in the tool's shape (else the input it saw, in the alias's). */
  rewritten: boolean;
  permission: ClaudeVerdict["permission"];
}

const DEFAULT_TIMEOUT_SECONDS = 60;
/** Claude Code's default for a prompt handler. */
const PROMPT_TIMEOUT_SECONDS = 30;
/** The engine's own timer stays out of the way of the handler's, which kills the process group. */
const GRACE_MS = 5_000;

function whereOf(spec: ClaudeHandlerSpec): string {
  const [, event, group, , index] = spec.path;
  return `${String(event)}[${String(group)}][${String(index)}]`;
}

export function hookName(spec: ClaudeHandlerSpec): string {
  return `${spec.origin}:${whereOf(spec)} ${scriptLabel(spec)}`;
}

/** What an answer says beyond its result: notices and warnings logged, context queued for the model. */
function report(
  call: ClaudeCall,
  event: ClaudeEvent,
  answer: ClaudeAnswer,
  verdict: ClaudeVerdict,
  log: HookLogger,
): void {
  const prefix = `Claude Code hook "${call.hook}"`;
  if (answer.unknownFields.length)
    log.warn(
      `${prefix} answered fields hookwise does not know (ignored): ${answer.unknownFields.join(", ")}`,
    );
  const named = answer.output?.hookSpecificOutput?.hookEventName;
  if (named !== undefined && named !== event.name)
    log.warn(`${prefix} answered hookSpecificOutput for ${named} on ${event.name}`);
  if (answer.output?.systemMessage) log.warn(`${prefix}: ${answer.output.systemMessage}`);
  if (verdict.notice) log.warn(`${prefix}: ${verdict.notice}`);
  if (verdict.context?.length) queueContext(call.context, verdict.context);
}

export function compileClaudeHandler(
  spec: ClaudeHandlerSpec,
  event: ClaudeEvent,
  runtime: ClaudeRuntime,
): { hooks: AnyHook[]; info: ClaudeHandlerInfo } {
  const name = hookName(spec);
  const matcher: ClaudeMatcher = compileClaudeMatcher(spec.matcher);
  const timeoutSeconds =
    spec.timeout ??
    event.timeout ??
    (spec.type === "prompt" ? PROMPT_TIMEOUT_SECONDS : DEFAULT_TIMEOUT_SECONDS);
  const failure = spec.onFailure ? (spec.onFailure === "block" ? "closed" : "open") : runtime.failure;
  const scope = event.scopable && spec.scope ? spec.scope : event.scope;
  const kind = spec.async ? "inspect" : event.kind;
  const onceKey = `claude-hooks:once:${name}`;
  const decisionKey = `claude-hooks:decision:${name}`;

  /** The call when the handler fires for this payload: its event's guard, the matcher, `once`. */
  const prepare = (payload: AnyEventPayload, context: HookContext): ClaudeCall | undefined => {
    if (event.fires && !event.fires(payload)) return undefined;
    const named = payload as { qualifiedName?: string; toolName?: string; args?: unknown };
    const tool =
      named.qualifiedName === undefined
        ? undefined
        : runtime.tools.view(named.qualifiedName, named.args, named.toolName);
    const call: ClaudeCall = { hook: name, payload, context, tool, tools: runtime.tools };
    if (event.subject && !matcher(event.subject(call))) return undefined;
    if (spec.once) {
      if (context.scratch.session.get(onceKey)) return undefined;
      context.scratch.session.set(onceKey, true);
    }
    return call;
  };

  const run = async (call: ClaudeCall): Promise<ClaudeVerdict> => {
    const input = JSON.stringify(claudeInput(call, event, runtime));
    const answer = await runClaudeHandler(spec, input, runtime, timeoutSeconds, call.context.signal);
    const verdict = event.verdict(answer, call);
    report(call, event, answer, verdict, runtime.log);
    return verdict;
  };

  const common = {
    name,
    on: event.event,
    timeoutMs: timeoutSeconds * 1000 + GRACE_MS,
    onError: failure === "open" ? "fail_open" : "fail_closed",
    scope,
  } as const;

  const main = {
    ...common,
    kind,
    async handler(
      payload: AnyEventPayload,
      context: HookContext,
    ): Promise<Flow | typeof NOT_FIRED | undefined> {
      const call = prepare(payload, context);
      if (!call) return NOT_FIRED;
      const verdict = await run(call);
      if (kind === "inspect") return undefined;
      if (event.permission) {
        // What the script approved: its own rewrite (in the tool's shape), or the input it saw.
        const rewrite = verdict.flow?.type === "rewriteArgs" ? verdict.flow : undefined;
        const record: DecisionRecord = rewrite
          ? { approved: rewrite.args, rewritten: true, permission: verdict.permission }
          : { approved: call.tool!.input, rewritten: false, permission: verdict.permission };
        context.scratch.operation.set(decisionKey, record);
      }
      if (kind === "decide") return verdict.permission ?? verdict.flow;
      return verdict.flow;
    },
  };
  const hooks = [main as unknown as AnyHook];

  if (event.permission && kind !== "inspect") {
    const decide = {
      ...common,
      kind: "decide",
      async handler(
        payload: AnyEventPayload,
        context: HookContext,
      ): Promise<Flow | typeof NOT_FIRED | undefined> {
        const record = context.scratch.operation.get<DecisionRecord>(decisionKey);
        if (record === undefined) return NOT_FIRED;
        const named = payload as { qualifiedName: string; toolName?: string; args: unknown };
        // The approved arguments, compared in the tool's own shape (the script's rewrite was mapped back).
        const current = record.rewritten
          ? named.args
          : runtime.tools.view(named.qualifiedName, named.args, named.toolName).input;
        if (isDeepStrictEqual(current, record.approved)) return record.permission ?? NOT_FIRED;
        // A later hook rewrote the call after this script answered: it decides on what will run.
        const call: ClaudeCall = {
          hook: name,
          payload,
          context,
          tool: runtime.tools.view(named.qualifiedName, named.args, named.toolName),
          tools: runtime.tools,
        };
        return (await run(call)).permission ?? NOT_FIRED;
      },
    };
    hooks.push(decide as unknown as AnyHook);
  }

  const info: ClaudeHandlerInfo = {
    hook: name,
    claudeEvent: spec.claudeEvent,
    event: event.event,
    kinds: hooks.map((hook) => hook.kind),
    matcher: spec.matcher,
    origin: spec.origin,
    where: whereOf(spec),
    target:
      spec.type === "command"
        ? [spec.command, ...(spec.args ?? [])].join(" ")
        : spec.type === "prompt"
          ? `prompt: ${spec.prompt}`
          : spec.url,
    timeoutSeconds,
    failure,
    scope,
  };
  return { hooks, info };
}
