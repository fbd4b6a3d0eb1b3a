/**
 * Overlap control of schedules: whether an occurrence may start while the
 * previous run of the same schedule still runs, on this or another instance.
 *
 * @module
 */
import type { OverlapPolicy } from '../types.js';

/** A held lock; `release` is idempotent. */
export interface Lease {
  release(): Promise<void>;
}

/** Mutual exclusion per key, in-process or shared between instances. */
export interface ScheduleLock {
  /** Takes the lock of `key`, or resolves `undefined` when someone holds it. */
  tryAcquire(key: string): Promise<Lease | undefined>;
}

/** What {@link fireGuarded} reports. */
export interface GuardHooks {
  /** Whether the engine still runs (a queued occurrence stops waiting when it does not). */
  running(): boolean;
  /** Called when an occurrence is dropped by `overlap: 'skip'`. */
  skipped(): void;
  /** Poll interval of a queued occurrence waiting for the lock, in ms. Default 50. */
  pollMs?: number;
}

/**
 * Runs `fire` under `policy`: `'allow'` runs at once; `'skip'` runs only if
 * the lock of `key` is free, otherwise reports `skipped`; `'queue'` waits for
 * the lock, then runs. The lock is held until `fire` settles.
 */
export async function fireGuarded(
  policy: OverlapPolicy,
  lock: ScheduleLock,
  key: string,
  fire: () => Promise<void>,
  hooks: GuardHooks,
): Promise<void> {
  if (policy === 'allow') return fire();
  let lease = await lock.tryAcquire(key);
  while (!lease && policy === 'queue' && hooks.running()) {
    await new Promise((resolve) => setTimeout(resolve, hooks.pollMs ?? 50));
    lease = await lock.tryAcquire(key);
  }
  if (!lease) {
    if (policy === 'skip') hooks.skipped();
    return;
  }
  try {
    await fire();
  } finally {
    await lease.release();
  }
}

/** An in-process {@link ScheduleLock} (the memory engine's: one process is the whole deployment). */
export function memoryLock(): ScheduleLock {
  const held = new Set<string>();
  return {
    async tryAcquire(key) {
      if (held.has(key)) return undefined;
      held.add(key);
      let released = false;
      return {
        async release() {
          if (released) return;
          released = true;
          held.delete(key);
        },
      };
    },
  };
}

/** The log line of a skipped occurrence. */
export function skippedMessage(trigger: string, time: Date): string {
  return `"${trigger}" occurrence ${time.toISOString()} skipped: the previous run still runs (overlap: 'skip')`;
}
