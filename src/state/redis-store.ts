/**
 * The Redis StateStore: many processes on many machines sharing sessions, hook counters,
 * suspended runs and approvals (Redis 7 or Valkey). Every conditional operation is one Lua
 * script run on the server (redis-scripts.ts), a session's commit with the values written
 * with it (a run's record) too: one round trip; TTLs are Redis expiries, so nothing expired
 * lingers.
 *
 * Keys, under `prefix` (default "hookwise:"):
 *
 *   <prefix>kv:<key>         a value (JSON text), a counter, or a lease holder
 *   <prefix>hits:<key>       a rate window (sorted set of event times)
 *   <prefix>session:<id>     a session (hash: messages, archived, createdAt, updatedAt, version, runs)
 *   <prefix>channel:<name>   a pub/sub channel (`broadcast` / `listen`; listening opens a second connection)
 *
 * `ioredis` is an optional dependency, loaded on first use. With `url` the store opens (and
 * closes) its own connection; with `client` it uses yours and leaves it open.
 */
import { nodeCrypto } from "../deps/node-crypto.js";
import { SessionBusyError } from "../errors/session-busy-error.js";
import { decodeStoredSession, decodeStoredValue, type StoredPlace } from "./decode-stored.js";
import { encodeJson } from "./json-codec.js";
import {
  beginSessionScript,
  hitScript,
  incrementScript,
  leaseScript,
  type RedisClientLike,
  releaseScript,
  runScript,
  runScriptOn,
  saveSessionScript,
} from "./redis-scripts.js";
import type {
  LeaseOptions,
  SaveSessionOptions,
  SessionLeaseRef,
  SessionRecord,
  StateStore,
  StoreWrite,
} from "./state-store.js";
import { StateStoreError } from "./state-store-error.js";

export type { RedisClientLike } from "./redis-scripts.js";

export interface RedisStoreOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). Give this or `client`. */
  url?: string;
  /** An ioredis client (`Redis` or `Cluster`) you own: the store does not close it. */
  client?: RedisClientLike;
  /** Prefix of every key (default "hookwise:"), so several apps can share one Redis. */
  prefix?: string;
  /** A session not committed for this long expires (default: kept until deleted). */
  sessionTtlMs?: number;
  /**
   * How long a command (and the connection's handshake) may wait for the server's answer
   * before it fails, naming the server (default 5000). A server that accepts connections but
   * does not answer (stopped, overloaded, a TLS server reached as plain `redis://`) then fails
   * each operation within this, never holds a caller for good. Only for a store that opens its
   * own connection (`url`): a `client` you give keeps its own settings.
   */
  commandTimeoutMs?: number;
}

/** The default of `commandTimeoutMs`. */
const COMMAND_TIMEOUT_MS = 5_000;

/** How long `close()` waits for the server to acknowledge QUIT before it drops the connection. */
const QUIT_WAIT_MS = 1_000;

/** How long a window's sorted set outlives its last event, beyond the window itself. */
const WINDOW_SLACK_MS = 60_000;

/**
 * The database a Redis URL names (`redis://host:6379/2`, or `?db=2`), 0 when it names none;
 * a string saying what is wrong when it is not a whole number (ioredis would send it to
 * SELECT, and on the server's refusal stay on database 0 without a word).
 */
export function redisDatabase(url: string): number | string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "it is not a URL";
  }
  const fromPath = parsed.pathname.length > 1 ? parsed.pathname.slice(1) : undefined;
  const text = fromPath ?? parsed.searchParams.get("db") ?? "0";
  if (!/^\d{1,9}$/.test(text))
    return `the database after the host must be a whole number, as in redis://host:6379/0 (got "${text}")`;
  return Number(text);
}

/** The URL without user or password, for messages. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return "(an unparsable Redis URL)";
  }
}

/** Whether ioredis gave up waiting for an answer (`commandTimeout`). */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === "Command timed out";
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

interface OwnedClient extends RedisClientLike {
  connect(): Promise<void>;
  select(database: number): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** A connection in subscriber mode (ioredis: `subscribe`, `unsubscribe`, "message"). */
interface Subscriber {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: "message", listener: (channel: string, message: string) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export class RedisStore implements StateStore {
  readonly kind = "redis";
  readonly location: string;
  readonly prefix: string;
  readonly #url: string | undefined;
  readonly #database: number;
  readonly #sessionTtlMs: number | undefined;
  readonly #commandTimeoutMs: number;
  readonly #place: StoredPlace;
  /** Connections still opening: `close()` drops them rather than wait for a server that may never answer. */
  readonly #opening = new Set<OwnedClient>();
  #client: Promise<RedisClientLike> | undefined;
  #owned: OwnedClient | undefined;
  #closed = false;
  /** The connection that listens (a connection that subscribes can do nothing else). */
  #subscriber: Promise<Subscriber> | undefined;
  readonly #channels = new Map<string, Set<(message: string) => void>>();

  constructor(options: RedisStoreOptions) {
    if ((options.url === undefined) === (options.client === undefined)) {
      throw new StateStoreError({
        kind: "redis",
        message:
          "new RedisStore: give either url (redis://host:port) or client (an ioredis client), not both or neither",
      });
    }
    if (options.url !== undefined && !/^rediss?:\/\//.test(options.url)) {
      throw new StateStoreError({
        kind: "redis",
        message: `new RedisStore: url must start with redis:// or rediss:// (got ${redactRedisUrl(options.url)})`,
      });
    }
    const database = options.url === undefined ? 0 : redisDatabase(options.url);
    if (typeof database === "string") {
      throw new StateStoreError({
        kind: "redis",
        message: `Redis URL ${redactRedisUrl(options.url!)}: ${database}`,
      });
    }
    this.#database = database;
    this.#url = options.url;
    this.prefix = options.prefix ?? "hookwise:";
    this.#sessionTtlMs = options.sessionTtlMs;
    this.#commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    if (options.client) this.#client = Promise.resolve(options.client);
    this.location = options.url ? redactRedisUrl(options.url) : "Redis (a client given in code)";
    this.#place = {
      kind: this.kind,
      location: this.location,
      removal: (entry, name) =>
        `delete it: redis-cli DEL '${entry === "session" ? this.#sessionKey(name) : this.#key(name)}'`,
    };
  }

  #key(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  #hitsKey(key: string): string {
    return `${this.prefix}hits:${key}`;
  }

  #sessionKey(id: string): string {
    return `${this.prefix}session:${id}`;
  }

  #redis(): Promise<RedisClientLike> {
    if (this.#closed) {
      return Promise.reject(this.#closedError());
    }
    if (!this.#client) {
      const connecting = this.#connect();
      this.#client = connecting;
      // A failed connection is not kept: the next operation tries again.
      connecting.catch(() => {
        if (this.#client === connecting) this.#client = undefined;
      });
    }
    return this.#client;
  }

  async #connect(): Promise<RedisClientLike> {
    const client = await this.#open(this.#url!);
    this.#owned = client;
    return client;
  }

  /** A new connection to `url`, connected (or a StateStoreError naming the server). */
  async #open(url: string): Promise<OwnedClient> {
    let Redis: new (url: string, options: object) => OwnedClient;
    try {
      ({ default: Redis } = (await import("ioredis")) as unknown as {
        default: new (url: string, options: object) => OwnedClient;
      });
    } catch (error) {
      throw new StateStoreError({
        kind: this.kind,
        message: "The Redis state store needs the ioredis package: npm install ioredis",
        cause: error,
      });
    }
    const client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: 5_000,
      // A server that accepts the connection but never answers (stopped, overloaded) fails each
      // command, the handshake's among them, within this: nothing waits on it for good.
      commandTimeout: this.#commandTimeoutMs,
      // A connection that ended by itself (refused) never reports its close: the stream is
      // dropped after this, so a failed store does not hold its process for ioredis's 2 s.
      disconnectTimeout: 200,
      // A command waits through a few reconnections, then fails (never hangs a run forever).
      maxRetriesPerRequest: 3,
      retryStrategy: (times: number) => Math.min(times * 100, 2_000),
    });
    // Errors reach callers through their commands; without a listener ioredis prints them.
    // The socket's own error says more than connect()'s "Connection is closed".
    let socketError: Error | undefined;
    client.on("error", (error) => {
      socketError = error;
    });
    this.#opening.add(client);
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw new StateStoreError({
        kind: this.kind,
        message: this.#unreachable(socketError ?? (error as Error)),
        cause: socketError ?? error,
      });
    } finally {
      this.#opening.delete(client);
    }
    if (this.#closed) {
      // Closed while it connected: the connection is not kept.
      client.disconnect();
      throw this.#closedError();
    }
    if (this.#database !== 0) {
      // ioredis selects the URL's database as it connects and, refused, stays on database 0
      // without a word: selected again here, a refusal fails the store instead.
      try {
        await client.select(this.#database);
      } catch (error) {
        client.disconnect();
        if (isTimeout(error)) throw this.#failure(error);
        throw new StateStoreError({
          kind: this.kind,
          message: `Redis at ${this.location} has no database ${this.#database} (${(error as Error).message}): use a database number the server has (0 to 15 unless its config sets databases)`,
          cause: error,
        });
      }
    }
    return client;
  }

  /** A command, with Redis failures turned into StateStoreErrors naming the server. */
  async #call<T>(operation: (client: RedisClientLike) => Promise<unknown>): Promise<T> {
    const client = await this.#redis();
    try {
      return (await operation(client)) as T;
    } catch (error) {
      if (StateStoreError.isInstance(error)) throw error;
      throw this.#failure(error);
    }
  }

  /** A command the server refused, or did not answer in time. */
  #failure(error: unknown): StateStoreError {
    const message = isTimeout(error)
      ? `Redis at ${this.location} did not answer within ${seconds(this.#commandTimeoutMs)}: check that the server is running and not overloaded`
      : `Redis at ${this.location} failed: ${(error as Error).message}`;
    return new StateStoreError({ kind: this.kind, message, cause: error });
  }

  /** Why a connection could not be opened, and what to do about it. */
  #unreachable(reason: Error): string {
    const where = `Redis at ${this.location}`;
    if (/^NOAUTH\b/.test(reason.message)) {
      return `${where} requires a password, and none was given: put it in HOOKWISE_STATE_URL (redis://:password@host:port/db, or redis://user:password@…)`;
    }
    if (/^WRONGPASS\b/.test(reason.message)) {
      return `${where} refused the user and password (${reason.message.split("\n")[0]}): give the right ones in HOOKWISE_STATE_URL (redis://user:password@host:port/db)`;
    }
    if (isTimeout(reason)) {
      const tls = this.location.startsWith("rediss:")
        ? "does the server take TLS on this port?"
        : "a server that takes only TLS wants a rediss:// URL";
      return `Cannot reach ${where}: it accepted the connection but did not answer within ${seconds(this.#commandTimeoutMs)}; check that it is running and not overloaded (${tls})`;
    }
    const tls =
      this.location.startsWith("rediss:") && /ETIMEDOUT|ECONNRESET|SSL|TLS|EPROTO/i.test(reason.message)
        ? " (a rediss:// URL: does the server take TLS on this port?)"
        : "";
    return `Cannot reach ${where} (${reason.message})${tls}: start it, or point HOOKWISE_STATE_URL / runtime.state.url at a running server`;
  }

  #closedError(): StateStoreError {
    return new StateStoreError({
      kind: this.kind,
      message: `the Redis store for ${this.location} is closed`,
    });
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const text = await this.#call<string | null>((redis) => redis.call("GET", this.#key(key)));
    return text === null ? undefined : (decodeStoredValue(this.#place, key, text) as T);
  }

  async set(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<void> {
    const text = encodeJson(value);
    if (text === undefined) {
      // `undefined` has no JSON text: it is stored as absent.
      await this.#call((redis) => redis.call("DEL", this.#key(key)));
      return;
    }
    await this.#call((redis) =>
      options.ttlMs === undefined
        ? redis.call("SET", this.#key(key), text)
        : redis.call("SET", this.#key(key), text, "PX", Math.max(1, Math.ceil(options.ttlMs))),
    );
  }

  async delete(key: string): Promise<void> {
    // Two commands, not one DEL of two keys: on a Cluster they may live in different slots.
    await this.#call((redis) =>
      Promise.all([redis.call("DEL", this.#key(key)), redis.call("DEL", this.#hitsKey(key))]),
    );
  }

  async increment(key: string, by = 1): Promise<number> {
    const reply = await this.#call<number | string>((redis) =>
      runScript(
        redis,
        incrementScript,
        this.#key(key),
        JSON.stringify(by),
        Number.isSafeInteger(by) ? "1" : "0",
      ),
    );
    return Number(reply);
  }

  async hit(key: string, options: { max: number; windowMs: number; now: number }): Promise<boolean> {
    const reply = await this.#call<number>((redis) =>
      runScript(
        redis,
        hitScript,
        this.#hitsKey(key),
        options.now,
        options.windowMs,
        options.max,
        `${options.now}:${nodeCrypto().randomUUID()}`,
        Math.ceil(options.windowMs) + WINDOW_SLACK_MS,
      ),
    );
    return reply === 1;
  }

  async keys(prefix: string): Promise<string[]> {
    const base = this.#key("");
    // SCAN's MATCH is a glob: the prefix is escaped so `*`, `?`, `[` and a backslash in it are literal.
    const pattern = `${(base + prefix).replace(/[*?[\]\\]/g, "\\$&")}*`;
    return this.#call(async (redis) => {
      const found = new Set<string>();
      let cursor = "0";
      do {
        const [next, batch] = (await redis.call("SCAN", cursor, "MATCH", pattern, "COUNT", 500)) as [
          string,
          string[],
        ];
        for (const key of batch) found.add(key.slice(base.length));
        cursor = next;
      } while (cursor !== "0");
      return [...found];
    });
  }

  async setIfAbsent(key: string, value: unknown, options: { ttlMs?: number } = {}): Promise<boolean> {
    const text = encodeJson(value) ?? "null";
    const reply = await this.#call<string | null>((redis) =>
      options.ttlMs === undefined
        ? redis.call("SET", this.#key(key), text, "NX")
        : redis.call("SET", this.#key(key), text, "NX", "PX", Math.max(1, Math.ceil(options.ttlMs))),
    );
    return reply === "OK";
  }

  async lease(key: string, holder: string, ttlMs: number, options: LeaseOptions = {}): Promise<boolean> {
    const replacing = options.replacing === undefined ? "" : encodeJson(options.replacing)!;
    const reply = await this.#call<number>((redis) =>
      runScript(
        redis,
        leaseScript,
        this.#key(key),
        encodeJson(holder)!,
        Math.max(1, Math.ceil(ttlMs)),
        options.replacing === undefined ? "0" : "1",
        replacing,
      ),
    );
    return reply === 1;
  }

  async releaseLease(key: string, holder: string): Promise<boolean> {
    const reply = await this.#call<number>((redis) =>
      runScript(redis, releaseScript, this.#key(key), encodeJson(holder)!),
    );
    return reply === 1;
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    const [messages, archived, createdAt, updatedAt, version, runs] = await this.#call<(string | null)[]>(
      (redis) =>
        redis.call(
          "HMGET",
          this.#sessionKey(id),
          "messages",
          "archived",
          "createdAt",
          "updatedAt",
          "version",
          "runs",
        ),
    );
    return this.#sessionOf(id, [messages, archived, createdAt, updatedAt, version, runs]);
  }

  /** A session from its hash's fields (messages, archived, createdAt, updatedAt, version, runs). */
  #sessionOf(id: string, fields: readonly (string | null | undefined)[]): SessionRecord | undefined {
    const [messages, archived, createdAt, updatedAt, version, runs] = fields;
    if (messages === null || messages === undefined) return undefined;
    return decodeStoredSession(this.#place, {
      id,
      messages,
      archived: archived ?? null,
      createdAt: Number(createdAt),
      updatedAt: Number(updatedAt),
      version: Number(version),
      runs: runs == null ? undefined : Number(runs),
    });
  }

  #isCluster(client: RedisClientLike): boolean {
    return Boolean((client as { isCluster?: unknown }).isCluster);
  }

  /** The lease and the session's hash in one script: one round trip (two on a Cluster). */
  async beginSession(
    id: string,
    lease: SessionLeaseRef,
    ttlMs: number,
  ): Promise<{ session: SessionRecord | undefined } | undefined> {
    const client = await this.#redis();
    if (this.#isCluster(client)) {
      if (!(await this.lease(lease.key, lease.holder, ttlMs))) return undefined;
      try {
        return { session: await this.loadSession(id) };
      } catch (error) {
        await this.releaseLease(lease.key, lease.holder).catch(() => {});
        throw error;
      }
    }
    const fields = await this.#call<(string | null)[] | null>((redis) =>
      runScriptOn(
        redis,
        beginSessionScript,
        [this.#key(lease.key), this.#sessionKey(id)],
        [encodeJson(lease.holder)!, Math.max(1, Math.ceil(ttlMs))],
      ),
    );
    if (fields === null) return undefined;
    try {
      return { session: this.#sessionOf(id, fields) };
    } catch (error) {
      await this.releaseLease(lease.key, lease.holder).catch(() => {});
      throw error;
    }
  }

  async saveSession(record: SessionRecord, options: SaveSessionOptions = {}): Promise<number> {
    return this.#commit(record, [], undefined, options);
  }

  /**
   * The session's commit and `writes` in one script: one round trip, all or nothing. On a
   * Redis Cluster (the keys may live on different nodes) the session is committed alone,
   * then each value is set.
   */
  async saveSessionWith(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    options: SaveSessionOptions = {},
  ): Promise<number> {
    const client = await this.#redis();
    if (writes.length === 0 || !this.#isCluster(client)) {
      return this.#commit(record, writes, undefined, options);
    }
    const version = await this.#commit(record, [], undefined, options);
    for (const write of writes)
      await this.set(write.key, write.value, write.ttlMs === undefined ? {} : { ttlMs: write.ttlMs });
    return version;
  }

  /** `saveSessionWith` and the lease's release in one script: one round trip (steps on a Cluster). */
  async commitSession(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    lease: SessionLeaseRef,
    options: SaveSessionOptions = {},
  ): Promise<number> {
    const client = await this.#redis();
    if (!this.#isCluster(client)) return this.#commit(record, writes, lease, options);
    const version = await this.saveSessionWith(record, writes, options);
    await this.releaseLease(lease.key, lease.holder);
    return version;
  }

  async #commit(
    record: SessionRecord,
    writes: readonly StoreWrite[],
    lease: SessionLeaseRef | undefined,
    options: SaveSessionOptions,
  ): Promise<number> {
    const ttlMs = options.ttlMs ?? this.#sessionTtlMs;
    const keys = [this.#sessionKey(record.id)];
    const args: (string | number)[] = [
      record.version,
      encodeJson(record.messages)!,
      record.archived === undefined ? "0" : "1",
      record.archived === undefined ? "" : encodeJson(record.archived)!,
      record.createdAt,
      record.updatedAt,
      ttlMs === undefined ? "" : Math.max(1, Math.ceil(ttlMs)),
      record.runs === undefined ? "" : record.runs,
      lease === undefined ? "" : encodeJson(lease.holder)!,
    ];
    for (const write of writes) {
      keys.push(this.#key(write.key));
      const text = encodeJson(write.value);
      // `undefined` has no JSON text: it is stored as absent, as `set` stores it.
      args.push(
        text ?? "",
        text === undefined ? "d" : write.ttlMs === undefined ? "" : Math.max(1, Math.ceil(write.ttlMs)),
      );
    }
    if (lease !== undefined) keys.push(this.#key(lease.key));
    const [committed, version] = await this.#call<[number, number | string]>((redis) =>
      runScriptOn(redis, saveSessionScript, keys, args),
    );
    if (committed === -1) {
      throw new StateStoreError({
        kind: this.kind,
        message: `The stored session "${record.id}" in ${this.location} is malformed (version: expected a whole number, got ${String(version)}); ${this.#place.removal("session", record.id)}`,
      });
    }
    if (committed !== 1) throw SessionBusyError.changed(record.id, record.version, Number(version));
    return Number(version);
  }

  async deleteSession(id: string): Promise<void> {
    await this.#call((redis) => redis.call("DEL", this.#sessionKey(id)));
  }

  #channelKey(channel: string): string {
    return `${this.prefix}channel:${channel}`;
  }

  async broadcast(channel: string, message: string): Promise<void> {
    await this.#call((redis) => redis.call("PUBLISH", this.#channelKey(channel), message));
  }

  async listen(channel: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    const subscriber = await this.#subscriberConnection();
    const key = this.#channelKey(channel);
    let set = this.#channels.get(key);
    if (!set) {
      set = new Set();
      this.#channels.set(key, set);
      await subscriber.subscribe(key);
    }
    const own = (message: string) => listener(message);
    set.add(own);
    return async () => {
      set.delete(own);
      if (set.size > 0 || this.#channels.get(key) !== set) return;
      this.#channels.delete(key);
      if (!this.#closed) await subscriber.unsubscribe(key).catch(() => undefined);
    };
  }

  #subscriberConnection(): Promise<Subscriber> {
    if (this.#closed) {
      return Promise.reject(this.#closedError());
    }
    if (!this.#subscriber) {
      const opening = this.#openSubscriber();
      this.#subscriber = opening;
      opening.catch(() => {
        if (this.#subscriber === opening) this.#subscriber = undefined;
      });
    }
    return this.#subscriber;
  }

  async #openSubscriber(): Promise<Subscriber> {
    let subscriber: Subscriber;
    if (this.#url !== undefined) {
      subscriber = (await this.#open(this.#url)) as unknown as Subscriber;
    } else {
      const client = (await this.#client) as RedisClientLike & { duplicate?: () => Subscriber };
      if (typeof client.duplicate !== "function") {
        throw new StateStoreError({
          kind: this.kind,
          message:
            "new RedisStore({ client }): listening needs a second connection, and this client has no duplicate(); pass an ioredis client, or url",
        });
      }
      subscriber = client.duplicate();
    }
    subscriber.on("message", (channel, message) => {
      for (const listener of this.#channels.get(channel) ?? []) {
        try {
          listener(message);
        } catch (error) {
          console.error(`[hookwise] a listener of ${channel} failed: ${(error as Error).message}`);
        }
      }
    });
    return subscriber;
  }

  /**
   * Closes the connections the store opened (a client passed in stays open); idempotent.
   * Bounded: a connection still opening is dropped, and one whose server does not acknowledge
   * QUIT within a second is dropped too, so a server that stopped answering never holds the
   * process (a hook command's answer waits on nothing once written).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#channels.clear();
    for (const client of this.#opening) client.disconnect();
    const subscribing = this.#subscriber;
    this.#subscriber = undefined;
    const connecting = this.#client;
    this.#client = undefined;
    const subscriber = await subscribing?.catch(() => undefined);
    if (subscriber) await quitWithin(subscriber);
    await connecting?.catch(() => undefined);
    const owned = this.#owned;
    this.#owned = undefined;
    if (owned) await quitWithin(owned);
  }
}

/** QUIT, or, when the server does not acknowledge it within `QUIT_WAIT_MS`, the connection dropped. */
async function quitWithin(client: { quit(): Promise<unknown>; disconnect(): void }): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const quit = await Promise.race([
    client.quit().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), QUIT_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (!quit) client.disconnect();
}
