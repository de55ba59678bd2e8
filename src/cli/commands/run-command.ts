/**
 * `hookwise run <config> [--prompt TEXT] [--agent ID] [--session ID] [--json]`.
 * Human output streams the run as it happens; `--json` prints one RunResult on stdout
 * (logs on stderr). No prompt and a TTY: an interactive chat in one session.
 */

import { randomUUID } from "node:crypto";
import type { Agent, AgentOptions } from "../../agent/types.js";
import { keepScriptPosition } from "../../config/script-position.js";
import { formatIssue } from "../../config/source/config-error.js";
import type { RunResult } from "../../loop/run-result.js";
import { exitCodeFor } from "../exit-codes.js";
import { LogRoute, loadCliConfig, notificationLine } from "../load-cli-config.js";
import { modelOverride } from "../model-override.js";
import { approvalPrompt } from "../terminal/approval-prompt.js";
import { LiveTrace } from "../terminal/live-trace.js";
import { printApprovals } from "../terminal/print-approvals.js";
import { type TerminalPrompt, terminalPrompt } from "../terminal/terminal-prompt.js";
import type { CliIO } from "../types.js";
import { UsageError } from "../usage-error.js";

export interface RunCommandOptions {
  prompt?: string;
  agent?: string;
  session?: string;
  json?: boolean;
  /** A model declared under models:, or `provider:model-id`, instead of the agent's. */
  model?: string;
  /** More Claude Code settings files whose hooks run (`--claude-settings`). */
  claudeSettings?: string[];
}

async function runOnce(
  agent: Agent,
  prompt: string,
  sessionId: string,
  options: RunCommandOptions,
  io: CliIO,
  configPath: string,
  logs: LogRoute,
): Promise<RunResult> {
  if (options.json) return agent.run(prompt, { sessionId });
  const trace = new LiveTrace(io.stdout, { color: io.color });
  const done = logs.through(trace);
  let result: RunResult;
  try {
    const live = agent.stream(prompt, { sessionId });
    for await (const event of live) trace.event(event);
    result = await live.result;
  } finally {
    done();
  }
  printApprovals(io.stdout, configPath, result);
  return result;
}

/**
 * On a terminal (human mode) approvals are asked there; otherwise nobody is listening and
 * an `ask` suspends the run, to be decided with `hookwise resume`.
 */
export function approvalChannel(
  io: CliIO,
  json: boolean | undefined,
): { prompt: TerminalPrompt | undefined; overrides: Pick<AgentOptions, "approvals"> } {
  if (!io.isTTY || json) return { prompt: undefined, overrides: {} };
  const prompt = terminalPrompt(io);
  return { prompt, overrides: { approvals: { handler: approvalPrompt(io.stdout, prompt.ask) } } };
}

/** All of the process's stdin, as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The prompt of a one-shot run: `--prompt`, else stdin when it is piped (`echo hi | hookwise
 * run cfg.yaml`; its final newline dropped); undefined on a terminal (the chat). An empty or
 * blank prompt is a usage error, never a run.
 */
async function promptOf(options: RunCommandOptions, io: CliIO): Promise<string | undefined> {
  if (options.prompt === undefined && io.isTTY) return undefined;
  const text = options.prompt ?? (await (io.readInput ?? readStdin)()).replace(/\r?\n$/, "");
  if (text.trim() === "") {
    throw new UsageError(
      options.prompt === undefined
        ? "no prompt: stdin was empty; pass --prompt TEXT or pipe the prompt on stdin"
        : "the prompt is empty: pass --prompt TEXT with some text, or pipe the prompt on stdin",
    );
  }
  return text;
}

export async function runCommand(configPath: string, options: RunCommandOptions, io: CliIO): Promise<number> {
  const prompt = await promptOf(options, io);
  const logs = new LogRoute(options.json ? io.stderr : io.stdout);
  const loaded = await loadCliConfig(configPath, io, options.json, options.claudeSettings, logs);
  try {
    for (const warning of loaded.warnings) io.stderr.line(formatIssue(warning));
    const channel = approvalChannel(io, options.json);
    const agent = await loaded.createAgent(options.agent, {
      ...(options.model ? { model: modelOverride(loaded, options.model) } : {}),
      ...channel.overrides,
    });
    const unsubscribe = loaded.notifications.subscribe((note) =>
      logs.line(notificationLine(note), note.hook),
    );
    const sessionId = options.session ?? randomUUID();
    const model = agent.runtime.model;
    keepScriptPosition(model, loaded.store, sessionId);
    loaded.keepScriptPositions(sessionId);
    const banner =
      model.provider === "scripted"
        ? `hookwise · agent ${agent.name} · SCRIPTED model (offline replay of ${model.modelId}; no real LLM is called)`
        : `hookwise · agent ${agent.name} · model ${model.provider}:${model.modelId}`;
    (options.json ? io.stderr : io.stdout).line(banner);
    try {
      if (prompt !== undefined) {
        const result = await runOnce(agent, prompt, sessionId, options, io, configPath, logs);
        // A one-shot run is a session's end, as `claude -p` is (a suspended run's is not).
        if (result.outcome !== "suspended") await agent.endSession(sessionId, { reason: "one_shot" });
        if (options.json) io.stdout.line(JSON.stringify(result, null, 2));
        return exitCodeFor(result.outcome);
      }
      return await chat(
        agent,
        sessionId,
        options,
        io,
        configPath,
        logs,
        channel.prompt ?? terminalPrompt(io),
      );
    } finally {
      unsubscribe();
      channel.prompt?.close();
    }
  } finally {
    await loaded.close();
  }
}

async function chat(
  agent: Agent,
  sessionId: string,
  options: RunCommandOptions,
  io: CliIO,
  configPath: string,
  logs: LogRoute,
  prompt: TerminalPrompt,
): Promise<number> {
  io.stdout.line(`session ${sessionId} — type a message, or /exit`);
  let code = 0;
  try {
    for (;;) {
      const line = (await prompt.ask("you › ")).trim();
      if (line === "/exit" || line === "/quit") break;
      if (!line) continue;
      const result = await runOnce(agent, line, sessionId, options, io, configPath, logs);
      code = exitCodeFor(result.outcome);
    }
  } catch (error) {
    if ((error as { code?: string }).code !== "ABORT_ERR") throw error;
  } finally {
    prompt.close();
  }
  // The chat is over: session_end hooks see it (the transcript stays for --session).
  await agent.endSession(sessionId, { reason: "closed" });
  return code;
}
