import { useState } from "preact/hooks";
import { Json } from "./diff-view.jsx";

function Approval({ item, onDecide, onOpen }) {
  const [reason, setReason] = useState("");
  const [state, setState] = useState("");
  const decide = async (decision) => {
    setState(decision === "approve" ? "approving…" : "denying…");
    try {
      await onDecide(item, decision, reason);
    } catch (error) {
      setState(error.message);
    }
  };
  return (
    <li class="approval" data-testid="approval">
      <div>
        {/* A waiting hook or gateway call: the tool by the name its agent or client calls it. */}
        <strong>{item.waiter ? item.toolName : item.qualifiedName}</strong>{" "}
        {item.waiter ? (
          // A hook or gateway process waits for this answer (no run here to open).
          <span class="muted" data-testid="waiter">
            {item.waiter} · session {item.sessionId} · until {new Date(item.expiresAt).toLocaleTimeString()}
          </span>
        ) : (
          <button type="button" class="link" onClick={() => onOpen(item.sessionId)}>
            in “{item.input}”
          </button>
        )}
      </div>
      {item.reason && <div class="reason">{item.reason}</div>}
      <Json value={item.args} />
      <input
        placeholder="reason (optional)"
        value={reason}
        onInput={(event) => setReason(event.currentTarget.value)}
      />
      <div class="buttons">
        <button type="button" data-testid="approve" onClick={() => decide("approve")}>
          Approve
        </button>
        <button type="button" class="deny" data-testid="deny" onClick={() => decide("deny")}>
          Deny
        </button>
      </div>
      {state && <div class="muted">{state}</div>}
    </li>
  );
}

export function Inbox({ items, onDecide, onOpen }) {
  return (
    <section class="panel inbox">
      <h3>
        Approvals <span class="count">{items.length}</span>
      </h3>
      {items.length === 0 ? (
        <p class="muted">nothing waits for a decision</p>
      ) : (
        <ul>
          {items.map((item) => (
            <Approval key={item.id} item={item} onDecide={onDecide} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </section>
  );
}
