/** The harnesses hookwise answers, by name. */
import { claudeProtocol } from "./claude/protocol.js";
import { codexProtocolModule } from "./codex/protocol.part.js";
import { cursorProtocolModule } from "./cursor/protocol.part.js";
import { geminiProtocolModule } from "./gemini/protocol.part.js";
import type { HarnessName, HarnessProtocol } from "./types.js";

export const HARNESSES: Readonly<Record<HarnessName, HarnessProtocol>> = {
  claude: claudeProtocol,
  // The others' protocols load when first read (a harness's hook answers one harness).
  get codex() {
    return codexProtocolModule().codexProtocol;
  },
  get gemini() {
    return geminiProtocolModule().geminiProtocol;
  },
  get cursor() {
    return cursorProtocolModule().cursorProtocol;
  },
};
