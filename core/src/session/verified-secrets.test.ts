/**
 * The database strategy keeps cookie values it verified, with the stored hash they matched: a value is accepted
 * again only against that same stored hash, never for another secret or once the row changed or went away.
 */
import { describe, expect, it } from 'vitest';
import { makeFixture, ORIGIN } from '../testing/fixtures.js';
import type { StorageAdapter } from '../storage/types.js';

const reqWith = (cookie: string) =>
  new Request(`${ORIGIN}/`, { headers: { cookie: `framework.session-token=${cookie}` } });

describe('database sessions: verified cookie values', () => {
  it('accept a value again only while the stored hash is the one it matched', async () => {
    const { auth, adapter, client } = await makeFixture('database');
    // The stored hash as storage answers it; `swapped` stands in for a row whose secret changed.
    let swapped = false;
    const read = adapter.getSessionAndUser.bind(adapter);
    (adapter as { getSessionAndUser: StorageAdapter['getSessionAndUser'] }).getSessionAndUser = async (id) => {
      const found = await read(id);
      return found && swapped ? { ...found, session: { ...found.session, tokenHash: 'f'.repeat(64) } } : found;
    };
    const c = client();
    await c.signIn();
    const value = c.cookies.get('framework.session-token')!;
    const [id, secret] = value.split('.') as [string, string];

    expect((await auth.getSession(reqWith(value))).user?.email).toBe('ada@example.com');
    expect((await auth.getSession(reqWith(value))).user?.email).toBe('ada@example.com');
    swapped = true;
    expect((await auth.getSession(reqWith(value))).user).toBeNull();
    swapped = false;
    expect((await auth.getSession(reqWith(value))).user?.email).toBe('ada@example.com');

    // Another secret for the same id, of the same length and differing in one character.
    const last = secret.at(-1) === 'A' ? 'B' : 'A';
    expect((await auth.getSession(reqWith(`${id}.${secret.slice(0, -1)}${last}`))).user).toBeNull();
    expect((await auth.getSession(reqWith(value))).user?.email).toBe('ada@example.com');

    // Signed out: the row is gone, the value verified before no longer reads.
    expect((await c.postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect((await auth.getSession(reqWith(value))).user).toBeNull();
  });
});
