/**
 * The page: sessions on the left with the MCP gateway's sessions, the approval inbox and
 * live notifications; the chat of the selected session in the middle (or a gateway
 * session's calls and decisions); the timeline of its runs on the right — every step,
 * attempt, tool call and hook firing, live.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, follow, setToken, UnauthorizedError } from "../api.js";
import { appendEvent } from "../timeline-model.js";
import { Chat } from "./chat.jsx";
import { GatewaySession, GatewaySessionList } from "./gateway-sessions.jsx";
import { Inbox } from "./inbox.jsx";
import { Notifications } from "./notifications.jsx";
import { SessionList } from "./session-list.jsx";
import { RunTimeline } from "./timeline.jsx";

function TokenForm({ onToken }) {
  const [value, setValue] = useState("");
  return (
    <form
      class="token-form"
      onSubmit={(event) => {
        event.preventDefault();
        setToken(value.trim());
        onToken();
      }}
    >
      <p>This server needs its token (HOOKWISE_SERVER_TOKEN). It is kept for this tab only.</p>
      <input type="password" value={value} onInput={(event) => setValue(event.currentTarget.value)} />
      <button type="submit">Connect</button>
    </form>
  );
}

/** A live event joins its run: a replayed run starts over, a resumed one continues after its suspension. */
function applyEvent(runs, liveRunId, event) {
  if (event.type === "run-start") {
    const existing = runs.find((run) => run.runId === event.runId);
    if (!existing) return [...runs, { runId: event.runId, input: event.input, events: [event] }];
    let kept = [];
    if (event.resumed) {
      const lastFinish = existing.events.findLastIndex((item) => item.type === "run-finish");
      kept = existing.events.slice(0, lastFinish + 1);
    }
    return runs.map((run) => (run === existing ? { ...run, events: [...kept, event] } : run));
  }
  return runs.map((run) =>
    run.runId === liveRunId ? { ...run, events: appendEvent([...run.events], event) } : run,
  );
}

export function App() {
  const [authorized, setAuthorized] = useState(true);
  const [agents, setAgents] = useState([]);
  const [sessions, setSessions] = useState([]);
  const [selected, setSelected] = useState(undefined);
  const [gatewaySessions, setGatewaySessions] = useState([]);
  const [gatewaySelected, setGatewaySelected] = useState(undefined);
  const [gatewaySession, setGatewaySession] = useState(undefined);
  const [runs, setRuns] = useState([]);
  const [status, setStatus] = useState("idle");
  const [inbox, setInbox] = useState([]);
  const [notes, setNotes] = useState([]);
  const [attempt, setAttempt] = useState(0);
  const liveRun = useRef(undefined);

  const guard = useCallback(async (work) => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof UnauthorizedError) setAuthorized(false);
      else throw error;
    }
  }, []);

  const loadSessions = useCallback(
    () => guard(async () => setSessions((await api("/sessions")).sessions)),
    [guard],
  );
  const loadInbox = useCallback(
    () => guard(async () => setInbox((await api("/approvals")).approvals)),
    [guard],
  );
  const loadGateway = useCallback(
    () => guard(async () => setGatewaySessions((await api("/gateway/sessions")).sessions)),
    [guard],
  );

  const loadSession = useCallback(
    (id) =>
      guard(async () => {
        const session = await api(`/sessions/${encodeURIComponent(id)}`);
        setStatus(session.status);
        const timelines = await Promise.all(session.runs.map((run) => api(`/runs/${run.runId}`)));
        setRuns(
          timelines.map((timeline) => ({
            runId: timeline.runId,
            input: timeline.input,
            events: timeline.events,
          })),
        );
      }),
    [guard],
  );

  useEffect(() => {
    guard(async () => {
      const { agents: list } = await api("/agents");
      setAgents(list);
      setAuthorized(true);
    });
    loadSessions();
    loadInbox();
    loadGateway();
    // Hook and gateway processes post their approvals and records to the store, not to this server's feed.
    const polling = setInterval(() => {
      loadInbox();
      loadGateway();
    }, 3000);
    const stopFeed = follow("/events", (name, data) => {
      if (name === "notification") setNotes((items) => [data, ...items].slice(0, 50));
      else if (name === "inbox") loadInbox();
      else if (name === "session") loadSessions();
    });
    return () => {
      clearInterval(polling);
      stopFeed();
    };
  }, [attempt, guard, loadInbox, loadSessions, loadGateway]);

  // A gateway session's calls, read again while it is open (its client may still be calling).
  useEffect(() => {
    if (!gatewaySelected) return undefined;
    setGatewaySession(undefined);
    const load = () =>
      guard(async () =>
        setGatewaySession(await api(`/gateway/sessions/${encodeURIComponent(gatewaySelected)}`)),
      );
    load();
    const polling = setInterval(load, 3000);
    return () => clearInterval(polling);
  }, [gatewaySelected, guard]);

  const pick = (id) => {
    setGatewaySelected(undefined);
    setSelected(id);
  };
  const pickGateway = (id) => {
    setSelected(undefined);
    setRuns([]);
    setGatewaySelected(id);
  };

  useEffect(() => {
    if (!selected) return undefined;
    setRuns([]);
    liveRun.current = undefined;
    loadSession(selected);
    return follow(`/sessions/${encodeURIComponent(selected)}/events`, (_name, event) => {
      if (event.type === "run-start") liveRun.current = event.runId;
      setRuns((current) => applyEvent(current, liveRun.current, event));
      if (event.type === "run-start") setStatus("running");
      if (event.type === "run-finish") {
        setStatus(event.result.outcome === "suspended" ? "waiting" : "idle");
        loadSessions();
        loadInbox();
      }
    });
  }, [selected, loadSession, loadSessions, loadInbox]);

  const create = async (agent) => {
    const session = await guard(() => api("/sessions", { method: "POST", body: agent ? { agent } : {} }));
    if (!session) return;
    await loadSessions();
    pick(session.id);
  };

  const send = async (text) => {
    setStatus("running");
    await api(`/sessions/${encodeURIComponent(selected)}/messages`, { method: "POST", body: { text } });
  };

  const decide = async (item, decision, reason) => {
    // A suspended run continues in its session; a waiting hook or gateway call has none here.
    if (!item.waiter) pick(item.sessionId);
    await api(`/approvals/${encodeURIComponent(item.id)}`, {
      method: "POST",
      body: { decision, ...(reason ? { reason } : {}) },
    });
    await loadInbox();
  };

  if (!authorized) return <TokenForm onToken={() => setAttempt((value) => value + 1)} />;
  const agent = agents.find((item) => item.id === sessions.find((session) => session.id === selected)?.agent);
  return (
    <div class="layout">
      <header class="top">
        <strong>hookwise</strong>
        {agents.some((item) => item.scripted) && (
          <span class="badge scripted">scripted model: offline replay</span>
        )}
      </header>
      <aside class="side">
        <SessionList
          sessions={sessions}
          selected={selected}
          agents={agents}
          onSelect={pick}
          onCreate={create}
        />
        <GatewaySessionList sessions={gatewaySessions} selected={gatewaySelected} onSelect={pickGateway} />
        <Inbox items={inbox} onDecide={decide} onOpen={pick} />
        <Notifications items={notes} />
      </aside>
      <main class="center">
        {gatewaySelected ? (
          <GatewaySession session={gatewaySession} />
        ) : selected ? (
          <Chat runs={runs} busy={status === "running"} onSend={send} />
        ) : (
          <p class="muted empty">Create or pick a session.</p>
        )}
      </main>
      <section class="timeline" data-testid="timeline">
        <h3>Timeline</h3>
        {[...runs].reverse().map((run) => (
          <RunTimeline
            key={run.runId}
            run={run}
            instructions={agent?.instructions}
            onDecide={(approval, decision) => decide({ ...approval, sessionId: selected }, decision)}
          />
        ))}
      </section>
    </div>
  );
}
