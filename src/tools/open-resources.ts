/**
 * The process's open resources (MCP servers, language servers, loaded configs): each
 * registers itself while open, so a shutdown path (the CLI's signal handler) can close
 * every one of them, in reverse order of opening, without knowing who opened what. The
 * child processes behind them are tracked apart (process-groups.ts): whatever a close
 * leaves running is killed as the process exits.
 */

export interface Closeable {
  close(): Promise<void>;
}

const open = new Set<Closeable>();

/** Tracks `resource` until the returned disposer is called (call it from `close()`). */
export function trackResource(resource: Closeable): () => void {
  open.add(resource);
  return () => {
    open.delete(resource);
  };
}

/** How many resources are open (tests check that nothing leaks). */
export function openResourceCount(): number {
  return open.size;
}

/**
 * Closes every tracked resource, newest first (a config closes before the servers it
 * holds would be closed on their own). A failing close is reported, never thrown, so one
 * broken server cannot keep the others open.
 */
export async function closeAllResources(
  report: (error: unknown) => void = (error) =>
    console.error(`[hookwise] closing a resource failed: ${(error as Error)?.message ?? error}`),
): Promise<void> {
  while (open.size > 0) {
    const resource = [...open].at(-1)!;
    open.delete(resource);
    try {
      await resource.close();
    } catch (error) {
      report(error);
    }
  }
}
