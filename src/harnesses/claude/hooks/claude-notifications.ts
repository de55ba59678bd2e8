/**
 * `Notification` handlers on hookwise's notification bus: each notification the `notify`
 * action publishes runs the handlers whose matcher takes `notify`, with the notification's
 * title and message. They block nothing; a failure is logged. `close()` stops listening and
 * waits for the handlers still running.
 */
import type { ClaudeRuntime } from "./compile-claude-handler.js";
import { hookName } from "./compile-claude-handler.js";
import { runClaudeHandler } from "./handlers/run-claude-handler.js";
import type { ClaudeHandlerSpec } from "./settings/claude-handler-spec.js";
import { compileClaudeMatcher } from "./settings/claude-matcher.js";

/** What the handlers read of a notification (the config's `notify` bus publishes more). */
export interface ClaudeNotification {
  sessionId: string;
  title: string;
  message: string;
}

export interface NotificationSource {
  subscribe(listener: (notification: ClaudeNotification) => void): () => void;
}

export function listenForNotifications(
  specs: readonly ClaudeHandlerSpec[],
  source: NotificationSource,
  runtime: ClaudeRuntime,
): { close(): Promise<void> } {
  const pending = new Set<Promise<void>>();
  const handlers = specs.map((spec) => ({
    spec,
    matches: compileClaudeMatcher(spec.matcher),
    name: hookName(spec),
  }));
  const unsubscribe = source.subscribe((note) => {
    for (const { spec, matches, name } of handlers) {
      if (!matches(["notify"])) continue;
      const input = JSON.stringify({
        session_id: note.sessionId,
        transcript_path: runtime.transcripts.pathFor(note.sessionId),
        cwd: runtime.projectDir,
        permission_mode: "default",
        hook_event_name: "Notification",
        message: note.message,
        title: note.title,
        notification_type: "notify",
      });
      const running = runClaudeHandler(spec, input, runtime, spec.timeout ?? 60)
        .then((answer) => {
          if (answer.blocked && answer.stderr)
            runtime.log.warn(`Claude Code hook "${name}": ${answer.stderr}`);
        })
        .catch((error: Error) => runtime.log.warn(`Claude Code hook "${name}" failed: ${error.message}`))
        .finally(() => pending.delete(running));
      pending.add(running);
    }
  });
  return {
    async close() {
      unsubscribe();
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
