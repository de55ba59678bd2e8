/**
 * Who handles Ctrl-C, SIGTERM and SIGHUP. By default the CLI closes every open resource and exits
 * 130; a long-running command (`serve`) takes them over for its own graceful stop.
 */
import { closeAllResources } from "../tools/open-resources.js";

type InterruptHandler = (signal: NodeJS.Signals) => void;

let current: InterruptHandler | undefined;

/** Takes over SIGINT / SIGTERM / SIGHUP until the returned function is called. */
export function takeInterrupts(handler: InterruptHandler): () => void {
  current = handler;
  return () => {
    if (current === handler) current = undefined;
  };
}

export function interruptHandler(): InterruptHandler | undefined {
  return current;
}

/**
 * Ctrl-C, SIGTERM and SIGHUP (the terminal closed): close every open resource — loaded
 * configs with their stores, MCP servers, language servers — then exit 130; a second
 * signal, or 5 s, exits at once. Every child process group still running (a `shell`
 * action's, a Claude Code hook's, what a server left behind) is killed as the process
 * exits (tools/process-groups.ts).
 */
export function closeOnInterrupt(): void {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const handler = interruptHandler();
    if (handler) return handler(signal);
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write("\nhookwise: interrupted; closing servers\n");
    setTimeout(() => process.exit(130), 5_000).unref();
    void closeAllResources().finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
}
