import { useState } from "preact/hooks";
import { assistantText, outcomeOf } from "../timeline-model.js";

const OUTCOME_TEXT = {
  suspended: "waiting for your approval: approve or deny it in the timeline or the inbox",
  terminated: "terminated",
  max_steps: "stopped: too many steps",
  error: "failed",
};

export function Chat({ runs, busy, onSend }) {
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const submit = async (event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    setText("");
    setError("");
    try {
      await onSend(message);
    } catch (failure) {
      setError(failure.message);
      setText(message);
    }
  };
  return (
    <div class="chat">
      <div class="messages" data-testid="messages">
        {runs.map((run) => {
          const outcome = outcomeOf(run.events);
          const said = assistantText(run.events);
          const firstStart = run.events.find((event) => event.type === "run-start");
          return (
            <div key={run.runId} class="exchange">
              <div class="bubble user">{run.input ?? firstStart?.input}</div>
              {(said || !outcome) && (
                <div class="bubble assistant" data-testid="assistant">
                  {said || <span class="muted">…</span>}
                </div>
              )}
              {outcome && outcome.outcome !== "completed" && (
                <div class={`bubble status outcome-${outcome.outcome}`}>
                  {OUTCOME_TEXT[outcome.outcome] ?? outcome.outcome}
                  {outcome.reason && outcome.outcome !== "suspended" ? `: ${outcome.reason}` : ""}
                </div>
              )}
            </div>
          );
        })}
      </div>
      {error && <div class="error-line">{error}</div>}
      <form class="composer" onSubmit={submit}>
        <input
          data-testid="message-input"
          value={text}
          placeholder={busy ? "the agent is working…" : "Message the agent"}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button type="submit" data-testid="send" disabled={!text.trim()}>
          Send
        </button>
      </form>
    </div>
  );
}
