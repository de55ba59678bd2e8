/**
 * What the routes share. Per process: the live runs, the feed, the metrics, the shutdown
 * signal. In the StateStore (shared by replicas): sessions, timelines, leases, suspended
 * runs (read through the agents).
 */
import type { LoadedConfig } from "../config/load-config.js";
import type { AgentPool } from "./agent-pool.js";
import type { ApprovalInbox } from "./approval-inbox.js";
import type { LiveRuns } from "./live-runs.js";
import type { Scrubber } from "./secret-scrubber.js";
import type { ServerFeed } from "./server-feed.js";
import type { ServerMetrics } from "./server-metrics.js";
import type { ServerSettings } from "./server-settings.js";
import type { SessionDirectory } from "./session-directory.js";
import type { SessionLeases } from "./session-lease.js";

export interface ServerContext {
  readonly loaded: LoadedConfig;
  readonly settings: ServerSettings;
  readonly agents: AgentPool;
  readonly directory: SessionDirectory;
  readonly leases: SessionLeases;
  readonly runs: LiveRuns;
  readonly inbox: ApprovalInbox;
  readonly feed: ServerFeed;
  readonly metrics: ServerMetrics;
  readonly scrub: Scrubber;
  /** Aborted when the server starts shutting down: open event streams end. */
  readonly closing: AbortSignal;
  /** Set by a shutdown: new runs are refused (503). */
  draining: boolean;
}
