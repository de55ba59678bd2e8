/**
 * Replaying recorded runs through an agent (possibly built from a changed config) without
 * calling its model or its tools: the model answers each attempt with the recorded answer,
 * a tool answers with the result recorded for that call. Hooks and policies run for real,
 * so the replay's record says what the agent decides now. A call that did not run when
 * recorded but would run now has no recorded result: it answers with an error saying so
 * (and `unrecorded` lists it). An `ask` is approved when the call ran then, denied when not.
 * Replays run one call at a time, in a store of their own (nothing is written where the
 * recorded session lives). A replay costs the same per run however long its session: its
 * model reads no prompt and its store lends each run the session's transcript (no copy).
 */
import type { LanguageModel } from "../models/language-model.js";
import { type ScriptEntry, scriptedModel } from "../models/scripted-model.js";
import { MemoryStore } from "../state/memory-store.js";
import type { StateStore } from "../state/state-store.js";
import type { ResolvedTool } from "../tools/resolved-tool.js";
import { createAgent } from "./create-agent.js";
import type { RecordedCall, RunRecord } from "./run-record.js";
import type { Agent } from "./types.js";

export interface ReplayedRun {
  recorded: RunRecord;
  replayed: RunRecord;
  /** Calls that would run now but did not then: their result is unknown (they got an error). */
  unrecorded: string[];
}

export const UNRECORDED = "not recorded: this call did not run when the session was recorded";

/** The recorded attempts as a script for the scripted model. */
export function scriptOf(record: RunRecord): ScriptEntry[] {
  return record.attempts.map((attempt): ScriptEntry => {
    if (attempt.error) {
      const { message, status, retryable } = attempt.error;
      return { error: { message, retryable, ...(status !== undefined ? { status } : {}) } };
    }
    const answer = attempt.answer!;
    const entry: ScriptEntry = {
      text: answer.text,
      toolCalls: answer.toolCalls.map((call) => ({ id: call.id, name: call.name, args: call.args })),
    };
    if (answer.usage.inputTokens !== undefined || answer.usage.outputTokens !== undefined) {
      entry.usage = {
        ...(answer.usage.inputTokens !== undefined ? { inputTokens: answer.usage.inputTokens } : {}),
        ...(answer.usage.outputTokens !== undefined ? { outputTokens: answer.usage.outputTokens } : {}),
      };
    }
    return entry;
  });
}

function callsOf(record: RunRecord): Map<string, RecordedCall> {
  return new Map(record.steps.flatMap((step) => step.calls.map((call) => [call.toolCallId, call] as const)));
}

/** The agent's tools with bodies that answer from the record. */
function replayTools(
  tools: readonly ResolvedTool[],
  record: RunRecord,
  unrecorded: string[],
): ResolvedTool[] {
  const calls = callsOf(record);
  return tools.map((tool) => ({
    ...tool,
    execute: (_args: unknown, options: { toolCallId: string }) => {
      const call = calls.get(options.toolCallId);
      if (!call?.executed || call.result === undefined) {
        unrecorded.push(options.toolCallId);
        throw new Error(UNRECORDED);
      }
      if (call.isError)
        throw new Error(typeof call.result === "string" ? call.result : JSON.stringify(call.result));
      return call.result;
    },
  }));
}

/**
 * Replays a session's recorded runs, in order, through `agent`'s hooks, policies and tools
 * (by name): one new run per recorded run, in one new session.
 */
export async function replayRuns(
  agent: Agent,
  records: readonly RunRecord[],
  options: { store?: StateStore; sessionId?: string } = {},
): Promise<ReplayedRun[]> {
  const store = options.store ?? new MemoryStore({ lendTranscripts: true });
  const replayed: ReplayedRun[] = [];
  const sessionId = options.sessionId ?? `replay-${records[0]?.sessionId ?? "session"}`;
  for (const then of records) {
    const unrecorded: string[] = [];
    const calls = callsOf(then);
    let now: RunRecord | undefined;
    // It answers from the record: the loop need not build it a prompt from the session's
    // whole transcript at every step (which made replaying many runs quadratic).
    const model: LanguageModel = scriptedModel(scriptOf(then), {
      modelId: `replay of run ${then.runId}`,
      source: `the record of run ${then.runId}`,
      readsPrompt: false,
    });
    const replayAgent = createAgent({
      ...agent.runtime.options,
      name: agent.runtime.name,
      model,
      models: () => model,
      tools: replayTools(agent.runtime.tools, then, unrecorded),
      agents: {},
      toolConcurrency: 1,
      retry: { initialDelayMs: 0, maxDelayMs: 0 },
      store,
      recordRuns: false,
      onRunRecord: (record) => {
        now = record;
      },
      approvals: {
        handler: (request) =>
          calls.get(request.toolCallId)?.executed
            ? { approved: true }
            : { approved: false, reason: "not approved when the session was recorded" },
      },
    });
    const result = await replayAgent.run(then.input, { sessionId });
    // A run that ended without a record (it threw before finishing) cannot be compared.
    replayed.push({ recorded: then, replayed: now ?? emptyRecord(then, result.outcome), unrecorded });
  }
  return replayed;
}

function emptyRecord(then: RunRecord, outcome: RunRecord["outcome"]): RunRecord {
  return { ...then, outcome, attempts: [], steps: [], hooks: [] };
}
