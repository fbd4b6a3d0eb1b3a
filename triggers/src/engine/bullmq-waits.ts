import type { ScriptClient } from './redis-scripts.js';
import type { EventWaiter, EventWaits } from './wait-types.js';

const WAIT_ADD = `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return redis.call('PEXPIRE', KEYS[1], ARGV[3])`;
const WAIT_LIST = `return redis.call('HVALS', KEYS[1])`;
// Removes the waiter; only if it was there, and its step holds no result yet, writes the step result (and
// refreshes the steps' expiry).
const WAIT_TAKE = `if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
if ARGV[2] ~= '' then
  local current = redis.call('HGET', KEYS[2], ARGV[2])
  if current and string.sub(current, 1, 5) == '{"v":' then return 0 end
  redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return 1`;

/**
 * {@link EventWaits} in Redis, on BullMQ's client: one hash per event name
 * (`<keyPrefix><event>`, waiter key → JSON), expiring `ttlMs` after its last
 * write. `take` removes a waiter and writes its step result into the run's
 * steps hash (`<stepsKeyPrefix><runId>`, the step store's layout) in one Lua
 * script, so an event and a timeout (or two instances sending events) never
 * both win.
 */
export function redisEventWaits(
  client: () => Promise<ScriptClient>,
  options: { keyPrefix: string; stepsKeyPrefix: string; ttlMs: number },
): EventWaits {
  let defined: Promise<ScriptClient> | undefined;
  const ready = () =>
    (defined ??= client().then((c) => {
      c.defineCommand('frameworkWaitAdd', { lua: WAIT_ADD, numberOfKeys: 1 });
      c.defineCommand('frameworkWaitList', { lua: WAIT_LIST, numberOfKeys: 1 });
      c.defineCommand('frameworkWaitTake', { lua: WAIT_TAKE, numberOfKeys: 2 });
      return c;
    }));
  const key = (event: string) => `${options.keyPrefix}${event}`;
  return {
    async add(event, waiter) {
      await (
        await ready()
      ).runCommand('frameworkWaitAdd', [key(event), waiter.key, JSON.stringify(waiter), options.ttlMs]);
    },
    async list(event) {
      const values = (await (await ready()).runCommand('frameworkWaitList', [key(event)])) as unknown;
      return (Array.isArray(values) ? values : []).map((value) => JSON.parse(String(value)) as EventWaiter);
    },
    async take(event, waiterKey, step) {
      const taken = await (
        await ready()
      ).runCommand('frameworkWaitTake', [
        key(event),
        step ? `${options.stepsKeyPrefix}${step.runId}` : `${options.stepsKeyPrefix}-`,
        waiterKey,
        step?.stepId ?? '',
        step?.value ?? '',
        options.ttlMs,
      ]);
      return Number(taken) === 1;
    },
  };
}
