/**
 * Sub-agents are tools: `subAgentTool(agent)` is the tool `agents.<name>`
 * (function `agents_<name>`, input `{ task }`) whose body runs the agent on the task and
 * returns its final text.
 *
 * - Around it, on the caller's side: `agent_spawn` (decide hooks may refuse; a failing one
 *   refuses, fail-closed) and `agent_complete` (inspect), with the caller's `agentPath`.
 * - The sub-agent's run carries the lineage (`agentPath` ["main", "reviewer"]) and is
 *   dispatched to the caller's hook registries as well as its own, so the parent's
 *   `tool_call` decide hooks and policies govern the sub-agent's tool calls; each hook's
 *   `scope` (`all` | `self` | `children`) is honoured against its owner's depth.
 * - Its transcript is a session of its own in its store, with an id derived from the
 *   caller's: `<parent session>/agents.<name>/<tool call id>` (one per delegation).
 * - It streams when the caller streams; its events are its own (the caller's trace shows
 *   agent_spawn / agent_complete).
 * - An outcome other than `completed` (terminated, max_steps, error, suspended) throws a
 *   SubAgentError: the caller's model sees why, as a tool error.
 * - An agent already running in the lineage is not started again (no unbounded recursion).
 */

import { approvalFlow } from "../approvals/approval-flow.js";
import { lazy } from "../deps/load-package.js";
import { z } from "../deps/zod.js";
import { callingRunOf } from "../loop/batch/calling-run.js";
import { drive } from "../loop/drive.js";
import { contextFor, payload } from "../loop/run-state.js";
import { generateSurface, streamSurface } from "../loop/surface.js";
import { type ResolvedTool, resolveTool } from "../tools/resolved-tool.js";
import type { ToolExecutionOptions } from "../tools/tool.js";
import { SubAgentError } from "./sub-agent-error.js";
import type { Agent, AgentRuntime } from "./types.js";

export interface SubAgentToolOptions {
  /** The tool is `agents.<name>`; default: the agent's name. */
  name?: string;
  /** What the calling model reads; default names the agent. */
  description?: string;
}

/** The toolset sub-agent tools belong to: `agents.reviewer`, function `agents_reviewer`. */
export const SUB_AGENT_TOOLSET = "agents";

const taskSchema = lazy(() =>
  z.object({
    task: z.string().min(1).describe("The task for the agent, with everything it needs to know"),
  }),
);

async function runSubAgent(
  runtime: AgentRuntime,
  id: string,
  task: string,
  execution: ToolExecutionOptions,
): Promise<string> {
  const parent = callingRunOf(execution);
  const parentPath = parent?.agentPath ?? [execution.context.agentName];
  if (parentPath.includes(id)) {
    throw new SubAgentError({
      agentId: id,
      reason: "recursive",
      message: `is already running in this lineage (${[...parentPath, id].join(" → ")}); it cannot be started again`,
    });
  }
  if (parent) {
    const event = payload(parent, "agent_spawn", { agentId: id, task });
    const context = contextFor(parent);
    const decided = await parent.runner.blocking(event, context);
    if (decided.failure) {
      throw new SubAgentError({
        agentId: id,
        reason: "refused",
        message: `was not started: ${decided.failure.message} (failed closed)`,
        cause: decided.failure,
      });
    }
    const terminal = decided.terminal;
    if (terminal?.flow.type === "deny") {
      throw new SubAgentError({
        agentId: id,
        reason: "refused",
        message: `was refused by hook "${terminal.hook}": ${terminal.flow.reason}`,
      });
    }
    parent.runner.inspect(decided.payload, context);
  }

  const sessionId = `${execution.context.sessionId}/${SUB_AGENT_TOOLSET}.${id}/${execution.toolCallId}`;
  // Nothing of the sub-agent's surfaces live (its events are dropped), so no hook events either.
  const surface = parent?.isStreaming ? streamSurface(() => {}, false) : generateSurface();
  const result = await drive(
    runtime,
    task,
    { sessionId, signal: execution.signal },
    surface,
    approvalFlow,
    [...parentPath, id],
    // The caller's registries (its ancestors' included): their decide hooks and policies
    // govern this run too. Without a calling run (a hook's call_tool), only its own.
    parent ? parent.registries : [],
  );

  if (parent) {
    const complete = payload(parent, "agent_complete", {
      agentId: id,
      task,
      output: result.text,
      outcome: result.outcome,
    });
    parent.runner.inspect(complete, contextFor(parent));
  }
  if (result.outcome === "completed") return result.text;
  throw new SubAgentError({
    agentId: id,
    reason: result.outcome,
    message: `ended ${result.outcome}${result.reason ? `: ${result.reason}` : ""}${
      result.text ? ` (its last text: ${result.text.slice(0, 500)})` : ""
    }`,
  });
}

/** The agent behind each sub-agent tool, for checks that look at what its tools reach. */
const delegates = new WeakMap<ResolvedTool, AgentRuntime>();

/** The runtime a sub-agent tool delegates to, or undefined for any other tool. */
export function delegateOf(tool: ResolvedTool): AgentRuntime | undefined {
  return delegates.get(tool);
}

/** The tool `agents.<name>` that delegates a task to `agent`. */
export function subAgentTool(agent: Agent | AgentRuntime, options: SubAgentToolOptions = {}): ResolvedTool {
  const runtime = "runtime" in agent ? agent.runtime : agent;
  const id = options.name ?? runtime.name;
  const tool = resolveTool(
    id,
    {
      description:
        options.description ??
        `Delegates a task to the "${id}" agent, which works on it with its own tools and answers with its result.`,
      inputSchema: taskSchema(),
      execute: ({ task }: { task: string }, execution: ToolExecutionOptions) =>
        runSubAgent(runtime, id, task, execution),
    },
    { toolset: SUB_AGENT_TOOLSET },
  );
  delegates.set(tool, runtime);
  return tool;
}
