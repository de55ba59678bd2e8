/** The floor under the SQLite recorded row: the in-memory run plus one raw SQLite commit of its session and record. */
import { floorContender } from "./store-floor.js";

export const create = floorContender("sqlite", true);
