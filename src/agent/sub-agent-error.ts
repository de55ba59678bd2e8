import { HookwiseError } from "../errors/hookwise-error.js";

/**
 * A sub-agent did not deliver an answer: a hook refused its spawn, it was already running in
 * the lineage, or its run ended otherwise than `completed`. The parent's model sees the
 * message as the tool's error.
 */
export class SubAgentError extends HookwiseError {
  override readonly name = "SubAgentError";
  readonly agentId: string;
  /** `refused` (agent_spawn denied or failed closed), `recursive`, or the run's outcome. */
  readonly reason: string;

  constructor(options: { agentId: string; reason: string; message: string; cause?: unknown }) {
    super(`sub-agent "${options.agentId}" ${options.message}`, { cause: options.cause });
    this.agentId = options.agentId;
    this.reason = options.reason;
  }

  static override isInstance(error: unknown): error is SubAgentError {
    return HookwiseError.isInstance(error) && error.name === "SubAgentError";
  }
}
