/**
 * The synchronous twin of `getSessionAndUser` that a storage adapter may carry for the session read of every
 * request: better-sqlite3 answers without I/O waits, so the read, the strategy and `auth.openScope` can finish in
 * the same tick (about 2 µs of promise hops per read on Node 20, 5 µs behind Hono's middleware).
 *
 * It is internal and kept safe against wrappers: it sits under a symbol as a non-enumerable property (a spread
 * `{ ...adapter, getSessionAndUser }` or `Object.entries` does not carry it), and it is only used while it
 * mirrors the adapter's current `getSessionAndUser`. A wrapper that replaces `getSessionAndUser` (a cache, a
 * Proxy, an object of its own) therefore always gets its own method called.
 * @module
 * @internal
 */
import type { AdapterSession, AdapterUser, StorageAdapter } from './types.js';

type Found = { session: AdapterSession; user: AdapterUser } | null;

/** Answers as `getSessionAndUser(id)` does: the value itself when it can, else the promise. May throw. */
export type SessionReadNow = ((id: string) => Found | Promise<Found>) & {
  /** The `getSessionAndUser` this reader answers for. */
  readonly mirrors: unknown;
};

/** Shared across copies of the package, as adapters can come from another copy than `createAuth`. */
export const SESSION_READ_NOW: unique symbol = Symbol.for('@framework/auth.sessionReadNow.v1') as never;

/** `read` marked as the synchronous twin of `mirrors`. */
export function sessionReadNow(
  read: (id: string) => Found | Promise<Found>,
  mirrors: StorageAdapter['getSessionAndUser'],
): SessionReadNow {
  return Object.assign(read, { mirrors });
}

/** Puts `read` on `adapter` as the synchronous twin of `mirrors` (the adapter's own `getSessionAndUser`). */
export function attachSessionReadNow(
  adapter: StorageAdapter,
  read: (id: string) => Found | Promise<Found>,
  mirrors: StorageAdapter['getSessionAndUser'],
): void {
  Object.defineProperty(adapter, SESSION_READ_NOW, {
    value: sessionReadNow(read, mirrors),
    enumerable: false,
    configurable: true,
  });
}

/** The adapter's synchronous session read, when it has one that still answers for its `getSessionAndUser`. */
export function sessionReadNowOf(adapter: StorageAdapter): SessionReadNow | undefined {
  const read = (adapter as unknown as Record<symbol, unknown>)[SESSION_READ_NOW] as SessionReadNow | undefined;
  return typeof read === 'function' && read.mirrors === adapter.getSessionAndUser ? read : undefined;
}
