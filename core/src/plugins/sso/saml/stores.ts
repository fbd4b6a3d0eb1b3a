/**
 * In-memory {@link SamlReplayStore} and {@link SamlRequestStore}, for tests and single-process apps.
 * @module
 */
import type { SamlReplayStore, SamlRequestStore } from './types.js';

/** Drops the entries of `map` whose time has passed. */
function sweep(map: Map<string, number>, nowMs: number): void {
  for (const [key, untilMs] of map) if (untilMs <= nowMs) map.delete(key);
}

/**
 * Both stores of the SAML service provider, kept in this process's memory (lost on restart, not shared between
 * instances: use the `sso()` plugin's database-backed stores in production). Expired entries are dropped on each
 * call, on the given clock.
 *
 * @param now - The clock, in epoch milliseconds (the same one given to {@link createSamlServiceProvider}).
 * @returns `{ replay, requests }`.
 * @example
 * ```ts
 * const sp = createSamlServiceProvider({ sp, idp, now: Date.now, ...createMemorySamlStores(Date.now) });
 * ```
 */
export function createMemorySamlStores(now: () => number): {
  replay: SamlReplayStore;
  requests: SamlRequestStore;
} {
  const assertions = new Map<string, number>();
  const pending = new Map<string, number>();
  return {
    replay: {
      async remember(assertionId, untilMs) {
        sweep(assertions, now());
        if (assertions.has(assertionId)) return false;
        assertions.set(assertionId, untilMs);
        return true;
      },
    },
    requests: {
      async save(requestId, untilMs) {
        sweep(pending, now());
        pending.set(requestId, untilMs);
      },
      async take(requestId) {
        sweep(pending, now());
        return pending.delete(requestId);
      },
    },
  };
}
