/**
 * Shared helpers of the storage conformance suite: sample rows and assertions.
 * @module
 * @internal
 */
import { expect } from 'vitest';
import {
  StorageConflictError,
  type AdapterAccount,
  type AdapterSession,
  type AdapterUser,
  type Authenticator,
  type StorageAdapter,
} from '@framework/auth';

/** Returns the adapter of the running test (a fresh, migrated one per test). */
export type CurrentAdapter = () => StorageAdapter;

/** A fixed instant with a non-zero millisecond part, to catch rounding. */
export const T0 = Date.UTC(2030, 0, 2, 3, 4, 5, 678);

/** A Date `offsetMs` after {@link T0}. */
export const at = (offsetMs = 0): Date => new Date(T0 + offsetMs);

let serial = 0;
/** A string unique within the test run, for ids and emails. */
export const unique = (prefix: string): string => `${prefix}-${++serial}-${Math.random().toString(36).slice(2, 8)}`;

/** Creates a user with a unique email (and the given fields). */
export function addUser(adapter: StorageAdapter, fields: Partial<AdapterUser> = {}): Promise<AdapterUser> {
  return adapter.createUser({ email: `${unique('user')}@example.com`, ...fields });
}

/** An account of `userId` with only the required fields. */
export const sampleAccount = (userId: string, fields: Partial<AdapterAccount> = {}): AdapterAccount => ({
  provider: 'github',
  providerAccountId: unique('gh'),
  type: 'oauth',
  userId,
  ...fields,
});

/** A session of `userId` expiring one hour after {@link T0}. */
export const sampleSession = (userId: string, fields: Partial<AdapterSession> = {}): AdapterSession => ({
  id: unique('sess'),
  tokenHash: 'a'.repeat(64),
  userId,
  expires: at(3_600_000),
  createdAt: at(),
  ...fields,
});

/** A passkey of `userId` with every field set. */
export const sampleAuthenticator = (userId: string, fields: Partial<Authenticator> = {}): Authenticator => ({
  credentialId: unique('cred'),
  userId,
  publicKey: 'pQECAyYgASFYIBase64urlKey',
  counter: 7,
  transports: ['internal', 'hybrid'],
  deviceType: 'multiDevice',
  backedUp: true,
  name: 'My laptop',
  createdAt: at(),
  ...fields,
});

/** Asserts that `promise` rejects with a StorageConflictError on `field`. */
export async function expectConflict(promise: Promise<unknown>, field: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(StorageConflictError);
  expect(error).toMatchObject({ code: 'CONFLICT', field });
}

/** Asserts that `promise` rejects, with any error. */
export async function expectRejection(promise: Promise<unknown>): Promise<void> {
  await expect(promise).rejects.toBeDefined();
}

/** Sorts rows by a string key, since lists have no guaranteed order. */
export const sortBy = <T>(rows: T[], key: (row: T) => string): T[] =>
  [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
