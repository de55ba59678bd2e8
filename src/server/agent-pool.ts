/**
 * The config's agents, each built once on first use (building one starts its toolsets: MCP
 * servers, language servers) and given one server hook: an inspect hook on `model_error`
 * that counts failed attempts by class and shows them in the run's timeline — the stream
 * itself reports only attempts that succeeded.
 */
import type { Agent } from "../agent/types.js";
import type { LoadedConfig } from "../config/load-config.js";
import { type AnyHook, defineHook } from "../hooks/define-hook.js";
import { HttpError } from "./http/http-error.js";
import type { LiveRuns } from "./runs/live-runs.js";
import { runSession } from "./runs/run-session.js";
import type { ServerMetrics } from "./server-metrics.js";

export const SERVER_HOOK = "hookwise-server:attempt-errors";

export class AgentPool {
  readonly #loaded: LoadedConfig;
  readonly #metrics: ServerMetrics;
  readonly #runs: LiveRuns;
  readonly #agents = new Map<string, Promise<Agent>>();

  readonly #hooks: (agentId: string) => readonly AnyHook[];

  constructor(
    loaded: LoadedConfig,
    metrics: ServerMetrics,
    runs: LiveRuns,
    hooks: (agentId: string) => readonly AnyHook[] = () => [],
  ) {
    this.#loaded = loaded;
    this.#metrics = metrics;
    this.#runs = runs;
    this.#hooks = hooks;
    // A scripted model (an agent's, a sub-agent's, a fallback) answers each session from
    // that session's place in the script.
    loaded.keepScriptPositions(runSession);
  }

  /**
   * The agents a client may run: not the specialists, which run only as a tool of an agent
   * that lists them, under that agent's hooks and policies as well as their own (run on
   * their own, a client would get past the caller's). A config of specialists only has no
   * caller: all of them, then.
   */
  get ids(): readonly string[] {
    // A config with no model (it guards coding-agent harnesses, or serves tools through
    // `hookwise mcp`) runs no agent: the server answers hooks and shows what was recorded.
    if (runsNoAgent(this.#loaded)) return [];
    const specialists = new Set(
      this.#loaded.config.agents.filter((agent) => agent.role === "specialist").map((agent) => agent.id),
    );
    const callable = this.#loaded.agentIds.filter((id) => !specialists.has(id));
    return callable.length ? callable : this.#loaded.agentIds;
  }

  get defaultId(): string {
    const ids = this.ids;
    return ids.includes(this.#loaded.defaultAgentId) ? this.#loaded.defaultAgentId : ids[0]!;
  }

  /** The agent's id, checked: an unknown one (or a specialist) is a 400 naming the known ones. */
  check(id: string | undefined): string {
    if (runsNoAgent(this.#loaded))
      throw new HttpError(
        404,
        "no_agents",
        "this server runs no agent: its config declares no model (it guards coding-agent harnesses, POST /hooks/<harness>, or serves tools through hookwise mcp, GET /gateway/sessions); declare a model to run agents",
      );
    const agentId = id ?? this.defaultId;
    if (!this.ids.includes(agentId) && this.#loaded.agentIds.includes(agentId)) {
      throw new HttpError(
        400,
        "specialist_agent",
        `agent "${agentId}" is a specialist: it runs only as a tool of an agent that lists it (agents: ${this.ids.join(", ")})`,
      );
    }
    if (!this.ids.includes(agentId)) {
      throw new HttpError(
        400,
        "unknown_agent",
        `unknown agent "${agentId}" (agents: ${this.ids.join(", ")})`,
      );
    }
    return agentId;
  }

  get(id?: string): Promise<Agent> {
    const agentId = this.check(id);
    let agent = this.#agents.get(agentId);
    if (!agent) {
      agent = this.#build(agentId);
      this.#agents.set(agentId, agent);
      agent.catch(() => this.#agents.delete(agentId));
    }
    return agent;
  }

  /** The agents built so far (what a shutdown has to wait for). */
  built(): Promise<Agent>[] {
    return [...this.#agents.values()];
  }

  all(): Promise<Agent[]> {
    return Promise.all(this.ids.map((id) => this.get(id)));
  }

  async #build(id: string): Promise<Agent> {
    const agent = await this.#loaded.createAgent(id);
    for (const hook of this.#hooks(id)) agent.use(hook);
    agent.use(
      defineHook({
        name: SERVER_HOOK,
        on: "model_error",
        kind: "inspect",
        handler: (event, context) => {
          this.#metrics.modelErrors.inc({ agent: id, class: event.error.type });
          this.#runs.inject(context.runId, {
            type: "attempt-error",
            step: context.step,
            attempt: event.attempt,
            agentPath: event.agentPath,
            error: {
              type: event.error.type,
              message: event.error.message,
              retryable: event.error.retryable,
              ...(event.error.status !== undefined ? { status: event.error.status } : {}),
            },
          });
        },
      }),
    );
    return agent;
  }
}

/**
 * A config that runs no agent: it declares no model and no agent names one — a config for
 * harnesses' hooks, or for the tools `hookwise mcp` serves.
 */
export function runsNoAgent(loaded: LoadedConfig): boolean {
  const { config } = loaded;
  if (Object.keys(config.models).length > 0) return false;
  return config.agents.every((agent) => agent.model === undefined && typeof agent.brain?.model !== "string");
}
