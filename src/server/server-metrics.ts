/**
 * What `/metrics` reports: runs by outcome, steps, hook firings by hook and effect, denials,
 * approvals pending, model errors by class, run / step / tool latencies, HTTP requests.
 * Counted from the runs' own stream events (and a `model_error` inspect hook): the server
 * measures what the agent reports, it adds nothing to the loop. Per process: each replica
 * is its own scrape target.
 */
import type { AgentEvent } from "../loop/run-result.js";
import { Counter, Gauge, Histogram, type Metric, renderMetrics } from "./prometheus.js";

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class ServerMetrics {
  readonly runs = new Counter(
    "hookwise_runs_total",
    "Runs that ended, by agent and outcome; a run that suspended and was resumed counts once, when it ends.",
    ["agent", "outcome"],
  );
  readonly suspensions = new Counter(
    "hookwise_run_suspensions_total",
    "Times a run suspended to wait for approvals, by agent.",
    ["agent"],
  );
  readonly steps = new Counter(
    "hookwise_steps_total",
    "Steps that finished (a model call and its tool batch), by agent.",
    ["agent"],
  );
  readonly hookFirings = new Counter(
    "hookwise_hook_firings_total",
    "Hook firings by hook, event and effect.",
    ["hook", "event", "effect"],
  );
  readonly denials = new Counter(
    "hookwise_denials_total",
    "Operations a hook or policy denied, by hook and event.",
    ["hook", "event"],
  );
  readonly modelErrors = new Counter(
    "hookwise_model_errors_total",
    "Failed provider attempts by agent and error class (rate_limit, timeout, auth, ...).",
    ["agent", "class"],
  );
  readonly approvalsPending = new Gauge(
    "hookwise_approvals_pending",
    "Approvals that suspended runs wait for.",
  );
  readonly runSeconds = new Histogram("hookwise_run_duration_seconds", "Run latency.", SECONDS, ["agent"]);
  readonly stepSeconds = new Histogram("hookwise_step_duration_seconds", "Step latency.", SECONDS, ["agent"]);
  readonly toolSeconds = new Histogram(
    "hookwise_tool_duration_seconds",
    "Tool execution latency, by tool.",
    SECONDS,
    ["tool"],
  );
  readonly httpRequests = new Counter(
    "hookwise_http_requests_total",
    "HTTP requests by method, route and status.",
    ["method", "route", "status"],
  );

  readonly #all: Metric[] = [
    this.runs,
    this.suspensions,
    this.steps,
    this.hookFirings,
    this.denials,
    this.modelErrors,
    this.approvalsPending,
    this.runSeconds,
    this.stepSeconds,
    this.toolSeconds,
    this.httpRequests,
  ];

  /** Counts one run's events as they come (one observer per run). */
  observer(
    agent: string,
    now: () => number = performance.now.bind(performance),
  ): (event: AgentEvent) => void {
    let runStart: number | undefined;
    const steps = new Map<number, number>();
    const tools = new Map<string, number>();
    return (event) => {
      switch (event.type) {
        case "run-start":
          runStart = now();
          break;
        case "step-start":
          steps.set(event.step, now());
          break;
        case "step-finish": {
          this.steps.inc({ agent });
          const started = steps.get(event.step);
          if (started !== undefined) this.stepSeconds.observe({ agent }, (now() - started) / 1000);
          break;
        }
        case "tool-execution-start":
          tools.set(event.toolCallId, now());
          break;
        case "tool-result": {
          const started = tools.get(event.toolCallId);
          if (started !== undefined)
            this.toolSeconds.observe({ tool: event.toolName }, (now() - started) / 1000);
          break;
        }
        case "hook":
          for (const firing of event.firings) {
            this.hookFirings.inc({ hook: firing.hook, event: firing.event, effect: firing.effect });
            if (firing.effect === "deny") this.denials.inc({ hook: firing.hook, event: firing.event });
          }
          break;
        case "run-finish":
          // A suspension is not an end: the run counts when its resumption ends it.
          if (event.result.outcome === "suspended") this.suspensions.inc({ agent });
          else this.runs.inc({ agent, outcome: event.result.outcome });
          if (runStart !== undefined) this.runSeconds.observe({ agent }, (now() - runStart) / 1000);
          break;
        default:
          break;
      }
    };
  }

  render(): string {
    return renderMetrics(this.#all);
  }
}
