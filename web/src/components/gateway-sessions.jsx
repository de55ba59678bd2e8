/**
 * The MCP gateway's sessions: each MCP client that called tools through `hookwise mcp` on
 * this server's store, and, for the one picked, each call with what the config decided —
 * ran, rewritten, approved, denied (by which hook, why), failed — its hooks and its result.
 */
import { Json } from "./diff-view.jsx";

const REFUSED = new Set(["denied", "refused", "skipped", "failed"]);

function DecisionBadge({ decision }) {
  return (
    <span class={`badge decision decision-${REFUSED.has(decision) ? "refused" : "ran"}`}>{decision}</span>
  );
}

export function GatewaySessionList({ sessions, selected, onSelect }) {
  return (
    <section class="panel sessions gateway-sessions" data-testid="gateway-sessions">
      <h3>MCP gateway</h3>
      {sessions.length === 0 ? (
        <p class="muted">no client has called tools through hookwise mcp</p>
      ) : (
        <ul>
          {sessions.map((session) => (
            <li key={session.id} class={session.id === selected ? "selected" : ""}>
              <button
                type="button"
                class="session-item"
                data-testid="gateway-session"
                onClick={() => onSelect(session.id)}
              >
                <div>{session.client ?? <span class="muted">(unnamed client)</span>}</div>
                <div class="muted">
                  {session.agent} · {session.calls} {session.calls === 1 ? "call" : "calls"}
                  {session.lastDecision && (
                    <>
                      {" "}
                      · {session.lastTool} <DecisionBadge decision={session.lastDecision} />
                    </>
                  )}
                </div>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function GatewayCall({ call }) {
  return (
    <li class={`gateway-call${REFUSED.has(call.decision) ? " tool-error" : ""}`} data-testid="gateway-call">
      <div class="tool-line">
        <strong>{call.tool}</strong>
        <DecisionBadge decision={call.decision} />
        {call.hook && <span class="hook-name">by {call.hook}</span>}
        <span class="muted">{new Date(call.at).toLocaleTimeString()}</span>
      </div>
      {call.reason && (
        <div class="reason" data-testid="gateway-reason">
          {call.reason}
        </div>
      )}
      <Json value={call.args} />
      {call.ranArgs !== undefined && JSON.stringify(call.ranArgs) !== JSON.stringify(call.args) && (
        <div>
          <span class="muted">ran with</span> <Json value={call.ranArgs} />
        </div>
      )}
      {call.hooks.length > 0 && (
        <ul class="loose">
          {call.hooks.map((hook, index) => (
            <li key={`${hook.hook}-${index}`} class={`hook effect-${hook.effect}`}>
              <span class="hook-line">
                <span class="hook-name">{hook.hook}</span>
                <span class="muted">{hook.event}</span>
                <span class={`badge effect-${hook.effect}`}>{hook.effect}</span>
                {hook.reason && <span class="reason">{hook.reason}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}
      {call.result !== undefined && !REFUSED.has(call.decision) && (
        <div class="result">
          <span class="muted">result</span> <Json value={call.result} />
        </div>
      )}
    </li>
  );
}

export function GatewaySession({ session }) {
  if (!session) return <p class="muted empty">Loading the session…</p>;
  return (
    <section class="gateway-session" data-testid="gateway-session-view">
      <h3>
        {session.client ?? "unnamed client"} <span class="muted">· {session.agent}</span>
      </h3>
      <p class="muted">session {session.id}</p>
      <ul class="loose">
        {session.calls.map((call) => (
          <GatewayCall key={call.runId} call={call} />
        ))}
      </ul>
    </section>
  );
}
