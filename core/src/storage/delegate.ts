/**
 * Wrapping a storage adapter: some methods replaced, every other member the
 * target's own (bound to it), so adapters written as classes keep working.
 * @module
 * @internal
 */
import type { StorageAdapter } from './types.js';

/**
 * `target` with `overrides` in place of some methods; every other member is the target's own, bound to it.
 * `mark`, when given, reads as `true` on the wrapper (how a wrapper tells it has been applied already).
 */
export function delegateAdapter(
  target: StorageAdapter,
  overrides: Partial<StorageAdapter>,
  mark?: symbol,
): StorageAdapter {
  // One bound function per method, made on first access (a session read goes through here on every request).
  const bound = new Map<PropertyKey, { from: unknown; fn: unknown }>();
  return new Proxy(target, {
    get(t, prop) {
      if (mark !== undefined && prop === mark) return true;
      if (Object.hasOwn(overrides, prop)) return overrides[prop as keyof StorageAdapter];
      const value: unknown = Reflect.get(t, prop, t);
      if (typeof value !== 'function') return value;
      const cached = bound.get(prop);
      if (cached?.from === value) return cached.fn;
      const fn = value.bind(t);
      bound.set(prop, { from: value, fn });
      return fn;
    },
  });
}
