/**
 * MCP servers are started once per process: every toolset (in any loaded config) whose
 * spec names the same server shares one connection, counted by leases. The last
 * `release()` closes it; `closeAllResources()` (the CLI's SIGINT path) closes it anyway.
 */
import { trackResource } from "../open-resources.js";
import { McpConnection, type McpConnectionOptions } from "./mcp-connection.js";
import { type McpServerSpec, specKey } from "./mcp-server-spec.js";

interface Entry {
  connection: McpConnection;
  leases: number;
  untrack: () => void;
}

const pool = new Map<string, Entry>();

export interface McpLease {
  readonly connection: McpConnection;
  /** Gives the lease back; the connection closes when no lease is left. Idempotent. */
  release(): Promise<void>;
}

export function acquireMcpConnection(spec: McpServerSpec, options: McpConnectionOptions): McpLease {
  const key = specKey(spec);
  let entry = pool.get(key);
  if (!entry || entry.connection.closed) {
    const connection = new McpConnection(spec, options);
    const created: Entry = {
      connection,
      leases: 0,
      untrack: trackResource({
        close: async () => {
          if (pool.get(key) === created) pool.delete(key);
          await connection.close();
        },
      }),
    };
    entry = created;
    pool.set(key, entry);
  }
  const held = entry;
  held.leases++;
  let released = false;
  return {
    connection: held.connection,
    async release() {
      if (released) return;
      released = true;
      held.leases--;
      if (held.leases > 0) return;
      if (pool.get(key) === held) pool.delete(key);
      held.untrack();
      await held.connection.close();
    },
  };
}
