/** The floor under the Redis recorded row: the in-memory run plus one raw MULTI of its session and record. */
import { floorContender } from "./store-floor.js";

export const create = floorContender("redis", true);
