export { MemoryStore } from "./memory-store.js";
export type { SessionRecord, StateStore } from "./state-store.js";
