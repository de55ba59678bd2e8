/**
 * What the routes share. Per process: the live runs, the metrics, the shutdown signal. In
 * the StateStore (shared by replicas): sessions, timelines, leases, suspended runs (read
 * through the agents), and the feed's events (on a store that broadcasts).
 */
import type { LoadedConfig } from "../config/load-config.js";
import type { AnyHook } from "../hooks/define-hook.js";
import { AgentPool } from "./agent-pool.js";
import { ApprovalInbox } from "./approval-inbox.js";
import { type Scrubber, secretScrubber, toolsetSecrets } from "./http/secret-scrubber.js";
import { LiveRuns } from "./runs/live-runs.js";
import { ServerFeed } from "./server-feed.js";
import { ServerMetrics } from "./server-metrics.js";
import type { ServerSettings } from "./server-settings.js";
import { SessionDirectory } from "./sessions/session-directory.js";
import { SessionLeases } from "./sessions/session-lease.js";

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

export function createServerContext(
  loaded: LoadedConfig,
  settings: ServerSettings,
  options: {
    env: NodeJS.ProcessEnv;
    closing: AbortSignal;
    hooks?: ((agentId: string) => readonly AnyHook[]) | undefined;
    log?: (line: string) => void;
  },
): ServerContext {
  // Toolsets expand ${VAR} from the process's environment.
  const scrub = secretScrubber(options.env, [
    ...(settings.token ? [settings.token] : []),
    ...toolsetSecrets(loaded.config.toolsets, options.env, process.env),
  ]);
  const runs = new LiveRuns(scrub);
  const metrics = new ServerMetrics();
  const agents = new AgentPool(loaded, metrics, runs, options.hooks);
  return {
    loaded,
    settings,
    agents,
    directory: new SessionDirectory(loaded.store),
    // Requests take the same lease time as runs (runtime.session_lease, default 30 s).
    leases: new SessionLeases(loaded.store, leaseSettings(loaded.config.runtime?.session_lease)),
    runs,
    inbox: new ApprovalInbox(agents, loaded.store),
    feed: new ServerFeed(loaded.notifications, { store: loaded.store, log: options.log }),
    metrics,
    scrub,
    closing: options.closing,
    draining: false,
  };
}

function leaseSettings(seconds: number | undefined): { ttlMs?: number } {
  return seconds === undefined ? {} : { ttlMs: seconds * 1000 };
}
