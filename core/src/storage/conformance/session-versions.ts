/**
 * Conformance tests for session versions (JWT revocation): read, bump, the
 * bump on a role change, and cleanup with the user.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import type { AdapterUser } from '../types.js';
import { addUser, type CurrentAdapter } from './fixtures.js';

/** Declares the session version tests. */
export function sessionVersionTests(current: CurrentAdapter): void {
  it('a new user has version 0; bumpSessionVersion increments and returns the new version', async () => {
    const user = await addUser(current());
    expect(await current().getSessionVersion(user.id)).toBe(0);
    expect(await current().bumpSessionVersion(user.id)).toBe(1);
    expect(await current().bumpSessionVersion(user.id)).toBe(2);
    expect(await current().getSessionVersion(user.id)).toBe(2);
    expect(await current().getUser(user.id)).toStrictEqual(user);
  });

  it('versions belong to one user; unknown and deleted users give null', async () => {
    const [a, b] = [await addUser(current()), await addUser(current())];
    await current().bumpSessionVersion(a.id);
    expect(await current().getSessionVersion(b.id)).toBe(0);
    expect(await current().getSessionVersion('no-such-user')).toBeNull();
    expect(await current().bumpSessionVersion('no-such-user')).toBeNull();
    await current().deleteUser(a.id);
    expect(await current().getSessionVersion(a.id)).toBeNull();
    expect(await current().bumpSessionVersion(a.id)).toBeNull();
  });

  it('20 concurrent bumps count 20 (atomic increment)', async () => {
    const user = await addUser(current());
    const results = await Promise.all(Array.from({ length: 20 }, () => current().bumpSessionVersion(user.id)));
    expect(new Set(results).size).toBe(20);
    expect(await current().getSessionVersion(user.id)).toBe(20);
  });

  it('updateUser bumps the version when role or roles change, and only then', async () => {
    const user = await addUser(current(), { role: 'viewer', roles: ['a'] });
    const version = () => current().getSessionVersion(user.id);
    await current().updateUser(user.id, { name: 'Renamed', email: `x-${user.email}` });
    await current().updateUser(user.id, { role: 'viewer', roles: ['a'] });
    expect(await version()).toBe(0);
    await current().updateUser(user.id, { role: 'admin' });
    expect(await version()).toBe(1);
    await current().updateUser(user.id, { roles: ['a', 'b'] });
    expect(await version()).toBe(2);
    await current().updateUser(user.id, { role: 'admin', roles: ['b', 'a'] });
    expect(await version()).toBe(3);
    await current().updateUser(user.id, { role: null } as unknown as Partial<AdapterUser>);
    expect(await version()).toBe(4);
    await current().updateUser(user.id, { role: null, roles: null } as unknown as Partial<AdapterUser>);
    expect(await version()).toBe(5);
    await current().updateUser(user.id, { role: null, roles: null } as unknown as Partial<AdapterUser>);
    await current().updateUser(user.id, {});
    expect(await version()).toBe(5);
  });

  it('migrate() keeps versions', async () => {
    const user = await addUser(current());
    await current().bumpSessionVersion(user.id);
    await current().migrate();
    expect(await current().getSessionVersion(user.id)).toBe(1);
  });
}
