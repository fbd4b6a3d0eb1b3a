import type { FleetLimits } from '../engine/types.js';
import { messageOf } from './attempt.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';

/** Fixed-window counters of one process (engines without shared limits). */
export function processThrottles(): Pick<FleetLimits, 'take'> {
  const windows = new Map<string, { index: number; count: number }>();
  return {
    async take(key, limit, windowMs) {
      const now = Date.now();
      const index = Math.floor(now / windowMs);
      const current = windows.get(key);
      const window = current && current.index === index ? current : { index, count: 0 };
      windows.set(key, window);
      if (window.count >= limit) return (index + 1) * windowMs - now;
      window.count++;
      return 0;
    },
  };
}

/**
 * Counts a run of `trigger` on `event` against its `config.throttle`: resolves `0` when it may start now,
 * else the ms until its key's window ends. A key function that throws counts the run under the shared key
 * (logged at `warn`).
 */
export async function throttleDelay(core: RuntimeCore, trigger: RegisteredTrigger, event: unknown): Promise<number> {
  const throttle = trigger.definition.config.throttle;
  if (!throttle) return 0;
  let key = '';
  if (throttle.key) {
    try {
      key = String(throttle.key(event) ?? '');
    } catch (error) {
      core.logger.log({
        level: 'warn',
        message: `throttle key of "${trigger.name}" threw (${messageOf(error)}); counting it under the shared key`,
        trigger: trigger.name,
        error,
      });
    }
  }
  return core.throttles.take(`throttle:${trigger.name}:${key}`, throttle.limit, throttle.windowMs);
}
