/** Human output of a run as it happens: steps, tool calls, hook firings, the answer. */
import { printable, printableText } from "../../config/printable.js";
import type { HookTraceEntry } from "../../hooks/trace.js";
import type { AgentEvent, Usage } from "../../loop/run-result.js";
import { colors, noColors } from "./colors.js";

export interface Printer {
  line(text: string): void;
  write(text: string): void;
}

/**
 * How a value's later lines start (an answer, a hook's message holding a command's output):
 * never at the margin, so no line of it passes for one of hookwise's.
 */
export const CONTINUATION = "    ┆ ";

function short(value: unknown, max = 160): string {
  const raw = typeof value === "string" ? value : JSON.stringify(value);
  if (raw === undefined) return "";
  // One line per item in the live trace: line breaks inside a value show as ⏎, and every
  // other control character as an escape (a value cannot redraw the screen or forge a line).
  const text = printable(raw.replace(/\s*\r?\n\s*/g, " ⏎ "));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Draws events as they come: text deltas inline, everything else line by line. */
export interface EventDrawer {
  /** An event; a `hook` event is a line per firing. */
  event(event: AgentEvent): void;
  /** One hook firing's line; `note` ends it (e.g. the step it belongs to). */
  firing(entry: HookTraceEntry, note?: string): void;
  /** A line that is not an event's (a hook's log line), after any answer being written. */
  line(text: string): void;
}

/** Returns a stateful renderer: text deltas are written inline, everything else line by line. */
export function eventRenderer(out: Printer, options: { color?: boolean } = {}): (event: AgentEvent) => void {
  const drawer = eventDrawer(out, options);
  return (event) => drawer.event(event);
}

/** The renderer behind `eventRenderer`. */
export function eventDrawer(out: Printer, options: { color?: boolean } = {}): EventDrawer {
  const c = options.color ? colors : noColors;
  let inText = false;
  const endText = () => {
    if (inText) out.write("\n");
    inText = false;
  };
  const line = (text: string) => {
    endText();
    out.line(text);
  };
  const firing = (entry: HookTraceEntry, note?: string) => {
    endText();
    out.line(
      `  ${c.yellow(`⚑ hook ${printable(entry.hook)}`)} ${c.dim(`[${entry.kind} on ${entry.event}]`)} → ${effectColor(c, entry.effect)}${entry.detail !== undefined ? `: ${short(entry.detail, 120)}` : ""}${note ? c.dim(` ${note}`) : ""}`,
    );
  };
  const event = (event: AgentEvent) => {
    switch (event.type) {
      case "run-start":
        out.line(
          c.bold(`› ${printable(event.input)}`) +
            (event.resumed ? c.dim(`  (resuming run ${event.runId})`) : ""),
        );
        break;
      case "step-start":
        endText();
        out.line(c.dim(`── step ${event.step + 1}`));
        break;
      case "text-delta":
        if (!inText) out.write(`  ${c.bold("assistant:")} `);
        inText = true;
        // The answer's later lines are continued, so none of them passes for hookwise's own.
        out.write(printableText(event.delta).replace(/\n/g, `\n${CONTINUATION}`));
        break;
      case "tool-call":
        endText();
        out.line(`  model calls ${c.cyan(event.toolName)} ${short(event.args)}`);
        break;
      case "tool-execution-start":
        out.line(`  ${c.cyan("▶ run")} ${event.toolName} ${short(event.args)}`);
        break;
      case "tool-result":
        out.line(
          `  ${event.isError ? c.red(`◀ ${event.toolName} (error)`) : c.green(`◀ ${event.toolName}`)}: ${short(event.result)}`,
        );
        break;
      case "hook":
        for (const entry of event.firings) firing(entry);
        break;
      case "step-finish":
        endText();
        break;
      case "run-finish": {
        endText();
        const { result } = event;
        const why = result.reason
          ? ` — ${short(result.reason, 400)}${result.hook ? ` (hook ${printable(result.hook)})` : ""}`
          : "";
        const paint =
          result.outcome === "completed" ? c.green : result.outcome === "suspended" ? c.yellow : c.red;
        out.line(
          paint(
            `■ ${result.outcome} after ${result.steps.length} step${result.steps.length === 1 ? "" : "s"}${why}${cacheNote(result.usage)}`,
          ),
        );
        break;
      }
      default:
        break;
    }
  };
  return { event, firing, line };
}

/** The prompt cache's share of the input, when the provider reported it. */
function cacheNote(usage: Usage): string {
  if (usage.cacheReadTokens === undefined && usage.cacheWriteTokens === undefined) return "";
  const count = (value: number) => value.toLocaleString("en-US");
  const parts = [`${count(usage.inputTokens)} input tokens`];
  if (usage.cacheReadTokens !== undefined) parts.push(`${count(usage.cacheReadTokens)} read from cache`);
  if (usage.cacheWriteTokens !== undefined) parts.push(`${count(usage.cacheWriteTokens)} written to cache`);
  return ` · ${parts.join(", ")}`;
}

/** Denials and terminations in red, rewrites in magenta, the rest as they are. */
function effectColor(c: typeof colors, effect: string): string {
  if (/deny|terminate|block|error|timeout/.test(effect)) return c.red(effect);
  if (/rewrite|patch|transform|edit/.test(effect)) return c.magenta(effect);
  return effect;
}
