/** Human output of a suspended run: what it waits for, and the commands that decide it. */
import { printable } from "../../config/printable.js";
import type { RunResult } from "../../loop/run-result.js";
import type { Printer } from "./render-event.js";

function quote(text: string): string {
  return /^[\w./:@-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

export function printApprovals(out: Printer, configPath: string, result: RunResult): void {
  const approvals = result.approvals ?? [];
  if (result.outcome !== "suspended" || approvals.length === 0) return;
  out.line(
    `⏸ run ${result.runId} is suspended, waiting for ${approvals.length} approval${approvals.length === 1 ? "" : "s"}:`,
  );
  for (const approval of approvals) {
    out.line(
      `  [${approval.id}] ${approval.qualifiedName} (${printable(approval.toolName)}) ${printable(JSON.stringify(approval.args) ?? "")}${approval.reason ? ` — ${printable(approval.reason)}` : ""}`,
    );
    out.line(`    approvable until ${approval.expiresAt}`);
    if (approval.token) out.line(`    token: ${approval.token}`);
  }
  const base = `hookwise resume ${quote(configPath)} --run ${result.runId}`;
  out.line(`  approve: ${base} --approve ${approvals.length === 1 ? approvals[0]!.id : "all"}`);
  out.line(`  deny:    ${base} --deny ${approvals.length === 1 ? approvals[0]!.id : "<id>"} --reason "…"`);
}
