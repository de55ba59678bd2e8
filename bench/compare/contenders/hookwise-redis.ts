/** hookwise `agent.run()` on RedisStore (a local redis-server), runs not recorded. */
import { storeContender } from "./hookwise-store.js";

export const create = storeContender("redis", false);
