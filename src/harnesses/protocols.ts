/** The harnesses hookwise answers, by name. */
import { claudeProtocol } from "./claude/protocol.js";
import { codexProtocol } from "./codex/protocol.js";
import { cursorProtocol } from "./cursor/protocol.js";
import { geminiProtocol } from "./gemini/protocol.js";
import type { HarnessName, HarnessProtocol } from "./types.js";

export const HARNESSES: Readonly<Record<HarnessName, HarnessProtocol>> = {
  claude: claudeProtocol,
  codex: codexProtocol,
  gemini: geminiProtocol,
  cursor: cursorProtocol,
};
