/**
 * Where a tool's progress goes while it runs: a caller that can forward progress (the MCP
 * gateway, for a client that sent a progress token) runs the call with a sink, and a tool
 * that hears of progress (an MCP toolset, from its upstream server) reports to the sink of
 * the call it runs in. Calls without a sink pay nothing (no context is entered).
 */
import type { AsyncLocalStorage } from "node:async_hooks";

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export type ToolProgressSink = (progress: ToolProgress) => void;

let storage: AsyncLocalStorage<ToolProgressSink> | undefined;

/** Runs `body` with `sink` receiving the progress of the tools it calls. */
export function withToolProgress<T>(sink: ToolProgressSink, body: () => T): T {
  storage ??= new (process.getBuiltinModule("node:async_hooks").AsyncLocalStorage)<ToolProgressSink>();
  return storage.run(sink, body);
}

/** The sink of the call running now, if its caller gave one. */
export function toolProgressSink(): ToolProgressSink | undefined {
  return storage?.getStore();
}
