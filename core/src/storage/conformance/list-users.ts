/**
 * Conformance tests for `listUsers`: keyset pages in ascending id order and a case-insensitive search (prefix
 * matches, which every backend has) in the search order: by the matched email or lower-cased name, then id.
 * @module
 * @internal
 */
import { expect, it } from 'vitest';
import { addUser, type CurrentAdapter } from './fixtures.js';
import type { AdapterUser, ListUsersQuery } from '../types.js';

/** Every page of a query, followed through `next`. */
async function allPages(current: CurrentAdapter, query: ListUsersQuery): Promise<AdapterUser[][]> {
  const pages: AdapterUser[][] = [];
  let after: string | undefined;
  do {
    const page = await current().listUsers!({ ...query, ...(after ? { after } : {}) });
    pages.push(page.users);
    after = page.next ?? undefined;
  } while (after !== undefined && pages.length < 50);
  return pages;
}

/** Declares the listUsers tests. */
export function listUsersTests(current: CurrentAdapter): void {
  it('listUsers pages through every user once, in ascending id order, with `next` null on the last page', async () => {
    expect(current().listUsers).toBeTypeOf('function');
    const ids = Array.from({ length: 7 }, (_, i) => `user-${String(i).padStart(2, '0')}`);
    for (const id of [...ids].reverse()) await addUser(current(), { id, email: `${id}@example.com` });
    const pages = await allPages(current, { limit: 3 });
    expect(pages.map((page) => page.map((u) => u.id))).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    const first = await current().listUsers!({ limit: 3 });
    expect(first.next).toBe('user-02');
    expect(first.users[0]).toStrictEqual(await current().getUser('user-00'));
    expect(await current().listUsers!({ limit: 7 })).toMatchObject({ next: null });
    expect((await current().listUsers!({ after: 'user-06' })).users).toEqual([]);
  });

  it('listUsers clamps the limit to 1–100 (default 20)', async () => {
    for (let i = 0; i < 22; i++) await addUser(current(), { id: `u-${String(i).padStart(2, '0')}` });
    expect((await current().listUsers!({})).users).toHaveLength(20);
    expect((await current().listUsers!({ limit: 0 })).users).toHaveLength(1);
    expect((await current().listUsers!({ limit: 1_000 })).users).toHaveLength(22);
  });

  it('listUsers searches by email and name case-insensitively, a whole email finds its user, wildcards and escapes literal', async () => {
    // Every backend matches at least a prefix of the email or name (some match anywhere: see the admin README),
    // so each search below has the same answer everywhere; the decoys catch a LIKE that reads `_`, `%` or `\`.
    await addUser(current(), { id: 'a', email: 'Ada@Example.com', name: 'Ada Lovelace' });
    await addUser(current(), { id: 'b', email: 'grace@navy.mil', name: 'Grace HOPPER' });
    await addUser(current(), { id: 'c', email: 'x_y@example.org', name: '100% Alan' });
    await addUser(current(), { id: 'd', email: null, name: null });
    await addUser(current(), { id: 'e', email: 'xay@example.org', name: 'Xavier' });
    await addUser(current(), { id: 'f', email: 'f@f.test', name: '1000 Lovelaces' });
    await addUser(current(), { id: 'g', email: 'g@g.test', name: 'back\\slash' });
    const ids = async (search: string) => (await current().listUsers!({ search })).users.map((u) => u.id);
    expect(await ids('ADA')).toEqual(['a']);
    expect(await ids('grace h')).toEqual(['b']);
    expect(await ids('Grace@Navy.mil')).toEqual(['b']);
    expect(await ids('ada@example.com')).toEqual(['a']);
    expect(await ids('x_')).toEqual(['c']);
    expect(await ids('x%')).toEqual([]);
    expect(await ids('100%')).toEqual(['c']);
    expect(await ids('back\\')).toEqual(['g']);
    expect(await ids('back\\%')).toEqual([]);
    expect(await ids('!')).toEqual([]);
    expect(await ids('  ')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    const pages = await allPages(current, { search: '10', limit: 1 });
    expect(pages.flat().map((u) => u.id)).toEqual(['c', 'f']);
  });

  it('listUsers orders search results by the matched email or lower-cased name (the smaller when both match), then id, across pages', async () => {
    // Each user's key: the normalized email or lower-cased name that starts with the search, the smaller by
    // code point when both do. ' ' < '@' < 'a', so the keys below sort as listed in `expected`.
    await addUser(current(), { id: 'u1', email: 'Anna@X.test', name: 'Zed' }); // anna@x.test
    await addUser(current(), { id: 'u2', email: 'z2@x.test', name: 'Ann Lee' }); // ann lee
    await addUser(current(), { id: 'u3', email: 'annb@x.test', name: 'Anna Bell' }); // anna bell (name < email)
    await addUser(current(), { id: 'u4', email: 'ann@x.test', name: 'Annz' }); // ann@x.test (email < name)
    await addUser(current(), { id: 'u0', email: 'z0@x.test', name: 'ANNA BELL' }); // anna bell: tie, id decides
    await addUser(current(), { id: 'u5', email: null, name: 'ANN' }); // ann
    await addUser(current(), { id: 'u6', email: 'bob@x.test', name: 'Bob' }); // no match
    const expected = ['u5', 'u2', 'u4', 'u0', 'u3', 'u1'];
    for (const limit of [1, 2, 4, 6, 20]) {
      const pages = await allPages(current, { search: 'Ann', limit });
      expect(pages.flat().map((u) => u.id)).toEqual(expected);
      expect(pages.at(-1)!.length).toBeGreaterThan(0);
    }
    // The first page ends where the second begins; the last page has no `next`.
    const first = await current().listUsers!({ search: 'ann', limit: 3 });
    expect(first.users.map((u) => u.id)).toEqual(['u5', 'u2', 'u4']);
    const second = await current().listUsers!({ search: 'ann', limit: 3, after: first.next! });
    expect(second).toMatchObject({ next: null });
    expect(second.users.map((u) => u.id)).toEqual(['u0', 'u3', 'u1']);
    // A search holding '@' is ordered by email.
    expect((await current().listUsers!({ search: 'ann' + '@' })).users.map((u) => u.id)).toEqual(['u4']);
  });
}
