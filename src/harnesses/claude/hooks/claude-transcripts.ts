/**
 * Session transcripts as Claude Code writes them, for hooks that read `transcript_path`:
 * one JSON object per line, `{ type, uuid, parentUuid, sessionId, timestamp, cwd, message }`
 * with `message` in Anthropic's shape — a user's text, an assistant's `text` / `thinking` /
 * `tool_use` blocks, tool results as a user message of `tool_result` blocks. Written before a
 * handler runs, from what the session committed so far (new lines appended when the
 * transcript only grew; rewritten whole when a compaction or an edit changed it).
 */

import { closeSync, constants, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeCrypto } from "../../../deps/node-crypto.js";
import type { ModelMessage } from "../../../events/payloads.js";
import type { ClaudeTools } from "./claude-tools.js";

interface Written {
  count: number;
  last: ModelMessage | undefined;
  lastUuid: string | null;
}

/** A session id as a file name: anything but letters, digits, `_` and `-` replaced, plus a hash when changed. */
export function transcriptFileName(sessionId: string): string {
  const clean = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
  if (clean === sessionId && clean !== "") return `${clean}.jsonl`;
  const hash = nodeCrypto().createHash("sha256").update(sessionId).digest("hex").slice(0, 12);
  return `${clean}-${hash}.jsonl`;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return JSON.stringify(content ?? "");
  return content
    .map((part: { type?: string; text?: string }) =>
      part.type === "text" ? (part.text ?? "") : JSON.stringify(part),
    )
    .join("");
}

/** A tool output (`{ type: "text" | "json" | "error-text" | … , value }`) as a tool_result's content. */
function outputText(output: { type?: string; value?: unknown } | undefined): string {
  if (output === undefined) return "";
  return typeof output.value === "string" ? output.value : JSON.stringify(output.value ?? output);
}

/**
 * Writes `text` to `file`, readable by its owner only, never through a link: a link planted
 * where a transcript goes (another user's, in a shared folder) is refused, not followed.
 */
function writePrivate(file: string, text: string, append: boolean): void {
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_NOFOLLOW |
    (append ? constants.O_APPEND : constants.O_TRUNC);
  const fd = openSync(file, flags, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

export class ClaudeTranscripts {
  /** Undefined until first needed when none was given: then a new private temp folder. */
  #dir: string | undefined;
  readonly #own: boolean;
  readonly #tools: ClaudeTools;
  readonly #written = new Map<string, Written>();
  readonly #uuids = new WeakMap<object, string>();

  /** `dir`: where transcripts go; none: a folder of this process's own in the OS temp folder. */
  constructor(dir: string | undefined, tools: ClaudeTools) {
    this.#dir = dir;
    this.#own = dir === undefined;
    this.#tools = tools;
  }

  /** Removes the folder when it is this object's own temp folder (the set was closed). */
  dispose(): void {
    if (!this.#own || this.#dir === undefined) return;
    rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
    this.#written.clear();
  }

  pathFor(sessionId: string): string {
    // mkdtemp makes a folder no one else has, readable by its owner only.
    this.#dir ??= mkdtempSync(join(tmpdir(), "hookwise-claude-transcripts-"));
    return join(this.#dir, transcriptFileName(sessionId));
  }

  /** Brings the session's file up to date with `messages`; returns its path. */
  write(sessionId: string, messages: readonly ModelMessage[], cwd: string): string {
    const file = this.pathFor(sessionId);
    const before = this.#written.get(file);
    const grew =
      before !== undefined && messages.length >= before.count && messages[before.count - 1] === before.last;
    if (grew && messages.length === before.count) return file;
    const from = grew ? before.count : 0;
    let parent = grew ? before.lastUuid : null;
    let lines = "";
    for (let index = from; index < messages.length; index++) {
      const message = messages[index]!;
      const uuid = this.#uuidOf(message);
      lines += `${JSON.stringify(this.#line(message, { uuid, parent, sessionId, cwd }))}\n`;
      parent = uuid;
    }
    mkdirSync(this.#dir!, { recursive: true, mode: 0o700 });
    writePrivate(file, lines, grew);
    this.#written.set(file, { count: messages.length, last: messages.at(-1), lastUuid: parent });
    return file;
  }

  #uuidOf(message: ModelMessage): string {
    let uuid = this.#uuids.get(message);
    if (uuid === undefined) {
      uuid = nodeCrypto().randomUUID();
      this.#uuids.set(message, uuid);
    }
    return uuid;
  }

  #line(
    message: ModelMessage,
    where: { uuid: string; parent: string | null; sessionId: string; cwd: string },
  ): Record<string, unknown> {
    const base = {
      uuid: where.uuid,
      parentUuid: where.parent,
      sessionId: where.sessionId,
      timestamp: new Date().toISOString(),
      cwd: where.cwd,
      isSidechain: false,
    };
    const content = message.content as unknown;
    switch (message.role) {
      case "user":
        return {
          ...base,
          type: "user",
          userType: "external",
          message: { role: "user", content: this.#userContent(content) },
        };
      case "assistant":
        return {
          ...base,
          type: "assistant",
          message: { role: "assistant", content: this.#assistantContent(content) },
        };
      case "tool":
        return {
          ...base,
          type: "user",
          message: {
            role: "user",
            content: (content as { toolCallId: string; output?: { type?: string; value?: unknown } }[]).map(
              (part) => ({
                type: "tool_result",
                tool_use_id: part.toolCallId,
                content: outputText(part.output),
                is_error: part.output?.type === "error-text" || part.output?.type === "error-json",
              }),
            ),
          },
        };
      default:
        return { ...base, type: "system", content: textOf(content) };
    }
  }

  #userContent(content: unknown): unknown {
    if (typeof content === "string") return content;
    return (content as { type: string; text?: string }[]).map((part) =>
      part.type === "text" ? { type: "text", text: part.text } : { type: part.type },
    );
  }

  #assistantContent(content: unknown): unknown[] {
    if (typeof content === "string") return [{ type: "text", text: content }];
    const blocks: unknown[] = [];
    for (const part of content as {
      type: string;
      text?: string;
      toolCallId?: string;
      toolName?: string;
      input?: unknown;
    }[]) {
      if (part.type === "text") blocks.push({ type: "text", text: part.text });
      else if (part.type === "reasoning") blocks.push({ type: "thinking", thinking: part.text });
      else if (part.type === "tool-call") {
        const call = this.#tools.transcriptCall(part.toolName!, part.input);
        blocks.push({ type: "tool_use", id: part.toolCallId, name: call.name, input: call.input });
      }
    }
    return blocks;
  }
}
