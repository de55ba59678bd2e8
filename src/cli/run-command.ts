/**
 * `hookwise run <config> [--prompt TEXT] [--agent ID] [--session ID] [--json]`.
 * Human output streams the run as it happens; `--json` prints one RunResult on stdout
 * (logs on stderr). No prompt and a TTY: an interactive chat in one session.
 */
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline/promises";
import type { Agent } from "../agent/create-agent.js";
import type { RunResult } from "../agent/run-result.js";
import { formatIssue } from "../config/config-error.js";
import { loadConfig } from "../config/load-config.js";
import { exitCodeFor } from "./exit-codes.js";
import { eventRenderer, type Printer } from "./render-event.js";
import { UsageError } from "./usage-error.js";

export interface RunCommandOptions {
  prompt?: string;
  agent?: string;
  session?: string;
  json?: boolean;
}

export interface CliIO {
  stdout: Printer;
  stderr: Printer;
  isTTY: boolean;
}

async function runOnce(
  agent: Agent,
  prompt: string,
  sessionId: string,
  options: RunCommandOptions,
  io: CliIO,
): Promise<RunResult> {
  if (options.json) return agent.run(prompt, { sessionId });
  const render = eventRenderer(io.stdout);
  const live = agent.stream(prompt, { sessionId });
  for await (const event of live) render(event);
  return live.result;
}

export async function runCommand(configPath: string, options: RunCommandOptions, io: CliIO): Promise<number> {
  // Human mode prints hook logs in the live trace; --json keeps stdout for the result alone.
  const logs = options.json ? io.stderr : io.stdout;
  const loaded = await loadConfig(configPath, {
    logger: {
      debug() {},
      info: (message) => logs.line(`  ✎ ${message}`),
      warn: (message) => io.stderr.line(`  warning: ${message}`),
      error: (message) => io.stderr.line(`  error: ${message}`),
    },
    // Sessions survive the process: SQLite beside the config unless runtime.state says otherwise.
    defaultState: { kind: "sqlite", path: ".hookwise/state.db" },
  });
  try {
    for (const warning of loaded.warnings) io.stderr.line(formatIssue(warning));
    const agent = await loaded.createAgent(options.agent);
    const unsubscribe = loaded.notifications.subscribe((note) =>
      (options.json ? io.stderr : io.stdout).line(`  🔔 [${note.level}] ${note.title}: ${note.message}`),
    );
    const sessionId = options.session ?? randomUUID();
    const model = agent.runtime.model;
    const banner =
      model.provider === "scripted"
        ? `hookwise · agent ${agent.name} · SCRIPTED model (offline replay of ${model.modelId}; no real LLM is called)`
        : `hookwise · agent ${agent.name} · model ${model.provider}:${model.modelId}`;
    (options.json ? io.stderr : io.stdout).line(banner);
    try {
      if (options.prompt !== undefined) {
        const result = await runOnce(agent, options.prompt, sessionId, options, io);
        if (options.json) io.stdout.line(JSON.stringify(result, null, 2));
        return exitCodeFor(result.outcome);
      }
      if (!io.isTTY)
        throw new UsageError("no --prompt given and stdin is not a terminal; pass --prompt TEXT");
      return await chat(agent, sessionId, options, io);
    } finally {
      unsubscribe();
    }
  } finally {
    await loaded.close();
  }
}

async function chat(agent: Agent, sessionId: string, options: RunCommandOptions, io: CliIO): Promise<number> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  io.stdout.line(`session ${sessionId} — type a message, or /exit`);
  let code = 0;
  try {
    for (;;) {
      const line = (await rl.question("you › ")).trim();
      if (line === "/exit" || line === "/quit") break;
      if (!line) continue;
      const result = await runOnce(agent, line, sessionId, options, io);
      code = exitCodeFor(result.outcome);
    }
  } catch (error) {
    if ((error as { code?: string }).code !== "ABORT_ERR") throw error;
  } finally {
    rl.close();
  }
  return code;
}
