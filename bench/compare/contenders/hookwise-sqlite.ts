/** hookwise `agent.run()` on SqliteStore, runs not recorded. */
import { storeContender } from "./hookwise-store.js";

export const create = storeContender("sqlite", false);
