/** The floor under the SQLite row: the in-memory run plus one raw SQLite commit of its session. */
import { floorContender } from "./store-floor.js";

export const create = floorContender("sqlite");
