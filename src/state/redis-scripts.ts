/**
 * The Lua scripts behind the RedisStore's atomic operations. Redis runs a script without
 * interleaving any other command, so each decision (count, admit, lease, commit) happens
 * on the server in one step — never read-modify-write across the network. Every script
 * touches one key, so it also runs on a Redis Cluster, but those that start or commit a
 * session with more (`beginSession`, `saveSessionWith`, `commitSession`): on a Cluster the
 * store does those in steps (the lease, then the read; the commit alone, then each value,
 * then the lease's release).
 *
 * Scripts are sent by their SHA-1 (EVALSHA) and loaded with EVAL the first time a server
 * does not know them (after a restart or failover too).
 */
import { nodeCrypto } from "../deps/node-crypto.js";

/** The one method of an ioredis client (`Redis` or `Cluster`) the store uses. */
export interface RedisClientLike {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
}

export interface RedisScript {
  readonly lua: string;
  readonly sha: string;
}

/** A script; its SHA-1 is computed when a store first sends it. */
function script(lua: string): RedisScript {
  let sha: string | undefined;
  return {
    lua,
    get sha() {
      sha ??= nodeCrypto().createHash("sha1").update(lua).digest("hex");
      return sha;
    },
  };
}

export function runScript(
  client: RedisClientLike,
  script: RedisScript,
  key: string,
  ...args: (string | number)[]
): Promise<unknown> {
  return runScriptOn(client, script, [key], args);
}

/** A script on several keys (`keys`), then its arguments. */
export async function runScriptOn(
  client: RedisClientLike,
  { lua, sha }: RedisScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await client.call("EVALSHA", sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
    return client.call("EVAL", lua, keys.length, ...keys, ...args);
  }
}

/**
 * ARGV: by, "1" when `by` is an integer. A JSON number counts on (INCRBY for integers,
 * exact to 2^53; INCRBYFLOAT otherwise); anything else restarts from `by`. Either way the
 * key keeps its expiry. Returns the new value (an integer reply, or text).
 */
export const incrementScript = script(`
local value = redis.call('GET', KEYS[1])
if not value then
  redis.call('SET', KEYS[1], ARGV[1])
  return ARGV[1]
end
if ARGV[2] == '1' and #value < 16 and string.match(value, '^%-?%d+$') then
  return redis.call('INCRBY', KEYS[1], ARGV[1])
end
if string.match(value, '^%-?%d') and tonumber(value) then
  return redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return ARGV[1]
`);

/**
 * A sliding window as a sorted set of event times. ARGV: now, windowMs, max, a unique
 * member, expiry ms. Drops events at or before now - windowMs, admits one more when fewer
 * than max remain. Returns 1 when admitted.
 *
 * `now` is the caller's clock, but never later than the server's: a machine whose clock runs
 * ahead would otherwise age out every event of the window (so nothing limits it) and record
 * its own in the others' future (so their window stays full until they catch up).
 */
export const hitScript = script(`
local time = redis.call('TIME')
local now = math.min(tonumber(ARGV[1]), tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000))
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], string.format('%.0f', now), ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
`);

/** ARGV: holder, ttlMs, "1" when replacing, the holder replaced. Returns 1 when held. */
export const leaseScript = script(`
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] and not (ARGV[3] == '1' and current == ARGV[4]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** ARGV: holder. Deletes the lease only while the holder still holds it. Returns 1 when released. */
export const releaseScript = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
`);

/**
 * A session's lease, then its hash when the lease is held. KEYS: the lease, the session.
 * ARGV: holder, ttlMs. Returns nil when another holder has the lease (nothing read), else
 * the session's messages, archived, createdAt, updatedAt, version and runs (nils when the
 * session is not stored).
 */
export const beginSessionScript = script(`
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[1] then return false end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return redis.call('HMGET', KEYS[2], 'messages', 'archived', 'createdAt', 'updatedAt', 'version', 'runs')
`);

/**
 * Compare-and-swap of a session hash, the values committed with it, and the release of its
 * lease. KEYS: the session, one key per value, then the lease when one is released. ARGV:
 * expected version, messages, "1" when archived is given, archived, createdAt, updatedAt,
 * ttlMs ('' = keep forever), runs ('' = none), the lease's holder ('' = no lease), then per
 * value its text and its ttlMs ('' = none, 'd' = delete the key). Returns {1, new version}
 * when committed (values written; the lease freed if the holder still held it), {0, stored
 * version} when another commit came first, {-1, raw} when the stored version is not a
 * number (nothing written, the lease kept, either way).
 */
export const saveSessionScript = script(`
local raw = redis.call('HGET', KEYS[1], 'version')
local version = 0
if raw then
  version = tonumber(raw)
  if not version then return {-1, raw} end
end
if version ~= tonumber(ARGV[1]) then return {0, version} end
redis.call('HSET', KEYS[1], 'messages', ARGV[2], 'createdAt', ARGV[5], 'updatedAt', ARGV[6], 'version', version + 1)
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'archived', ARGV[4])
else
  redis.call('HDEL', KEYS[1], 'archived')
end
if ARGV[8] == '' then
  redis.call('HDEL', KEYS[1], 'runs')
else
  redis.call('HSET', KEYS[1], 'runs', ARGV[8])
end
if ARGV[7] == '' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
end
local last = #KEYS
if ARGV[9] ~= '' then last = last - 1 end
for index = 2, last do
  local text = ARGV[index * 2 + 6]
  local ttl = ARGV[index * 2 + 7]
  if ttl == 'd' then
    redis.call('DEL', KEYS[index])
  elseif ttl == '' then
    redis.call('SET', KEYS[index], text)
  else
    redis.call('SET', KEYS[index], text, 'PX', ttl)
  end
end
if ARGV[9] ~= '' and redis.call('GET', KEYS[#KEYS]) == ARGV[9] then
  redis.call('DEL', KEYS[#KEYS])
end
return {1, version + 1}
`);
