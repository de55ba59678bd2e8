export function SessionList({ sessions, selected, agents, onSelect, onCreate }) {
  return (
    <section class="panel sessions">
      <h3>Sessions</h3>
      <div class="new-session">
        {agents.length === 0 ? (
          <p class="muted">this server runs no agent (its config declares no model)</p>
        ) : agents.length > 1 ? (
          agents.map((agent) => (
            <button key={agent.id} type="button" onClick={() => onCreate(agent.id)}>
              + {agent.id}
            </button>
          ))
        ) : (
          <button type="button" data-testid="new-session" onClick={() => onCreate(agents[0]?.id)}>
            + New session
          </button>
        )}
      </div>
      <ul>
        {sessions.map((session) => (
          <li key={session.id} class={session.id === selected ? "selected" : ""}>
            <button
              type="button"
              class="session-item"
              data-testid="session"
              onClick={() => onSelect(session.id)}
            >
              <div>{session.title ?? <span class="muted">(new)</span>}</div>
              <div class="muted">
                {session.agent} · <span class={`status-${session.status}`}>{session.status}</span>
              </div>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
