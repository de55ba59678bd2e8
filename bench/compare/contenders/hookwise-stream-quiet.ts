/** hookwise `agent.stream(input, { hookEvents: false })`: every event read, no per-hook events. */
import { streamContender } from "./hookwise-stream.js";

export const create = streamContender(false);
