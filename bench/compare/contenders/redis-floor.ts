/** The floor under the Redis row: the in-memory run plus one raw SET of its session. */
import { floorContender } from "./store-floor.js";

export const create = floorContender("redis");
