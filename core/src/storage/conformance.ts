/**
 * The storage conformance suite: one set of vitest tests that every
 * {@link StorageAdapter} implementation must pass.
 * @module
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountTests } from './conformance/accounts.js';
import { authenticatorTests } from './conformance/authenticators.js';
import { addUser, at, sampleSession } from './conformance/fixtures.js';
import { listUsersTests } from './conformance/list-users.js';
import { purgeTests } from './conformance/purge.js';
import { sessionVersionTests } from './conformance/session-versions.js';
import { sessionTests } from './conformance/sessions.js';
import { tokenTests } from './conformance/tokens.js';
import { userTests } from './conformance/users.js';
import { userFieldTests } from './conformance/user-fields.js';
// By the public name: the suite is bundled into `@framework/testing`, whose declarations must name the app's types.
import type { StorageAdapter } from '@framework/auth';

/** What a conformance run needs for each test: a fresh, empty adapter and how to dispose of it. */
export interface ConformanceFixture {
  /** An adapter over empty storage. The suite calls `migrate()` itself, then `close()` after the test. */
  adapter: StorageAdapter;
  /** Runs after `adapter.close()`, e.g. to drop a database schema or delete a file. */
  teardown?: () => Promise<void>;
}

/**
 * Declares the conformance tests (vitest `describe`/`it`) for one adapter
 * implementation. Every test gets a fresh adapter from `makeAdapter`, calls
 * `migrate()` on it, and closes and tears it down afterwards, so tests never
 * see each other's rows.
 *
 * Covers every {@link StorageAdapter} method: round-trips of all fields,
 * case-insensitive emails, conflicts (`StorageConflictError` with its
 * `field`), cascading deletes, session expiry boundaries, single-use tokens
 * under concurrency, passkey ownership, session versions (atomic bumps, the
 * bump on a role change), purging expired rows, idempotent migrations and
 * "not found" results, plus a fast-check property over Unicode names and emails.
 *
 * @param name Shown in the test names, e.g. `sqlite (file)`.
 * @param makeAdapter Creates the adapter for one test.
 * @example
 * ```ts
 * import { runStorageConformance } from './conformance.js';
 * import { createMemoryAdapter } from './memory.js';
 *
 * runStorageConformance('memory', async () => ({ adapter: createMemoryAdapter() }));
 * ```
 */
export function runStorageConformance(name: string, makeAdapter: () => Promise<ConformanceFixture>): void {
  describe(`storage conformance: ${name}`, () => {
    let fixture: ConformanceFixture | undefined;
    const current = (): StorageAdapter => {
      if (!fixture) throw new Error('No adapter: beforeEach did not run');
      return fixture.adapter;
    };

    beforeEach(async () => {
      fixture = await makeAdapter();
      await fixture.adapter.migrate();
    });
    afterEach(async () => {
      const done = fixture;
      fixture = undefined;
      await done?.adapter.close?.();
      await done?.teardown?.();
    });

    describe('users', () => userTests(current));
    describe('listUsers', () => listUsersTests(current));
    describe('accounts', () => accountTests(current));
    describe('sessions', () => sessionTests(current));
    describe('verification tokens', () => tokenTests(current));
    describe('authenticators', () => authenticatorTests(current));
    describe('session versions', () => sessionVersionTests(current));
    describe('purging expired rows', () => purgeTests(current));
    describe('custom user fields', () => userFieldTests(current));

    describe('lifecycle', () => {
      it('migrate() is idempotent and keeps data', async () => {
        const user = await addUser(current());
        const session = await current().createSession(sampleSession(user.id));
        await current().migrate();
        await current().migrate();
        expect(await current().getUser(user.id)).toStrictEqual(user);
        expect(await current().getSessionAndUser(session.id)).toStrictEqual({ session, user });
      });

      it('"not found" is null, false, 0 or [] and never a throw', async () => {
        const a = current();
        const key = { provider: 'none', providerAccountId: 'none' };
        expect(await a.getUser('none')).toBeNull();
        expect(await a.getUserByEmail('none@example.com')).toBeNull();
        expect(await a.getUserByAccount(key)).toBeNull();
        expect(await a.updateUser('none', { name: 'x' })).toBeNull();
        await expect(a.deleteUser('none')).resolves.toBeUndefined();
        expect(await a.getAccount(key)).toBeNull();
        expect(await a.listAccounts('none')).toStrictEqual([]);
        expect(await a.updateAccount(key, { scope: 'x' })).toBeNull();
        await expect(a.unlinkAccount(key)).resolves.toBeUndefined();
        expect(await a.getSessionAndUser('none')).toBeNull();
        expect(await a.updateSessionExpiry('none', at())).toBeNull();
        await expect(a.deleteSession('none')).resolves.toBeUndefined();
        expect(await a.listSessions('none')).toStrictEqual([]);
        expect(await a.deleteUserSessions('none')).toBe(0);
        expect(await a.deleteExpiredSessions(at())).toBe(0);
        expect(await a.purgeExpired(at())).toMatchObject({ sessions: 0, verificationTokens: 0 });
        expect(await a.getSessionVersion('none')).toBeNull();
        expect(await a.bumpSessionVersion('none')).toBeNull();
        expect(await a.useVerificationToken({ identifier: 'none', tokenHash: 'none' })).toBeNull();
        expect(await a.getAuthenticator('none')).toBeNull();
        expect(await a.listAuthenticators('none')).toStrictEqual([]);
        expect(await a.updateAuthenticatorCounter('none', 1)).toBe(false);
        expect(await a.deleteAuthenticator('none', 'none')).toBe(false);
      });
    });
  });
}
