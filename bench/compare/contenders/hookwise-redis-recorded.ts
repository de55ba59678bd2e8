/** hookwise `agent.run()` on RedisStore (a local redis-server), every run recorded. */
import { storeContender } from "./hookwise-store.js";

export const create = storeContender("redis", true);
