import type { ScriptClient } from './redis-scripts.js';

/** The last occurrence that fired per schedule, shared by every instance (for `catchUp`). */
export interface ScheduleHistory {
  /** Epoch ms of the last occurrence that fired, by trigger. */
  load(): Promise<Record<string, number>>;
  /** Records `time` for `trigger` unless a later one is recorded. */
  record(trigger: string, time: number): Promise<void>;
}

const RECORD = `local known = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if known < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 1`;
const LOAD = `return redis.call('HGETALL', KEYS[1])`;

/** A {@link ScheduleHistory} in the Redis hash `key` (trigger → epoch ms), on BullMQ's client. */
export function redisScheduleHistory(client: ScriptClient, key: string): ScheduleHistory {
  client.defineCommand('frameworkScheduleRecord', { lua: RECORD, numberOfKeys: 1 });
  client.defineCommand('frameworkScheduleLoad', { lua: LOAD, numberOfKeys: 1 });
  return {
    async load() {
      const flat = (await client.runCommand('frameworkScheduleLoad', [key])) as unknown;
      const entries: Record<string, number> = {};
      if (Array.isArray(flat))
        for (let i = 0; i + 1 < flat.length; i += 2) entries[String(flat[i])] = Number(flat[i + 1]);
      return entries;
    },
    async record(trigger, time) {
      await client.runCommand('frameworkScheduleRecord', [key, trigger, time]);
    },
  };
}
