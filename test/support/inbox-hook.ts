/**
 * A harness hook that waits in the approval inbox, for the inbox tests: a config guarding
 * Claude Code and Gemini CLI whose policy asks about `deploy` shell commands with
 * `approvals: inbox`, and a real
 * `hookwise hook` process given Claude Code's PreToolUse on stdin.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { CLI } from "../gateway/gateway-fixture.js";

export function hookConfig(state: string, wait?: number): string {
  return `harness: [claude, gemini]
runtime:
  state: ${state}
  approvals: inbox
${wait !== undefined ? `  approval_wait: ${wait}\n` : ""}  policies:
    - { decision: ask_user, tool: shell, when: 'args.command.contains("deploy")', reason: "deploys need a human" }
`;
}

export const claudePre = (command: string, session: string) => ({
  session_id: session,
  transcript_path: "/tmp/t.jsonl",
  cwd: "/tmp",
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command, description: "deploy it" },
  tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
});

export interface HookRun {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** `hookwise hook CONFIG --harness claude` as Claude Code runs it (or another harness): the event on stdin. */
export function hookProcess(
  config: string,
  payload: unknown,
  timeout = 40,
  harness = "claude",
  env?: NodeJS.ProcessEnv,
): HookRun {
  const child = spawn(
    process.execPath,
    [...CLI, "hook", config, "--harness", harness, "--timeout", String(timeout)],
    {
      stdio: ["pipe", "pipe", "pipe"],
      ...(env ? { env: { ...process.env, ...env } } : {}),
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  child.stdin!.end(JSON.stringify(payload));
  const timer = setTimeout(() => child.kill("SIGKILL"), (timeout + 20) * 1000);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, done };
}
