/**
 * The bench's config: 50 rules, 40 policies over the shell, file and MCP tools, 10 hooks with
 * conditions. `state`: a `runtime.state` line's value (default: none, the CLI's own default).
 */
export function fiftyRules(state?: string): string {
  const lines = ["harness: [claude, codex, gemini]", "runtime:"];
  if (state !== undefined) lines.push(`  state: ${state}`);
  lines.push("  policies:");
  for (let index = 0; index < 20; index++)
    lines.push(
      `    - { decision: deny, tool: shell, when: 'args.command.contains("forbidden-${index}")', reason: "rule ${index}" }`,
    );
  for (let index = 0; index < 10; index++)
    lines.push(`    - { decision: deny, tool: Read, when: 'args.file_path.endsWith(".secret${index}")' }`);
  for (let index = 0; index < 10; index++)
    lines.push(`    - { decision: ask_user, tool: "mcp__server${index}__*" }`);
  lines.push("  hooks:");
  for (let index = 0; index < 10; index++)
    lines.push(
      `    - { id: rule-${index}, on: tool_call, condition: { type: expression, expr: 'args.command.startsWith("blocked-${index}")' }, action: { type: gate } }`,
    );
  return `${lines.join("\n")}\n`;
}

/** A PreToolUse event of Claude Code's, a shell command no rule stops. */
export function preToolUse(dir: string, command = "ls -la"): Record<string, unknown> {
  return {
    session_id: "bench",
    transcript_path: `${dir}/t.jsonl`,
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command, description: "list" },
    tool_use_id: "toolu_bench",
  };
}
