/**
 * The MCP gateway's sessions, from the records in the store: `GET /gateway/sessions` lists
 * the sessions of the MCP clients that called tools through `hookwise mcp` on this store
 * (a gateway is a process of its own; its records are what this server sees), and
 * `GET /gateway/sessions/:id` one session's calls, each with its arguments, what the
 * config decided, the hooks that fired and the result the client got.
 */
import type { Hono } from "hono";
import { describeVerdict, verdictOf } from "../../agent/run-diff.js";
import type { RecordedCall, RunRecord } from "../../agent/run-record.js";
import { loadRecordAt, loadRunRecords, recordedSessions } from "../../agent/run-recorder.js";
import { reasonOf } from "../../hooks/trace-changes.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/json-response.js";
import type { ServerContext } from "../server-context.js";

/** How many sessions the list looks at, most recent first. */
const LISTED = 200;

/** The one call a gateway record holds. */
function callOf(record: RunRecord): RecordedCall | undefined {
  return record.steps[0]?.calls[0];
}

function text(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

/**
 * What the config decided about a call: it ran (`ran`; `rewritten`: with arguments a hook
 * changed; `approved`: after an approval), did not (`denied`, `skipped`, `refused`: an
 * approval refused or invalid arguments; the reason is what the client got), or `failed`
 * (a hook's failure, or the tool's own error).
 */
function decisionOf(call: RecordedCall): {
  decision: string;
  hook?: string;
  reason?: string;
  summary: string;
} {
  const verdict = verdictOf(call);
  const base = {
    summary: describeVerdict(verdict),
    ...(verdict.hook !== undefined ? { hook: verdict.hook } : {}),
  };
  if (!call.executed) {
    const decision = ["denied", "failed", "skipped"].includes(verdict.kind) ? verdict.kind : "refused";
    return { ...base, decision, reason: text(call.result ?? verdict.reason ?? "") };
  }
  if (call.isError) return { ...base, decision: "failed", reason: text(call.result ?? "") };
  return { ...base, decision: verdict.kind === "asked" ? "approved" : verdict.kind };
}

function callView(record: RunRecord, call: RecordedCall) {
  return {
    runId: record.runId,
    at: record.startedAt,
    tool: call.qualifiedName,
    args: call.args,
    ...(call.ranArgs !== undefined ? { ranArgs: call.ranArgs } : {}),
    ...decisionOf(call),
    ...(call.result !== undefined ? { result: call.result } : {}),
    isError: call.isError === true,
    hooks: call.hooks.map((entry) => {
      const reason = reasonOf(entry);
      return {
        hook: entry.hook,
        event: entry.event,
        effect: entry.effect,
        ...(reason !== undefined ? { reason } : {}),
      };
    }),
  };
}

export function gatewayRoutes(app: Hono, ctx: ServerContext): void {
  app.get("/gateway/sessions", async (c) => {
    const sessions = [];
    for (const session of (await recordedSessions(ctx.loaded.store)).slice(0, LISTED)) {
      const latest = await loadRecordAt(ctx.loaded.store, session.latestKey);
      if (latest?.gateway === undefined) continue;
      const call = callOf(latest);
      sessions.push({
        id: session.sessionId,
        agent: latest.agent,
        ...(latest.gateway.client !== undefined ? { client: latest.gateway.client } : {}),
        calls: session.runs,
        lastActiveAt: latest.startedAt,
        ...(call ? { lastTool: call.qualifiedName, lastDecision: decisionOf(call).decision } : {}),
      });
    }
    return sendJson(ctx, c, { sessions });
  });

  app.get("/gateway/sessions/:id", async (c) => {
    const id = c.req.param("id");
    const records = (await loadRunRecords(ctx.loaded.store, id)).filter((record) => record.gateway);
    if (records.length === 0)
      throw new HttpError(404, "not_found", `no MCP gateway session "${id}" is recorded`);
    const first = records[0]!;
    return sendJson(ctx, c, {
      id,
      agent: first.agent,
      ...(first.gateway!.client !== undefined ? { client: first.gateway!.client } : {}),
      calls: records.flatMap((record) => {
        const call = callOf(record);
        return call ? [callView(record, call)] : [];
      }),
    });
  });
}
