import { useState } from "preact/hooks";
import { reasonOf } from "../../../src/hooks/trace-changes.ts";
import { buildRun, callStatus } from "../timeline-model.js";
import { DiffView, Json } from "./diff-view.jsx";

const SERVER_HOOK = "hookwise-server:";

function HookRow({ row }) {
  const { entry } = row;
  const reason = reasonOf(entry);
  return (
    <li
      class={`hook effect-${entry.effect} ${entry.hook.startsWith(SERVER_HOOK) ? "server-hook" : ""}`}
      data-testid="hook"
    >
      <div class="hook-line">
        <span class="badge event">{entry.event}</span>
        <span class="hook-name">{entry.hook}</span>
        <span class={`badge kind-${entry.kind}`}>{entry.kind}</span>
        <span class="arrow">→</span>
        <span class={`badge effect effect-${entry.effect}`}>{entry.effect}</span>
      </div>
      {reason !== undefined && <div class="reason">{String(reason)}</div>}
      {row.note && <div class="note">{row.note}</div>}
      {row.changes.map((change) => (
        <DiffView key={change.field} {...change} />
      ))}
    </li>
  );
}

/** The approval a call waits for, decided right here. */
function ApprovalHere({ approval, onDecide }) {
  const [state, setState] = useState("");
  const decide = async (decision) => {
    setState(decision === "approve" ? "approving…" : "denying…");
    try {
      await onDecide(approval, decision);
    } catch (error) {
      setState(error.message);
    }
  };
  return (
    <div class="approval-here" data-testid="approval-here">
      <div>
        <strong>Waiting for your approval</strong>
        {approval.reason && <span class="reason"> — {approval.reason}</span>}
      </div>
      <div class="muted">If you approve it here, it runs with these arguments:</div>
      <Json value={approval.args} />
      {onDecide && (
        <div class="buttons">
          <button type="button" data-testid="approve-here" onClick={() => decide("approve")}>
            Approve
          </button>
          <button type="button" class="deny" data-testid="deny-here" onClick={() => decide("deny")}>
            Deny
          </button>
        </div>
      )}
      {state && <div class="muted">{state}</div>}
    </div>
  );
}

function ToolCard({ card, status, onDecide }) {
  const rewritten =
    card.executed && card.asked !== undefined && JSON.stringify(card.asked) !== JSON.stringify(card.ran);
  const said = callStatus(card, status);
  return (
    <li
      class={`tool status-${said.replaceAll(" ", "-")} ${card.isError ? "tool-error" : ""}`}
      data-testid="tool"
    >
      <div class="tool-line">
        <span class="badge">tool</span> <strong>{card.toolName}</strong>{" "}
        <span class="badge call-status" data-testid="tool-status">
          {said}
        </span>
      </div>
      {card.asked !== undefined && <Json value={card.asked} />}
      {card.decisions.length > 0 && (
        <ul class="decisions" data-testid="decisions">
          {card.decisions.map((row, index) => (
            <HookRow key={index} row={row} />
          ))}
        </ul>
      )}
      {rewritten && (
        <DiffView field="arguments: the model's → what ran" before={card.asked} after={card.ran} />
      )}
      {said === "awaiting approval" && <ApprovalHere approval={card.approval} onDecide={onDecide} />}
      {card.done && (
        <div class={card.isError ? "result error" : "result"}>
          <span class="muted">{card.isError ? "error →" : "result →"}</span> <Json value={card.result} />
        </div>
      )}
    </li>
  );
}

function Step({ segment, attempts, status, onDecide }) {
  const mine = attempts.filter((attempt) => attempt.step === segment.index);
  return (
    <section class="step" data-testid="step">
      <h4>
        step {segment.index + 1}
        {mine.length > 1 && <span class="muted"> · {mine.length} attempts</span>}
        {mine.at(-1)?.model && <span class="muted"> · {mine.at(-1).model}</span>}
      </h4>
      <ul>
        {segment.failures.map((failure) => (
          <li key={`a${failure.attempt}`} class="attempt-failed" data-testid="attempt">
            attempt {failure.attempt} failed: <strong>{failure.error.type}</strong>
            {failure.error.status ? ` (${failure.error.status})` : ""} — {failure.error.message}
            {failure.error.retryable ? " · retried" : ""}
          </li>
        ))}
        {segment.reasoning && <li class="reasoning">{segment.reasoning}</li>}
        {segment.items.map((item, index) =>
          item.type === "hook" ? (
            <HookRow key={index} row={item} />
          ) : (
            <ToolCard key={item.toolCallId} card={item} status={status} onDecide={onDecide} />
          ),
        )}
        {segment.text && <li class="said">“{segment.text}”</li>}
      </ul>
    </section>
  );
}

const SUSPENDED_TEXT = "waiting for your approval: approve or deny each waiting call above";

export function RunTimeline({ run, instructions, onDecide }) {
  const { segments, status } = buildRun(run.events, instructions);
  const finish = [...segments].reverse().find((segment) => segment.kind === "finish");
  const attempts = finish?.result?.attempts ?? [];
  return (
    <article class="run" data-testid="run">
      {segments.map((segment, index) => {
        switch (segment.kind) {
          case "start":
            return (
              <header key={index} class="run-start">
                {segment.resumed ? "resumed after approval" : <>› {segment.input}</>}
              </header>
            );
          case "step":
            return (
              <Step key={index} segment={segment} attempts={attempts} status={status} onDecide={onDecide} />
            );
          case "hooks":
            return (
              <ul key={index} class="loose">
                {segment.items.map((item, at) => (
                  <HookRow key={at} row={item} />
                ))}
              </ul>
            );
          case "finish":
            return (
              <footer
                key={index}
                class={`run-finish outcome-${segment.result.outcome}`}
                data-testid="outcome"
              >
                <span class={`badge outcome outcome-${segment.result.outcome}`}>
                  {segment.result.outcome}
                </span>
                {segment.result.outcome === "suspended" ? (
                  <span class="reason"> {SUSPENDED_TEXT}</span>
                ) : (
                  segment.result.reason && <span class="reason"> {segment.result.reason}</span>
                )}
                {segment.result.hook && <span class="muted"> (hook {segment.result.hook})</span>}
              </footer>
            );
          default:
            return null;
        }
      })}
    </article>
  );
}
