export {
  createStore,
  resolveStateConfig,
  type StateConfig,
  type StateStoreKind,
  stateStoreKinds,
} from "./create-store.js";
export { FileStore, type FileStoreOptions } from "./file-store.js";
export { MemoryStore, type MemoryStoreOptions } from "./memory-store.js";
export { type RedisClientLike, RedisStore, type RedisStoreOptions } from "./redis-store.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export type {
  LeaseOptions,
  SaveSessionOptions,
  SessionLeaseRef,
  SessionRecord,
  StateStore,
  StoreWrite,
} from "./state-store.js";
export { StateStoreError } from "./state-store-error.js";
