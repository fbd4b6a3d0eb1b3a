import { randomHex } from '../trace.js';
import { heldLease, type ScriptClient } from './redis-scripts.js';
import type { FleetLimits, FleetSlot } from './run-types.js';

/** Redis time in ms, read inside a script (effects replication makes the writes after it safe). */
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1] a sorted set of holders scored by lease end; ARGV token, limit, leaseMs → 1 taken, 0 full. */
const SLOT_ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1`;
/** Renews the lease of ARGV[1] (when still held) by ARGV[2] ms. */
const SLOT_RENEW = `${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
const SLOT_RELEASE = `return redis.call('ZREM', KEYS[1], ARGV[1])`;
/**
 * KEYS[1] a hash {window, count}; ARGV limit, windowMs → 0 when counted in the current fixed window
 * (Redis time), else the ms until that window ends.
 */
const WINDOW_TAKE = `${NOW}
local size = tonumber(ARGV[2])
local index = math.floor(now / size)
local count = 0
if tonumber(redis.call('HGET', KEYS[1], 'window') or '-1') == index then
  count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
end
if count >= tonumber(ARGV[1]) then return math.max(1, (index + 1) * size - now) end
redis.call('HSET', KEYS[1], 'window', index, 'count', count + 1)
redis.call('PEXPIRE', KEYS[1], size * 2)
return 0`;

/**
 * Limits shared by every instance on one Redis, run as Lua scripts on BullMQ's own client: leased
 * semaphore slots (a sorted set of holders per name, leases renewed every third while held, freed when a
 * holder dies and its lease ends) and fixed-window counters, both on Redis's clock.
 */
export function redisFleetLimits(
  client: () => Promise<ScriptClient>,
  options: { keyPrefix: string; onError(message: string, error: unknown): void },
): FleetLimits {
  let defined: Promise<ScriptClient> | undefined;
  const ready = () =>
    (defined ??= client().then((c) => {
      c.defineCommand('frameworkSlotAcquire', { lua: SLOT_ACQUIRE, numberOfKeys: 1 });
      c.defineCommand('frameworkSlotRenew', { lua: SLOT_RENEW, numberOfKeys: 1 });
      c.defineCommand('frameworkSlotRelease', { lua: SLOT_RELEASE, numberOfKeys: 1 });
      c.defineCommand('frameworkWindowTake', { lua: WINDOW_TAKE, numberOfKeys: 1 });
      return c;
    }));
  return {
    async tryAcquire(name, limit, leaseMs): Promise<FleetSlot | undefined> {
      const redis = await ready();
      const key = `${options.keyPrefix}slots:${name}`;
      const token = randomHex(16);
      if (Number(await redis.runCommand('frameworkSlotAcquire', [key, token, limit, leaseMs])) !== 1) return undefined;
      return heldLease(redis, {
        renew: ['frameworkSlotRenew', [key, token, leaseMs]],
        release: ['frameworkSlotRelease', [key, token]],
        leaseMs,
        what: `the slot ${key}`,
        onError: options.onError,
      });
    },
    async take(name, limit, windowMs) {
      const redis = await ready();
      return Number(
        await redis.runCommand('frameworkWindowTake', [`${options.keyPrefix}window:${name}`, limit, windowMs]),
      );
    },
  };
}

/** BullMQ's base marker (`ZADD <marker> 0 "0"`): workers blocked on the queue fetch again. */
const WAKE = `return redis.call('ZADD', KEYS[1], 0, '0')`;

const waking = new WeakSet<ScriptClient>();

/** Wakes the workers blocked on the queue whose marker key is `markerKey`. */
export async function wakeWorkers(client: ScriptClient, markerKey: string): Promise<void> {
  if (!waking.has(client)) {
    client.defineCommand('frameworkWake', { lua: WAKE, numberOfKeys: 1 });
    waking.add(client);
  }
  await client.runCommand('frameworkWake', [markerKey]);
}
