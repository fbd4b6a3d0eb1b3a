/**
 * Wrapping a storage adapter: some methods replaced, every other member the
 * target's own (bound to it), so adapters written as classes keep working.
 * @module
 * @internal
 */
import { SESSION_READ_NOW, sessionReadNow, sessionReadNowOf, type SessionReadNow } from './session-read-now.js';
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
  // The target's synchronous session read, passed on only while this wrapper keeps the target's
  // getSessionAndUser (one that replaces it must be called), re-made when either side changes.
  let readNow: { inner: SessionReadNow; outer: SessionReadNow } | undefined;
  const proxy: StorageAdapter = new Proxy(target, {
    get(t, prop) {
      if (mark !== undefined && prop === mark) return true;
      if (prop === SESSION_READ_NOW) {
        if (Object.hasOwn(overrides, 'getSessionAndUser')) return undefined;
        const inner = sessionReadNowOf(t);
        if (!inner) return undefined;
        const mirrors = proxy.getSessionAndUser;
        if (readNow?.inner !== inner || readNow.outer.mirrors !== mirrors)
          readNow = { inner, outer: sessionReadNow((id) => inner(id), mirrors) };
        return readNow.outer;
      }
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
  return proxy;
}
