/**
 * `POST /hooks/:harness`: a coding-agent harness's hook event (the JSON `hookwise hook` reads
 * on stdin) answered by the served config, which stays loaded — a hook call then costs a
 * request, not a process that loads the config. The body of a 200 is what the hook prints
 * on stdout (empty: nothing to say).
 *
 * Anything this route would not answer exactly as `hookwise hook` would is refused, and the
 * hook command falls back to deciding itself (which fails closed on its own): a request
 * naming another config (`x-hookwise-config`), a config changed on disk since the server
 * loaded it, an answer that is an exit code rather than JSON, an approval to wait for in
 * the inbox, a harness the config does not guard.
 */

import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Hono } from "hono";
import { loadRecordAt, loadRunRecords, recordedSessions, saveRunRecord } from "../../agent/run-recorder.js";
import { harnessRunRecord } from "../../config/harness-record.js";
import { type HarnessHooks, harnessHooksOf } from "../../config/load-harness-hooks.js";
import { z } from "../../deps/zod.js";
import { decideHarnessEvent } from "../../harnesses/decide-harness-event.js";
import { HarnessInputError } from "../../harnesses/harness-input-error.js";
import { HARNESSES } from "../../harnesses/protocols.js";
import { HARNESS_NAMES, type HarnessName } from "../../harnesses/types.js";
import { HttpError } from "../http/http-error.js";
import { sendJson } from "../http/json-response.js";
import { readBody } from "../http/request-body.js";
import type { ServerContext } from "../server-context.js";

/** A file's identity, symlinks followed (`undefined`: not there). */
function identity(path: string): string | undefined {
  try {
    const stat = statSync(path);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}

/** A header sent percent-encoded, or else as it is; a bad encoding is a 400. */
function headerValue(encoded: string | undefined, plain: string | undefined): string | undefined {
  if (encoded === undefined) return plain;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new HttpError(400, "bad_header", "a x-hookwise-*-encoded header is not percent-encoded UTF-8");
  }
}

/** The files' identity when loaded: a change on disk to any makes the server's answers stale. */
function filesStamp(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = statSync(file);
        return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
      } catch {
        return "gone";
      }
    })
    .join("|");
}

export function hookRoutes(app: Hono, ctx: ServerContext, serverLog: (line: string) => void): void {
  const file = ctx.loaded.file;
  // The config and the Claude Code settings files whose hooks it runs (`claude_hooks`).
  const claudeHooks = ctx.loaded.config.claude_hooks;
  const watched = [file, ...[claudeHooks ?? []].flat().map((path) => resolve(ctx.loaded.dir, path))];
  const loadedStamp = filesStamp(watched);
  // The served file's identity (device and inode, symlinks followed) when it was loaded: a
  // request naming a path is answered only when that path is this very file now.
  const servedFile = identity(file);
  const built = new Map<string, Omit<HarnessHooks, "close">>();
  const log = {
    debug() {},
    info: (message: string) => serverLog(`hook: ${message}`),
    warn: (message: string) => serverLog(`hook: warning: ${message}`),
    error: (message: string) => serverLog(`hook: error: ${message}`),
  };

  // The harnesses' sessions, as `hookwise history` lists them: every hook event the store has
  // a record of (answered here or by a hook command on the same store).
  app.get("/hooks/sessions", async (c) => {
    const sessions = [];
    for (const session of (await recordedSessions(ctx.loaded.store)).slice(0, 200)) {
      const latest = await loadRecordAt(ctx.loaded.store, session.latestKey);
      if (latest?.harness === undefined) continue;
      sessions.push({
        id: session.sessionId,
        harness: latest.harness.name,
        events: session.runs,
        lastActiveAt: latest.startedAt,
        lastEvent: latest.harness.event,
        lastDecision: latest.harness.decision,
      });
    }
    return sendJson(ctx, c, { sessions });
  });

  app.get("/hooks/sessions/:id", async (c) => {
    const id = c.req.param("id");
    const records = (await loadRunRecords(ctx.loaded.store, id)).filter((record) => record.harness);
    if (records.length === 0) throw new HttpError(404, "not_found", `no harness session "${id}" is recorded`);
    return sendJson(ctx, c, {
      id,
      harness: records[0]!.harness!.name,
      events: records.map((record) => ({
        runId: record.runId,
        at: record.startedAt,
        event: record.harness!.event,
        about: record.input,
        decision: record.harness!.decision,
        ...(record.reason !== undefined ? { reason: record.reason } : {}),
        ...(record.hook !== undefined ? { hook: record.hook } : {}),
      })),
    });
  });

  app.post("/hooks/:harness", async (c) => {
    const name = c.req.param("harness");
    if (!(HARNESS_NAMES as readonly string[]).includes(name))
      throw new HttpError(404, "not_found", `no harness "${name}" (${HARNESS_NAMES.join(", ")})`);
    const harness = name as HarnessName;
    // The hook command sends the config and agent percent-encoded (any byte of a path as it
    // is); curl sends the config as it is.
    const wanted = headerValue(c.req.header("x-hookwise-config-encoded"), c.req.header("x-hookwise-config"));
    const agent =
      headerValue(c.req.header("x-hookwise-agent-encoded"), c.req.header("x-hookwise-agent")) || undefined;
    if (wanted !== undefined && (servedFile === undefined || identity(wanted) !== servedFile))
      throw new HttpError(409, "other_config", `this server answers for ${file}, not ${wanted}`);
    if (filesStamp(watched) !== loadedStamp)
      throw new HttpError(
        409,
        "config_changed",
        `${file} (or a Claude Code settings file it runs) changed since the server loaded it: restart the server to answer with it`,
      );
    const builtKey = `${harness}\u0000${agent ?? ""}`;
    let hooks = built.get(builtKey);
    if (hooks === undefined) {
      try {
        hooks = harnessHooksOf(ctx.loaded, harness, agent);
      } catch (error) {
        throw new HttpError(409, "not_guarded", (error as Error).message);
      }
      built.set(builtKey, hooks);
    }
    const protocol = HARNESSES[harness];
    // Any JSON object: the harness's protocol checks the fields it needs, with its own messages.
    const payload = await readBody(c, z.record(z.string(), z.unknown()));
    let event: ReturnType<typeof protocol.parse>;
    try {
      event = protocol.parse(payload);
    } catch (error) {
      if (!HarnessInputError.isInstance(error)) throw error;
      throw new HttpError(400, "bad_event", error.message);
    }
    // An ask waits in the inbox, bounded by the hook's own deadline: the hook command waits
    // itself (asked here first, a call's counters would count it twice).
    if (
      ctx.loaded.config.runtime.approvals === "inbox" &&
      (event.kind === "tool_call" || event.kind === "approval_request")
    )
      throw new HttpError(
        409,
        "waits_in_inbox",
        "with approvals: inbox the hook command decides calls itself",
      );
    const runId = randomUUID();
    const startedAt = Date.now();
    const outcome = await decideHarnessEvent(event, {
      protocol,
      registry: hooks.registry,
      policies: hooks.policies,
      store: hooks.store,
      log,
      runId,
      signal: ctx.closing,
      telemetry: hooks.telemetry,
      mask: hooks.mask,
    });
    const answer = protocol.answer(event, outcome.verdict);
    if (answer.exitCode !== 0)
      throw new HttpError(422, "exit_code", "the answer is an exit code: the hook command answers it itself");
    await saveRunRecord(hooks.store, harnessRunRecord(event, outcome, runId, startedAt, hooks.mask));
    // The header tells the hook command the 200 is this route's answer, not a proxy's page.
    return c.body(answer.stdout ?? "", 200, { "content-type": "application/json", "x-hookwise-answer": "1" });
  });
}
