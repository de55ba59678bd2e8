/** hookwise `agent.run()` on SqliteStore, every run recorded. */
import { storeContender } from "./hookwise-store.js";

export const create = storeContender("sqlite", true);
