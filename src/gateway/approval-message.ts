/**
 * What the client's user reads when the gateway asks to approve a call (MCP elicitation):
 * the tool, the reason and the arguments, masked of the configured secrets. Arguments too
 * long to show whole are shown argument by argument, every name listed and each value cut
 * with its full length said, so nothing the call would run with hides past a silent cut (a
 * long first argument pushing a dangerous second one out of view).
 */
import { maskSecrets } from "../secrets/secret-registry.js";

/** Characters of arguments shown. */
const SHOWN = 2_000;
/** Arguments named one by one, at most. */
const NAMED = 40;

function json(value: unknown): string {
  try {
    return maskSecrets(JSON.stringify(value) ?? String(value));
  } catch {
    return maskSecrets(String(value));
  }
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}… (${text.length} characters in all)`;
}

function argumentsText(args: unknown): string {
  const whole = json(args);
  if (whole.length <= SHOWN) return `Arguments: ${whole}`;
  if (typeof args !== "object" || args === null || Array.isArray(args))
    return `Arguments, too long to show whole: ${cut(whole, SHOWN)}`;
  const entries = Object.entries(args);
  const share = Math.max(80, Math.floor(SHOWN / Math.min(entries.length, NAMED)));
  const lines = entries
    .slice(0, NAMED)
    .map(([name, value]) => `  ${cut(json(name), 100)}: ${cut(json(value), share)}`);
  if (entries.length > NAMED) lines.push(`  … and ${entries.length - NAMED} more arguments not shown`);
  return `Arguments (${whole.length} characters, too long to show whole; each value cut):\n${lines.join("\n")}`;
}

export function approvalMessage(approval: { qualifiedName: string; reason?: string; args: unknown }): string {
  // A hook's reason may quote the arguments (`{{tool.params.…}}`): masked as they are.
  const reason = approval.reason === undefined ? "It needs approval." : maskSecrets(approval.reason);
  return `Allow the tool call ${approval.qualifiedName}? ${reason}\n${argumentsText(approval.args)}`;
}
