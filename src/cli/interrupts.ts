/**
 * Who handles Ctrl-C, SIGTERM and SIGHUP. By default the CLI closes every open resource and exits
 * 130; a long-running command (`serve`) takes them over for its own graceful stop.
 */
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
