import { randomHex } from '../trace.js';
import type { Lease, ScheduleLock } from './overlap.js';
import type { StepStore } from './types.js';

/** The part of BullMQ's Redis client (`await queue.client`) the lock uses: its Lua script commands. */
export interface ScriptClient {
  defineCommand(name: string, definition: { lua: string; numberOfKeys: number }): void;
  runCommand(name: string, args: unknown[]): Promise<unknown>;
}

const ACQUIRE = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * A {@link ScheduleLock} in Redis shared by every instance: `SET NX PX` with a
 * random token, renewed every third of `leaseMs` while held, released only by
 * its holder (compare-and-delete in Lua). A holder that dies loses the lock
 * after `leaseMs`.
 */
export function redisLock(
  client: ScriptClient,
  options: { keyPrefix: string; leaseMs: number; onError(message: string, error: unknown): void },
): ScheduleLock {
  client.defineCommand('frameworkLockAcquire', { lua: ACQUIRE, numberOfKeys: 1 });
  client.defineCommand('frameworkLockRenew', { lua: RENEW, numberOfKeys: 1 });
  client.defineCommand('frameworkLockRelease', { lua: RELEASE, numberOfKeys: 1 });
  const { leaseMs } = options;
  return {
    async tryAcquire(key): Promise<Lease | undefined> {
      const redisKey = `${options.keyPrefix}${key}`;
      const token = randomHex(16);
      const taken = Number(await client.runCommand('frameworkLockAcquire', [redisKey, token, leaseMs]));
      if (taken !== 1) return undefined;
      return heldLease(client, {
        renew: ['frameworkLockRenew', [redisKey, token, leaseMs]],
        release: ['frameworkLockRelease', [redisKey, token]],
        leaseMs,
        what: `the overlap lock ${redisKey}`,
        onError: options.onError,
      });
    },
  };
}

/**
 * A lease taken in Redis: `renew` runs every third of `leaseMs` until `release()` (idempotent) stops it
 * and runs `release`. Failures are reported to `onError`, naming `what`.
 */
export function heldLease(
  client: ScriptClient,
  lease: {
    renew: [command: string, args: unknown[]];
    release: [command: string, args: unknown[]];
    leaseMs: number;
    what: string;
    onError(message: string, error: unknown): void;
  },
): Lease {
  const renewal = setInterval(
    () => {
      client.runCommand(...lease.renew).catch((error: unknown) => {
        lease.onError(`bullmq engine: could not renew ${lease.what}`, error);
      });
    },
    Math.max(50, Math.floor(lease.leaseMs / 3)),
  );
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(renewal);
      await client.runCommand(...lease.release).catch((error: unknown) => {
        lease.onError(`bullmq engine: could not release ${lease.what}`, error);
      });
    },
  };
}

const STEP_SAVE = `redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return redis.call('PEXPIRE', KEYS[1], ARGV[3])`;
const STEP_LOAD = `return redis.call('HGETALL', KEYS[1])`;
const STEP_CLEAR = `return redis.call('DEL', KEYS[1])`;
// Moves a finished run's hash aside (so the id may run again afresh), kept ARGV[1] ms for inspection.
const STEP_FINISH = `if redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('DEL', KEYS[2]) end
redis.call('RENAME', KEYS[1], KEYS[2]) return redis.call('PEXPIRE', KEYS[2], ARGV[1])`;

/**
 * A step store in Redis: one hash per run (`<keyPrefix><runId>`, step id →
 * JSON), expiring `ttlMs` after its last write, on BullMQ's client. A finished
 * run's hash is renamed to `<keyPrefix>finished:<runId>` and kept `ttlMs`.
 */
export function redisStepStore(
  client: () => Promise<ScriptClient>,
  options: { keyPrefix: string; ttlMs: number },
): StepStore {
  let defined: Promise<ScriptClient> | undefined;
  const ready = () =>
    (defined ??= client().then((c) => {
      c.defineCommand('frameworkStepSave', { lua: STEP_SAVE, numberOfKeys: 1 });
      c.defineCommand('frameworkStepLoad', { lua: STEP_LOAD, numberOfKeys: 1 });
      c.defineCommand('frameworkStepClear', { lua: STEP_CLEAR, numberOfKeys: 1 });
      c.defineCommand('frameworkStepFinish', { lua: STEP_FINISH, numberOfKeys: 2 });
      return c;
    }));
  const key = (runId: string) => `${options.keyPrefix}${runId}`;
  const finishedKey = (runId: string) => `${options.keyPrefix}finished:${runId}`;
  const loadKey = async (redisKey: string) => {
    const flat = (await (await ready()).runCommand('frameworkStepLoad', [redisKey])) as unknown;
    // HGETALL through EVAL answers a flat [field, value, …] list.
    if (!Array.isArray(flat)) return (flat ?? {}) as Record<string, string>;
    const entries: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) entries[String(flat[i])] = String(flat[i + 1]);
    return entries;
  };
  return {
    load: (runId) => loadKey(key(runId)),
    loadFinished: (runId) => loadKey(finishedKey(runId)),
    async finish(runId) {
      await (await ready()).runCommand('frameworkStepFinish', [key(runId), finishedKey(runId), options.ttlMs]);
    },
    async save(runId, stepId, value) {
      await (await ready()).runCommand('frameworkStepSave', [key(runId), stepId, value, options.ttlMs]);
    },
    async clear(runId) {
      await (await ready()).runCommand('frameworkStepClear', [key(runId)]);
    },
  };
}
