/** hookwise `agent.run()` on a store of one's own (a plain object delegating to a MemoryStore), runs not recorded. */
import { storeContender } from "./hookwise-store.js";

export const create = storeContender("own", false);
