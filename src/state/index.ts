export { createStore, type StateConfig, type StateStoreKind, stateStoreKinds } from "./create-store.js";
export { MemoryStore } from "./memory-store.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export type { SessionRecord, StateStore } from "./state-store.js";
export { StateStoreError } from "./state-store-error.js";
