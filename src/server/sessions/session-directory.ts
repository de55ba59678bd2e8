/**
 * What the server keeps of its sessions in the StateStore, so that every replica sharing
 * the store sees the same sessions: each session's metadata and each run's timeline (the
 * run's events, text deltas merged). The transcript itself is the agent's session record.
 * Writes to one session happen under its lease (session-lease.ts), so a read-modify-write
 * of its metadata never races another replica.
 *
 *   server:sessions:<id>   SessionMeta
 *   server:runs:<runId>    RunTimeline (kept 30 days, deleted with its session)
 */
import type { StateStore } from "../../state/state-store.js";
import { HttpError } from "../http/http-error.js";
import type { RunTimeline } from "../runs/run-timeline.js";

export interface SessionMeta {
  id: string;
  /** The agent its messages go to unless a message names another. */
  agent: string;
  createdAt: number;
  lastActiveAt: number;
  /** The first message, shortened: what a session list shows. */
  title?: string;
  /** Its runs, oldest first (the last 200). */
  runs: string[];
  /** A run of it suspended in this server and not yet resumed. */
  suspendedRunId?: string;
}

const META = "server:sessions:";
const RUN = "server:runs:";
const TIMELINE_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const MAX_RUNS = 200;
/** Letters, digits, `_`, `-`, `.` (not first): safe in a URL path and in a store key. */
const SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function checkSessionId(id: string): string {
  if (!SESSION_ID.test(id)) {
    throw new HttpError(
      400,
      "invalid_session_id",
      `session id "${id.slice(0, 40)}" is not valid: use 1-128 letters, digits, "_", "-" or "." (not first)`,
    );
  }
  return id;
}

export class SessionDirectory {
  readonly #store: StateStore;

  constructor(store: StateStore) {
    this.#store = store;
  }

  /** Creates the session, or returns it unchanged when the id exists. */
  async create(
    id: string,
    agent: string,
    now = Date.now(),
  ): Promise<{ meta: SessionMeta; created: boolean }> {
    const meta: SessionMeta = { id: checkSessionId(id), agent, createdAt: now, lastActiveAt: now, runs: [] };
    if (await this.#store.setIfAbsent(META + id, meta)) return { meta, created: true };
    return { meta: (await this.get(id))!, created: false };
  }

  get(id: string): Promise<SessionMeta | undefined> {
    return this.#store.get<SessionMeta>(META + id);
  }

  async require(id: string): Promise<SessionMeta> {
    const meta = await this.get(checkSessionId(id));
    if (!meta)
      throw new HttpError(404, "unknown_session", `no session "${id}" (it ended, or was never created)`);
    return meta;
  }

  async list(): Promise<SessionMeta[]> {
    const keys = await this.#store.keys(META);
    const metas = await Promise.all(keys.map((key) => this.#store.get<SessionMeta>(key)));
    return metas
      .filter((meta): meta is SessionMeta => meta !== undefined)
      .sort((a, b) => b.lastActiveAt - a.lastActiveAt);
  }

  /** Changes a session's metadata (call under its lease); a session deleted meanwhile stays deleted. */
  async update(id: string, change: (meta: SessionMeta) => void): Promise<SessionMeta | undefined> {
    const meta = await this.get(id);
    if (!meta) return undefined;
    change(meta);
    if (meta.runs.length > MAX_RUNS) meta.runs.splice(0, meta.runs.length - MAX_RUNS);
    await this.#store.set(META + id, meta);
    return meta;
  }

  async remove(id: string): Promise<void> {
    const meta = await this.get(id);
    await this.#store.delete(META + id);
    for (const runId of meta?.runs ?? []) await this.#store.delete(RUN + runId);
  }

  timeline(runId: string): Promise<RunTimeline | undefined> {
    return this.#store.get<RunTimeline>(RUN + runId);
  }

  saveTimeline(timeline: RunTimeline): Promise<void> {
    return this.#store.set(RUN + timeline.runId, timeline, { ttlMs: TIMELINE_TTL_MS });
  }
}
