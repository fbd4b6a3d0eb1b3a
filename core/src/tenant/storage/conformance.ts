/**
 * The tenant storage conformance suite: one set of vitest tests that every
 * {@link TenantStorage} (memory, SQL, key-value) must pass.
 * @module
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// The kit by its public names: the suite is bundled into `@framework/testing`, whose code and declarations must use
// the app's `@framework/auth`.
import { AuthError, StorageConflictError } from '@framework/auth';
import { LastOwnerError, TenantNotFoundError, type TenantStorage } from '@framework/auth/tenant';
import { forbiddenCharacter } from '../../input/text.js';

/** A fresh, empty storage for one test, and how to dispose of it afterwards. */
export interface TenantConformanceFixture {
  storage: TenantStorage;
  teardown?: () => Promise<void>;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : 1);
const sorted = <T extends { id: string }>(list: T[]) => [...list].sort(byId);
const tick = () => new Promise((resolve) => setTimeout(resolve, 3));

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/**
 * Declares the conformance tests for one tenant storage. Each test gets a
 * fresh storage from `make`, calls `migrate()` on it, and tears it down.
 * @example
 * ```ts
 * runTenantStorageConformance('memory', async () => ({ storage: createMemoryTenantStorage() }));
 * ```
 */
export function runTenantStorageConformance(name: string, make: () => Promise<TenantConformanceFixture>): void {
  describe(`tenant storage conformance: ${name}`, () => {
    let fixture: TenantConformanceFixture | undefined;
    const s = (): TenantStorage => {
      if (!fixture) throw new Error('No storage: beforeEach did not run');
      return fixture.storage;
    };
    beforeEach(async () => {
      fixture = await make();
      await fixture.storage.migrate();
    });
    afterEach(async () => {
      const done = fixture;
      fixture = undefined;
      await done?.teardown?.();
    });

    it('create → get by id, by slug and by the slug in another case; fields round-trip', async () => {
      const settings = { plan: 'pro', limits: { seats: 5 }, tags: ['a', 'ü'], note: '東京 🚀' };
      const created = await s().create({ slug: 'acme', name: 'Acme Inc. — Ωmega', settings });
      expect(created).toMatchObject({ slug: 'acme', name: 'Acme Inc. — Ωmega', settings });
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(created.updatedAt.getTime()).toBe(created.createdAt.getTime());
      expect(await s().get(created.id)).toStrictEqual(created);
      expect(await s().get('acme')).toStrictEqual(created);
      expect(await s().get('ACME')).toStrictEqual(created);
    });

    it('keeps a given id; settings are absent when none were given', async () => {
      const t = await s().create({ id: 'tenant_01', slug: 'globex', name: 'Globex' });
      expect(t.id).toBe('tenant_01');
      expect('settings' in t).toBe(false);
      expect(await s().get('tenant_01')).toStrictEqual(t);
      expect('settings' in (await s().get('globex'))!).toBe(false);
    });

    it('returns fresh copies', async () => {
      const t = await s().create({ slug: 'copy', name: 'Copy', settings: { a: 1 } });
      t.name = 'changed';
      t.settings!.a = 2;
      const read = (await s().get(t.id))!;
      expect(read).toMatchObject({ name: 'Copy', settings: { a: 1 } });
      read.createdAt.setTime(0);
      expect((await s().get(t.id))!.createdAt.getTime()).not.toBe(0);
    });

    it('rejects invalid input with INVALID_REQUEST and stores nothing', async () => {
      for (const input of [
        { slug: 'Acme', name: 'x' },
        { slug: '-acme', name: 'x' },
        { slug: 'xn--80ak6aa92e', name: 'x' },
        { slug: 'a'.repeat(64), name: 'x' },
        { slug: 'ok', name: '   ' },
        { slug: 'ok', name: 'Acme\u202Egnp.exe' },
        { slug: 'ok', name: 'Ac\u200Bme' },
        { slug: 'ok', name: 'Acme\u0000' },
        { slug: 'ok', name: 'x', id: '../etc' },
        { slug: 'ok', name: 'x', settings: [1] as never },
      ]) {
        const error = await rejection(s().create(input));
        expect(error).toBeInstanceOf(AuthError);
        expect(error).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
      }
      expect(await s().list()).toStrictEqual({ tenants: [], next: null });
    });

    it('a taken id or slug (one namespace) is a StorageConflictError and changes nothing', async () => {
      const first = await s().create({ id: 'one', slug: 'acme', name: 'Acme' });
      for (const [input, field] of [
        [{ slug: 'acme', name: 'Other' }, 'slug'],
        [{ id: 'one', slug: 'other', name: 'Other' }, 'id'],
        [{ slug: 'one', name: 'Other' }, 'slug'],
        [{ id: 'acme', slug: 'other', name: 'Other' }, 'id'],
      ] as const) {
        const error = await rejection(s().create(input));
        expect(error).toBeInstanceOf(StorageConflictError);
        expect(error).toMatchObject({ code: 'CONFLICT', field });
      }
      expect(await s().list()).toStrictEqual({ tenants: [first], next: null });
    });

    it('list returns every tenant, page by page in id order, each exactly once', async () => {
      const made = await Promise.all(
        ['a1', 'b2', 'c3', 'd4', 'e5'].map((slug) => s().create({ slug, name: slug.toUpperCase() })),
      );
      expect(await s().list()).toStrictEqual({ tenants: sorted(made), next: null });
      const seen = [];
      let page = await s().list({ limit: 2 });
      seen.push(...page.tenants);
      while (page.next) {
        expect(page.tenants).toHaveLength(2);
        page = await s().list({ limit: 2, after: page.next });
        seen.push(...page.tenants);
      }
      expect(seen).toStrictEqual(sorted(made));
      // A tenant created between two pages, above the cursor, shows up on a later page; none is repeated.
      const first = await s().list({ limit: 1 });
      const late = await s().create({ id: 'zz-late', slug: 'late', name: 'Late' });
      const rest = await s().list({ limit: 100, after: first.next! });
      expect([...first.tenants, ...rest.tenants]).toStrictEqual(sorted([...made, late]));
    });

    it('a page query outside the rules is 400 INVALID_REQUEST', async () => {
      for (const query of [
        { limit: 0 },
        { limit: 101 },
        { limit: 2.5 },
        { after: '' },
        { after: 'x\u0000' },
        { after: 'a'.repeat(256) },
      ]) {
        expect(await rejection(s().list(query as never))).toMatchObject({ code: 'INVALID_REQUEST', status: 400 });
        expect(await rejection(s().listMembers('t', query as never))).toMatchObject({ code: 'INVALID_REQUEST' });
      }
    });

    it('update changes the given fields, moves the slug and advances updatedAt', async () => {
      const t = await s().create({ slug: 'old', name: 'Old', settings: { x: 1 } });
      await tick();
      const updated = (await s().update(t.id, { slug: 'new', name: 'New' }))!;
      expect(updated).toMatchObject({ id: t.id, slug: 'new', name: 'New', settings: { x: 1 }, createdAt: t.createdAt });
      expect(updated.updatedAt.getTime()).toBeGreaterThan(t.updatedAt.getTime());
      expect(await s().get('new')).toStrictEqual(updated);
      expect(await s().get('old')).toBeNull();
      const cleared = (await s().update(t.id, { settings: null }))!;
      expect('settings' in cleared).toBe(false);
      expect(await s().get(t.id)).toStrictEqual(cleared);
      expect(await s().update(t.id, { settings: { y: [true] } })).toMatchObject({ settings: { y: [true] } });
    });

    it('update to a taken slug conflicts and leaves both tenants unchanged', async () => {
      const a = await s().create({ slug: 'aaa', name: 'A' });
      const b = await s().create({ slug: 'bbb', name: 'B' });
      expect(await rejection(s().update(b.id, { slug: 'aaa' }))).toMatchObject({ code: 'CONFLICT', field: 'slug' });
      expect(await rejection(s().update(b.id, { slug: a.id }))).toMatchObject({ code: 'CONFLICT', field: 'slug' });
      expect(await rejection(s().update(b.id, { slug: 'BAD' }))).toMatchObject({ code: 'INVALID_REQUEST' });
      expect((await s().list()).tenants).toStrictEqual(sorted([a, b]));
    });

    it('delete removes the tenant and its memberships and frees the slug', async () => {
      const t = await s().create({ slug: 'gone', name: 'Gone' });
      const keep = await s().create({ slug: 'kept', name: 'Kept' });
      await s().addMember({ tenantId: t.id, userId: 'u1', role: 'owner' });
      await s().addMember({ tenantId: keep.id, userId: 'u1', role: 'member' });
      expect(await s().delete(t.id)).toBe(true);
      expect(await s().delete(t.id)).toBe(false);
      expect(await s().get(t.id)).toBeNull();
      expect(await s().get('gone')).toBeNull();
      expect(await s().getMember(t.id, 'u1')).toBeNull();
      expect((await s().listMemberships('u1')).map((m) => m.tenantId)).toStrictEqual([keep.id]);
      await expect(s().create({ slug: 'gone', name: 'Again' })).resolves.toMatchObject({ slug: 'gone' });
    });

    it('memberships: add, change role (keeping createdAt), list both ways, remove', async () => {
      const acme = await s().create({ slug: 'acme', name: 'Acme' });
      const globex = await s().create({ slug: 'globex', name: 'Globex' });
      const added = await s().addMember({ tenantId: acme.id, userId: 'user-1', role: 'member' });
      expect(added).toMatchObject({ tenantId: acme.id, userId: 'user-1', role: 'member' });
      expect(await s().getMember(acme.id, 'user-1')).toStrictEqual(added);
      await tick();
      const promoted = await s().addMember({ tenantId: acme.id, userId: 'user-1', role: 'owner' });
      expect(promoted).toStrictEqual({ ...added, role: 'owner' });
      expect(await s().getMember(acme.id, 'user-1')).toStrictEqual(promoted);
      await s().addMember({ tenantId: acme.id, userId: 'user-2', role: 'member' });
      await s().addMember({ tenantId: globex.id, userId: 'user-1', role: 'member' });
      expect((await s().listMembers(acme.id)).members.map((m) => m.userId)).toStrictEqual(['user-1', 'user-2']);
      const firstMember = await s().listMembers(acme.id, { limit: 1 });
      expect(firstMember.members.map((m) => m.userId)).toStrictEqual(['user-1']);
      expect(firstMember.next).toBe('user-1');
      expect(await s().listMembers(acme.id, { limit: 1, after: firstMember.next! })).toMatchObject({
        members: [{ userId: 'user-2', tenantId: acme.id }],
        next: null,
      });
      expect((await s().listMemberships('user-1')).map((m) => m.tenantId).sort()).toStrictEqual(
        [acme.id, globex.id].sort(),
      );
      expect(await s().removeMember(acme.id, 'user-1')).toBe(true);
      expect(await s().removeMember(acme.id, 'user-1')).toBe(false);
      expect(await s().getMember(acme.id, 'user-1')).toBeNull();
      expect((await s().listMembers(acme.id)).members.map((m) => m.userId)).toStrictEqual(['user-2']);
    });

    it('addMember keeps a given createdAt for a new membership only (guarded or not); a bad one is 400', async () => {
      const t = await s().create({ slug: 'acme', name: 'Acme' });
      const joined = new Date('2024-02-03T04:05:06.789Z');
      for (const [userId, guard] of [
        ['u1', undefined],
        ['u2', { keepOwner: 'owner' }],
      ] as const) {
        const added = await s().addMember({ tenantId: t.id, userId, role: 'member', createdAt: joined }, guard);
        expect(added.createdAt).toStrictEqual(joined);
        expect((await s().getMember(t.id, userId))!.createdAt).toStrictEqual(joined);
        const later = await s().addMember({ tenantId: t.id, userId, role: 'admin', createdAt: new Date() }, guard);
        expect(later).toStrictEqual({ ...added, role: 'admin' });
      }
      for (const createdAt of [new Date(Number.NaN), '2024-01-01' as never]) {
        expect(
          await rejection(s().addMember({ tenantId: t.id, userId: 'u3', role: 'member', createdAt })),
        ).toMatchObject({
          code: 'INVALID_REQUEST',
        });
      }
      expect(await s().getMember(t.id, 'u3')).toBeNull();
    });

    it('addMember to an unknown tenant throws TenantNotFoundError; bad fields INVALID_REQUEST', async () => {
      expect(await rejection(s().addMember({ tenantId: 'nope', userId: 'u', role: 'member' }))).toBeInstanceOf(
        TenantNotFoundError,
      );
      const t = await s().create({ slug: 'acme', name: 'Acme' });
      expect(await rejection(s().addMember({ tenantId: t.id, userId: '', role: 'member' }))).toMatchObject({
        code: 'INVALID_REQUEST',
      });
      expect(await rejection(s().addMember({ tenantId: t.id, userId: 'u', role: 42 as never }))).toMatchObject({
        code: 'INVALID_REQUEST',
      });
      expect(await s().listMembers(t.id)).toStrictEqual({ members: [], next: null });
    });

    it('"not found" and hostile keys are null, false or [] and never a throw', async () => {
      await s().create({ slug: 'acme', name: 'Acme' });
      for (const key of [
        '',
        'nope',
        '..',
        '../acme',
        'acme ',
        'ac\u0000me',
        'acme%00',
        ' acme',
        'a'.repeat(500),
        42 as never,
      ]) {
        expect(await s().get(key)).toBeNull();
      }
      expect(await s().update('nope', { name: 'x' })).toBeNull();
      expect(await s().delete('nope')).toBe(false);
      expect(await s().getMember('nope', 'u')).toBeNull();
      expect(await s().listMembers('nope')).toStrictEqual({ members: [], next: null });
      expect(await s().listMemberships('nope')).toStrictEqual([]);
      expect(await s().removeMember('nope', 'u')).toBe(false);
    });

    it('guarded changes ({ keepOwner }) never take the last owner: LastOwnerError, nothing changed', async () => {
      const t = await s().create({ slug: 'acme', name: 'Acme' });
      const keep = { keepOwner: 'owner' };
      const owner = await s().addMember({ tenantId: t.id, userId: 'ada', role: 'owner' });
      await s().addMember({ tenantId: t.id, userId: 'bob', role: 'member' });
      for (const attempt of [
        () => s().removeMember(t.id, 'ada', keep),
        () => s().addMember({ tenantId: t.id, userId: 'ada', role: 'member' }, keep),
      ]) {
        const error = await rejection(attempt());
        expect(error).toBeInstanceOf(LastOwnerError);
        expect(error).toMatchObject({ code: 'LAST_OWNER', status: 409 });
      }
      expect(await s().getMember(t.id, 'ada')).toStrictEqual(owner);
      // Non-owners, an owner beside another owner, an owner keeping the role, and new members pass.
      expect(await s().addMember({ tenantId: t.id, userId: 'ada', role: 'owner' }, keep)).toStrictEqual(owner);
      expect(await s().removeMember(t.id, 'bob', keep)).toBe(true);
      expect(await s().removeMember(t.id, 'bob', keep)).toBe(false);
      const grace = await s().addMember({ tenantId: t.id, userId: 'grace', role: 'owner' }, keep);
      expect(grace).toMatchObject({ tenantId: t.id, userId: 'grace', role: 'owner' });
      expect(await s().addMember({ tenantId: t.id, userId: 'ada', role: 'admin' }, keep)).toStrictEqual({
        ...owner,
        role: 'admin',
      });
      expect(await rejection(s().removeMember(t.id, 'grace', keep))).toBeInstanceOf(LastOwnerError);
      expect(await s().getMember(t.id, 'grace')).toStrictEqual(grace);
      expect(await rejection(s().removeMember(t.id, 'grace', { keepOwner: '' }))).toMatchObject({
        code: 'INVALID_REQUEST',
      });
      expect(await s().removeMember('nope', 'grace', keep)).toBe(false);
      // Unguarded calls do not take part.
      expect(await s().removeMember(t.id, 'grace')).toBe(true);
    });

    it('20 concurrent guarded removals and demotions of different co-owners leave exactly one owner', async () => {
      const t = await s().create({ slug: 'acme', name: 'Acme' });
      const keep = { keepOwner: 'owner' };
      const ids = Array.from({ length: 20 }, (_, i) => `owner-${i}`);
      for (const userId of ids) await s().addMember({ tenantId: t.id, userId, role: 'owner' });
      for (const demote of [false, true, false, true]) {
        const results = await Promise.allSettled(
          ids.map((userId, i) =>
            demote && i % 2 === 0
              ? s().addMember({ tenantId: t.id, userId, role: 'member' }, keep)
              : s().removeMember(t.id, userId, keep),
          ),
        );
        const refused = results.filter((r) => r.status === 'rejected');
        expect(refused).toHaveLength(1);
        expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(LastOwnerError);
        const owners = (await s().listMembers(t.id, { limit: 100 })).members.filter((m) => m.role === 'owner');
        expect(owners).toHaveLength(1);
        // Again with every co-owner back (the survivor included).
        for (const userId of ids) await s().addMember({ tenantId: t.id, userId, role: 'owner' });
      }
    });

    it('migrate() is idempotent and keeps data', async () => {
      const t = await s().create({ slug: 'acme', name: 'Acme' });
      await s().migrate();
      await s().migrate();
      expect(await s().get('acme')).toStrictEqual(t);
    });

    it('property: any valid slug and name round-trip', async () => {
      const slug = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/).filter((v) => v.slice(2, 4) !== '--');
      const name = fc
        .string({ minLength: 1, maxLength: 40, unit: 'grapheme' })
        .filter((v) => v.trim() !== '' && forbiddenCharacter(v, true) === null);
      await fc.assert(
        fc.asyncProperty(slug, name, async (sl, nm) => {
          const created = await s().create({ slug: sl, name: nm });
          expect(await s().get(sl.toUpperCase())).toStrictEqual(created);
          expect(await s().delete(created.id)).toBe(true);
        }),
        { numRuns: 25 },
      );
    });
  });
}
