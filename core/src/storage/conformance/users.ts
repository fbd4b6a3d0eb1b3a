/**
 * Conformance tests for users: create, read, update, delete.
 * @module
 * @internal
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { AdapterUser } from '../types.js';
import {
  addUser,
  at,
  expectConflict,
  sampleAccount,
  sampleAuthenticator,
  sampleSession,
  unique,
  type CurrentAdapter,
} from './fixtures.js';

/** Declares the user tests. */
export function userTests(current: CurrentAdapter): void {
  it('createUser round-trips every field, to the millisecond', async () => {
    const input = {
      id: unique('id'),
      email: 'Full.Fields@Example.com',
      name: 'Ada Lovelace',
      image: 'https://example.com/ada.png',
      emailVerified: at(1),
      role: 'admin',
      roles: ['admin', 'editor'],
    };
    const created = await current().createUser(input);
    expect(created).toStrictEqual(input);
    expect(await current().getUser(input.id)).toStrictEqual(input);
    expect((await current().getUser(input.id))?.emailVerified?.getTime()).toBe(input.emailVerified.getTime());
  });

  it('createUser fills nullable fields with null, drops absent optional ones, and generates distinct ids', async () => {
    const a = await current().createUser({ email: 'min@example.com' });
    const b = await current().createUser({});
    expect(a).toStrictEqual({ id: a.id, email: 'min@example.com', name: null, image: null, emailVerified: null });
    expect(b).toStrictEqual({ id: b.id, email: null, name: null, image: null, emailVerified: null });
    expect(a.id).toMatch(/\S/);
    expect(a.id).not.toBe(b.id);
    expect(await current().getUser(b.id)).toStrictEqual(b);
  });

  it('keeps an empty roles array and allows many users without email', async () => {
    const a = await current().createUser({ roles: [] });
    const b = await current().createUser({ email: null });
    expect((await current().getUser(a.id))?.roles).toStrictEqual([]);
    expect((await current().getUser(b.id))?.email).toBeNull();
  });

  it('createUser rejects a taken id with a conflict on "id"', async () => {
    const user = await addUser(current());
    await expectConflict(current().createUser({ id: user.id, email: 'other@example.com' }), 'id');
  });

  it('getUserByEmail matches case-insensitively and keeps the email as given', async () => {
    const user = await current().createUser({ email: 'Alice@Example.COM' });
    expect(await current().getUserByEmail('alice@example.com')).toStrictEqual(user);
    expect(await current().getUserByEmail('ALICE@EXAMPLE.COM')).toStrictEqual(user);
    expect(user.email).toBe('Alice@Example.COM');
    expect(await current().getUserByEmail('alice@example.co')).toBeNull();
  });

  it('createUser rejects an email taken in another case with a conflict on "email"', async () => {
    const first = await current().createUser({ email: 'bob@example.io', name: 'Bob' });
    await expectConflict(current().createUser({ email: 'BOB@Example.IO', name: 'Mallory' }), 'email');
    expect(await current().getUserByEmail('bob@example.io')).toStrictEqual(first);
  });

  it('updateUser applies defined keys, leaves undefined ones, clears with null', async () => {
    const user = await addUser(current(), { name: 'Old', image: 'x.png', role: 'user', roles: ['a'] });
    const updated = await current().updateUser(user.id, {
      name: 'New',
      image: null,
      emailVerified: at(42),
      roles: ['a', 'b'],
      email: undefined,
    });
    const expected: AdapterUser = { ...user, name: 'New', image: null, emailVerified: at(42), roles: ['a', 'b'] };
    expect(updated).toStrictEqual(expected);
    expect(await current().getUser(user.id)).toStrictEqual(expected);
    const cleared = await current().updateUser(user.id, { role: null, roles: null } as unknown as Partial<AdapterUser>);
    expect(cleared).not.toHaveProperty('role');
    expect(cleared).not.toHaveProperty('roles');
    expect(await current().getUser(user.id)).toStrictEqual(cleared);
  });

  it('updateUser with an empty patch returns the user unchanged; unknown id gives null', async () => {
    const user = await addUser(current());
    expect(await current().updateUser(user.id, {})).toStrictEqual(user);
    expect(await current().updateUser('missing-user', { name: 'x' })).toBeNull();
  });

  it("updateUser rejects another user's email (any case) and frees the old email on change", async () => {
    const alice = await current().createUser({ email: 'alice@example.net' });
    const bob = await current().createUser({ email: 'bob@example.net' });
    await expectConflict(current().updateUser(bob.id, { email: 'ALICE@example.net' }), 'email');
    expect((await current().getUser(bob.id))?.email).toBe('bob@example.net');
    expect((await current().updateUser(alice.id, { email: 'Alice@Example.net' }))?.email).toBe('Alice@Example.net');
    await current().updateUser(bob.id, { email: 'robert@example.net' });
    expect(await current().getUserByEmail('bob@example.net')).toBeNull();
    expect((await current().getUserByEmail('ROBERT@example.net'))?.id).toBe(bob.id);
    expect((await current().createUser({ email: 'bob@example.net' })).email).toBe('bob@example.net');
  });

  it('returns copies: mutating inputs or results never changes stored users', async () => {
    const roles = ['a'];
    const emailVerified = at(5);
    const user = await addUser(current(), { roles, emailVerified });
    roles.push('injected');
    emailVerified.setTime(0);
    user.roles?.push('injected');
    user.emailVerified?.setTime(0);
    user.name = 'changed';
    for (const read of [await current().getUser(user.id), await current().getUserByEmail(user.email ?? '')]) {
      read?.roles?.push('injected');
      read?.emailVerified?.setTime(0);
    }
    const stored = await current().getUser(user.id);
    expect(stored?.roles).toStrictEqual(['a']);
    expect(stored?.emailVerified).toStrictEqual(at(5));
    expect(stored?.name).toBeNull();
  });

  it('deleteUser removes the user with their accounts, sessions and authenticators only', async () => {
    const adapter = current();
    const [doomed, other] = [await addUser(adapter), await addUser(adapter)];
    const account = await adapter.linkAccount(sampleAccount(doomed.id));
    const session = await adapter.createSession(sampleSession(doomed.id));
    const passkey = await adapter.createAuthenticator(sampleAuthenticator(doomed.id));
    const keep = {
      account: await adapter.linkAccount(sampleAccount(other.id)),
      session: await adapter.createSession(sampleSession(other.id)),
      passkey: await adapter.createAuthenticator(sampleAuthenticator(other.id)),
    };
    await adapter.deleteUser(doomed.id);
    expect(await adapter.getUser(doomed.id)).toBeNull();
    expect(await adapter.getUserByEmail(doomed.email ?? '')).toBeNull();
    expect(await adapter.getAccount(account)).toBeNull();
    expect(await adapter.getUserByAccount(account)).toBeNull();
    expect(await adapter.listAccounts(doomed.id)).toStrictEqual([]);
    expect(await adapter.getSessionAndUser(session.id)).toBeNull();
    expect(await adapter.deleteUserSessions(doomed.id)).toBe(0);
    expect(await adapter.getAuthenticator(passkey.credentialId)).toBeNull();
    expect(await adapter.listAuthenticators(doomed.id)).toStrictEqual([]);
    expect(await adapter.getAccount(keep.account)).toStrictEqual(keep.account);
    expect((await adapter.getSessionAndUser(keep.session.id))?.session).toStrictEqual(keep.session);
    expect(await adapter.getAuthenticator(keep.passkey.credentialId)).toStrictEqual(keep.passkey);
    expect((await adapter.createUser({ email: doomed.email })).email).toBe(doomed.email);
  });

  it('round-trips arbitrary Unicode names and emails (property)', async () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 24 }), fc.string({ unit: 'binary', maxLength: 24 }));
    const noNul = text.map((s) => s.replaceAll('\0', ''));
    await fc.assert(
      fc.asyncProperty(noNul, noNul, async (name, local) => {
        const email = `${local}@${unique('d')}`;
        const user = await current().createUser({ email, name });
        expect(user.email).toBe(email);
        expect(await current().getUser(user.id)).toStrictEqual(user);
        expect((await current().getUserByEmail(email.toLowerCase()))?.id).toBe(user.id);
        expect((await current().getUserByEmail(email))?.name).toBe(name);
        await current().deleteUser(user.id);
      }),
      { numRuns: 60 },
    );
  });
}
