/**
 * Cursor's hooks: JSON on stdin with `hook_event_name` and `conversation_id`; the answer as
 * JSON on stdout: `permission: "allow" | "deny" | "ask"` with `user_message` (shown to the
 * person) and `agent_message` (sent to the model) before an action, `updated_input` on
 * `preToolUse`, `continue: false` to block a prompt, `additional_context` at a session's
 * start and after a tool, `followup_message` to send the agent back to work when it stops.
 * The older per-action events cannot run a rewritten call: a call a hook rewrote there is
 * denied, with what it would have run.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { eventName, firstText, type Payload, text, toolInput } from "../read-payload.js";
import type {
  HarnessAnswer,
  HarnessEvent,
  HarnessEventKind,
  HarnessProtocol,
  HarnessVerdict,
} from "../types.js";
import { cursorSettings } from "./settings.js";
import { CURSOR_TOOLS } from "./tools.js";

const EVENTS: Readonly<Record<string, HarnessEventKind>> = {
  sessionStart: "session_start",
  sessionEnd: "session_end",
  beforeSubmitPrompt: "run_start",
  stop: "run_end",
  preToolUse: "tool_call",
  beforeShellExecution: "tool_call",
  beforeMCPExecution: "tool_call",
  beforeReadFile: "tool_call",
  postToolUse: "tool_result",
  postToolUseFailure: "tool_error",
  preCompact: "pre_compact",
  subagentStart: "notification",
  subagentStop: "notification",
  afterShellExecution: "tool_result",
  afterMCPExecution: "tool_result",
  afterFileEdit: "tool_result",
  afterAgentResponse: "notification",
  afterAgentThought: "notification",
};

/** The MCP servers of Cursor's settings files: the workspace's `.cursor/mcp.json`, then the user's. */
function mcpServers(payload: Payload): [string, Record<string, unknown>][] {
  const roots = Array.isArray(payload.workspace_roots)
    ? payload.workspace_roots.filter((root): root is string => typeof root === "string")
    : [];
  const files = [
    ...roots.map((root) => join(root, ".cursor", "mcp.json")),
    join(homedir(), ".cursor", "mcp.json"),
  ];
  const servers: [string, Record<string, unknown>][] = [];
  for (const file of files) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    const listed = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
    if (typeof listed !== "object" || listed === null) continue;
    for (const [name, server] of Object.entries(listed))
      if (typeof server === "object" && server !== null)
        servers.push([name, server as Record<string, unknown>]);
  }
  return servers;
}

/**
 * The name of the MCP server an MCP event is about: Cursor names the tool alone, with the
 * server's key in its `mcp.json` (`mcp_server_name`), or, in versions before that, only the
 * server's `url` or `command`: then the server is the one of its MCP settings with that url,
 * or that command (alone or with its arguments). Undefined when none or several have it.
 */
function mcpServerOf(payload: Payload): string | undefined {
  const named = text(payload, "mcp_server_name");
  if (named !== undefined && named !== "") return named;
  const url = text(payload, "url") ?? text(payload, "mcp_server_url");
  const command = text(payload, "command");
  if (url === undefined && command === undefined) return undefined;
  const names = new Set<string>();
  for (const [name, server] of mcpServers(payload)) {
    const args = Array.isArray(server.args) ? server.args.map(String) : [];
    const matches =
      url !== undefined
        ? server.url === url
        : typeof server.command === "string" &&
          (server.command === command || [server.command, ...args].join(" ") === command);
    if (matches) names.add(name);
  }
  return names.size === 1 ? [...names][0] : undefined;
}

/** The tool a before/after event is about, by Cursor's own name. */
function toolOf(
  name: string,
  payload: Payload,
): { name: string; input: Record<string, unknown>; response?: unknown; serverUnknown?: boolean } {
  switch (name) {
    case "beforeShellExecution":
    case "afterShellExecution":
      return {
        name: "Shell",
        input: {
          command: text(payload, "command", true),
          ...(payload.cwd !== undefined ? { cwd: payload.cwd } : {}),
        },
        ...(name === "afterShellExecution" ? { response: payload.output } : {}),
      };
    case "beforeMCPExecution":
    case "afterMCPExecution": {
      const tool = text(payload, "tool_name", true);
      const server = tool.startsWith("mcp__") ? undefined : mcpServerOf(payload);
      return {
        name: server === undefined ? tool : `mcp__${server}__${tool}`,
        input: toolInput(payload, "tool_input"),
        ...(name === "afterMCPExecution" ? { response: payload.result_json } : {}),
        ...(server === undefined && !tool.startsWith("mcp__") ? { serverUnknown: true } : {}),
      };
    }
    case "beforeReadFile":
      return { name: "Read", input: { file_path: text(payload, "file_path", true) } };
    case "afterFileEdit":
      return {
        name: "Edit",
        input: { file_path: text(payload, "file_path", true) },
        response: { edits: payload.edits },
      };
    default:
      return {
        name: text(payload, "tool_name", true),
        input: toolInput(payload, "tool_input"),
        ...(name === "postToolUse" ? { response: payload.tool_output ?? payload.tool_response } : {}),
        ...(name === "postToolUseFailure"
          ? { error: firstText(payload, ["error", "error_message"]) ?? "the tool failed" }
          : {}),
      };
  }
}

function parse(payload: Payload): HarnessEvent {
  const name = eventName(payload, "hook_event_name", EVENTS, "Cursor");
  const kind = EVENTS[name]!;
  const sessionId = firstText(payload, ["conversation_id", "session_id"], true);
  const roots = payload.workspace_roots;
  const cwd =
    text(payload, "cwd") ?? (Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : undefined);
  const base = { harness: "cursor" as const, name, kind, sessionId, cwd, payload };
  if (kind === "tool_call" || kind === "tool_result" || kind === "tool_error") {
    const tool = toolOf(name, payload);
    const callId =
      firstText(payload, ["tool_use_id", "tool_call_id"]) ??
      `${tool.name}@${text(payload, "generation_id") ?? ""}`;
    return { ...base, tool: { ...tool, callId } };
  }
  if (kind === "run_start") return { ...base, prompt: text(payload, "prompt", true) };
  const detail = firstText(payload, ["status", "reason", "source"]);
  return { ...base, ...(detail !== undefined ? { detail } : {}) };
}

function json(value: Record<string, unknown>): HarnessAnswer {
  return { exitCode: 0, stdout: `${JSON.stringify(value)}\n` };
}

/**
 * Where Cursor asks the person when a hook answers `ask`: before a shell command or an MCP
 * tool. It takes `ask` on `preToolUse` without asking anyone, and `beforeReadFile` knows
 * only allow and deny. So a call hookwise would ask about is left to `beforeShellExecution`
 * when it is a shell command's `preToolUse` (setup registers both), and refused anywhere
 * else, saying it needs approval.
 */
function askWhere(event: HarnessEvent): "here" | "later" | "nowhere" {
  if (event.name === "beforeShellExecution" || event.name === "beforeMCPExecution") return "here";
  if (event.name === "preToolUse" && event.tool?.name === "Shell") return "later";
  return "nowhere";
}

function answer(event: HarnessEvent, verdict: HarnessVerdict): HarnessAnswer {
  const reason = verdict.reason ?? "blocked by hookwise";
  if (event.kind === "tool_call" && verdict.decision === "ask" && verdict.stop === undefined) {
    const where = askWhere(event);
    if (where === "later") return json({});
    if (where === "nowhere") {
      const message = `needs approval, which Cursor cannot ask for before this call: ${reason}`;
      return json({ permission: "deny", user_message: message, agent_message: message });
    }
  }
  if (event.kind === "tool_call") {
    if (verdict.decision === "deny" || verdict.stop !== undefined)
      return json({
        permission: "deny",
        user_message: verdict.stop ?? reason,
        agent_message: verdict.stop ?? reason,
      });
    if (verdict.updatedInput !== undefined && event.name === "preToolUse")
      return json({ permission: "allow", updated_input: verdict.updatedInput });
    if (verdict.updatedInput !== undefined) {
      const message = `hookwise rewrote this call to ${JSON.stringify(verdict.updatedInput)}, which Cursor cannot run in place of the original; call it again with those arguments`;
      return json({ permission: "deny", user_message: message, agent_message: message });
    }
    if (verdict.decision === "ask")
      return json({ permission: "ask", user_message: reason, agent_message: reason });
    if (verdict.decision === "allow") return json({ permission: "allow" });
    return json({});
  }
  if (event.kind === "run_start") {
    if (verdict.decision === "deny" || verdict.stop !== undefined)
      return json({ continue: false, user_message: verdict.stop ?? reason });
    return json({ continue: true });
  }
  if (event.kind === "run_end" && verdict.decision === "deny") return json({ followup_message: reason });
  const context = verdict.context?.length ? verdict.context.join("\n\n") : undefined;
  if (context && (event.name === "sessionStart" || event.name === "postToolUse"))
    return json({ additional_context: context });
  return json({});
}

/**
 * A shell command or a file read Cursor reports twice, as `preToolUse` and as its older event
 * of the same generation: the generation, the tool and the command or the file. (An MCP
 * tool's two events name it differently, and are each decided.)
 */
function sameCall(event: HarnessEvent): string | undefined {
  const generation = event.payload.generation_id;
  if (event.kind !== "tool_call" || typeof generation !== "string" || generation === "") return undefined;
  const input = event.tool?.input as Record<string, unknown> | undefined;
  const subject =
    event.tool?.name === "Shell"
      ? input?.command
      : event.tool?.name === "Read"
        ? input?.file_path
        : undefined;
  return typeof subject === "string" ? JSON.stringify([generation, event.tool!.name, subject]) : undefined;
}

export const cursorProtocol: HarnessProtocol = {
  name: "cursor",
  label: "Cursor",
  events: EVENTS,
  tools: CURSOR_TOOLS,
  shellTool: "Shell",
  settings: cursorSettings,
  parse,
  answer,
  sameCall,
  refuse: (reason, eventName) => {
    const before = eventName === undefined || eventName.startsWith("before") || eventName === "preToolUse";
    const body =
      eventName === "beforeSubmitPrompt"
        ? { continue: false, user_message: reason }
        : before
          ? { permission: "deny", user_message: reason, agent_message: reason }
          : {};
    return { exitCode: 2, stdout: `${JSON.stringify(body)}\n`, stderr: `${reason}\n` };
  },
};
