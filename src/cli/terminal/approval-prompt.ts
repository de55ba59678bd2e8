/**
 * The CLI's approval channel on a terminal: shows the tool, its qualified name
 * and the arguments that will run, and reads `y` (approve), `n` (deny), or any other text
 * (deny, with that text as the reason the model receives). Without a terminal the CLI
 * gives no handler, so the run suspends and `hookwise resume` decides later.
 */
import type { ApprovalAnswer, ApprovalRequest } from "../../approvals/types.js";
import { printable } from "../../config/printable.js";
import type { Printer } from "./render-event.js";

export function approvalPrompt(
  out: Printer,
  ask: (question: string) => Promise<string>,
): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    out.line(`  ? approval needed: ${request.qualifiedName} (called as ${printable(request.toolName)})`);
    out.line(`    arguments: ${printable(JSON.stringify(request.args) ?? "")}`);
    if (request.reason) out.line(`    why asked: ${printable(request.reason)}`);
    for (;;) {
      const answer = (await ask("    approve? y = yes, n = no, or type a reason to deny › ")).trim();
      if (/^(y|yes)$/i.test(answer)) return { approved: true, reason: "approved at the terminal" };
      if (/^(n|no)$/i.test(answer)) return { approved: false, reason: "denied at the terminal" };
      if (answer) return { approved: false, reason: answer };
    }
  };
}
