/**
 * Users the kit has just read from storage, so a flow that receives one back (from `passwordAccounts().authorize`
 * through an app's `credentials` provider) need not read it again. A user object is known only as read from one
 * storage: wrappers of an adapter (`delegateAdapter`, the token cipher, the session cache) count as that storage.
 * @module
 * @internal
 */
import type { StorageAdapter } from './types.js';

const IDENTITY = Symbol.for('@framework/auth.storageIdentity.v1');
/** For adapters that cannot carry the symbol (frozen objects). */
const fallback = new WeakMap<object, object>();
const readFrom = new WeakMap<object, object>();

/** An object standing for the storage behind `adapter`, the same through any wrapper that passes members on. */
function identityOf(adapter: StorageAdapter): object {
  const holder = adapter as unknown as { [IDENTITY]?: object };
  const known = holder[IDENTITY];
  if (known) return known;
  const identity = {};
  try {
    Object.defineProperty(adapter, IDENTITY, { value: identity, enumerable: false });
    return identity;
  } catch {
    let own = fallback.get(adapter);
    if (!own) fallback.set(adapter, (own = identity));
    return own;
  }
}

/** Records that `user` (this very object) was just read from `adapter`; returns it. */
export function markStoredUser<T extends object>(user: T, adapter: StorageAdapter): T {
  readFrom.set(user, identityOf(adapter));
  return user;
}

/** Whether `user` is an object {@link markStoredUser} recorded as read from the storage behind `adapter`. */
export function isStoredUserOf(user: object, adapter: StorageAdapter): boolean {
  const from = readFrom.get(user);
  return from !== undefined && from === identityOf(adapter);
}
