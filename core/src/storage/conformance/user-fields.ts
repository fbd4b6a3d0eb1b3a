/**
 * Conformance: custom user fields (`configureUserFields`). Each test configures the fields on the suite's
 * migrated adapter and migrates again, so the columns are added to an existing users table; adapters without
 * `configureUserFields` skip these tests.
 * @module
 * @internal
 */
import { expect, it, type TestContext } from 'vitest';
import { StorageConflictError, resolveUserFields, type AdapterUser, type StorageAdapter } from '@framework/auth';
import { addUser, at, sampleAccount, sampleSession, type CurrentAdapter } from './fixtures.js';

/** The custom fields the suite configures (tools that replay its statements on a schema of their own need them). */
export const CONFORMANCE_USER_FIELDS = resolveUserFields({
  plan: { type: 'string', defaultValue: 'free', input: false },
  seats: { type: 'number', defaultValue: () => 1 },
  vip: { type: 'boolean', defaultValue: false },
  trialEndsAt: { type: 'date' },
  tags: { type: 'string[]' },
  handle: { type: 'string', unique: true },
  // Named like the session read's own columns (s_expires, …): see sessionColumnTests.
  sExpires: { type: 'date' },
  sImpersonatedBy: { type: 'string' },
  sTokenHash: { type: 'string' },
  sCreatedAt: { type: 'date' },
  sLastActiveAt: { type: 'date' },
  sIp: { type: 'string' },
  sUserAgent: { type: 'string' },
});

/** The suite's adapter with the fields configured and migrated in; skips adapters that cannot store them. */
async function withFields(current: CurrentAdapter, ctx: TestContext): Promise<StorageAdapter> {
  const adapter = current();
  if (typeof adapter.configureUserFields !== 'function') ctx.skip();
  adapter.configureUserFields!(CONFORMANCE_USER_FIELDS);
  await adapter.migrate();
  return adapter;
}

const fieldsOf = (user: AdapterUser | null | undefined) => user as unknown as Record<string, unknown>;

export function userFieldTests(current: CurrentAdapter): void {
  sessionColumnTests(current);
  it('adds the columns to an existing table (idempotently); rows already there read static defaults or null', async (ctx) => {
    const before = await addUser(current());
    const adapter = await withFields(current, ctx);
    await adapter.migrate();
    expect(fieldsOf(await adapter.getUser(before.id))).toMatchObject({
      plan: 'free',
      seats: null,
      vip: false,
      trialEndsAt: null,
      tags: null,
      handle: null,
    });
  });

  it('round-trips every type through each read, with defaults (values and functions) for fields left out', async (ctx) => {
    const adapter = await withFields(current, ctx);
    const given = { trialEndsAt: at(5), tags: ['a', 'ü', ''], handle: 'ada', vip: true, seats: 2.5 };
    const user = await addUser(adapter, given as Partial<AdapterUser>);
    expect(fieldsOf(user)).toMatchObject({ ...given, plan: 'free' });
    const plain = await addUser(adapter);
    expect(fieldsOf(plain)).toMatchObject({ plan: 'free', seats: 1, vip: false, trialEndsAt: null, tags: null });
    await adapter.linkAccount(sampleAccount(user.id, { provider: 'p', providerAccountId: 'a' }));
    const session = await adapter.createSession(sampleSession(user.id));
    const reads = [
      await adapter.getUser(user.id),
      await adapter.getUserByEmail(user.email!),
      await adapter.getUserByAccount({ provider: 'p', providerAccountId: 'a' }),
      (await adapter.getSessionAndUser(session.id))?.user,
      (await adapter.listUsers?.({ limit: 100 }))?.users.find((u) => u.id === user.id) ?? user,
    ];
    for (const read of reads) expect(read).toStrictEqual(user);
    expect(fieldsOf(reads[0]).trialEndsAt).toBeInstanceOf(Date);
  });

  it('updates fields: undefined leaves one unchanged, null clears it, and the result is a copy', async (ctx) => {
    const adapter = await withFields(current, ctx);
    const user = await addUser(adapter, { tags: ['x'], handle: 'h1' } as Partial<AdapterUser>);
    const patch = { plan: 'pro', tags: null, seats: undefined, vip: true } as Partial<AdapterUser>;
    const updated = await adapter.updateUser(user.id, patch);
    expect(fieldsOf(updated)).toMatchObject({ plan: 'pro', tags: null, seats: 1, vip: true, handle: 'h1' });
    (fieldsOf(updated).trialEndsAt as unknown) = 'mutated';
    expect(await adapter.getUser(user.id)).toStrictEqual({ ...updated, trialEndsAt: null });
    const withDate = await adapter.updateUser(user.id, { trialEndsAt: at(9) } as Partial<AdapterUser>);
    (fieldsOf(withDate).trialEndsAt as Date).setTime(0);
    expect(fieldsOf(await adapter.getUser(user.id)).trialEndsAt).toStrictEqual(at(9));
  });

  it('refuses a taken unique value (StorageConflictError naming the field); nulls never collide', async (ctx) => {
    const adapter = await withFields(current, ctx);
    const ada = await addUser(adapter, { handle: 'ada' } as Partial<AdapterUser>);
    const conflict = addUser(adapter, { handle: 'ada' } as Partial<AdapterUser>);
    await expect(conflict).rejects.toBeInstanceOf(StorageConflictError);
    await expect(conflict).rejects.toMatchObject({ field: 'handle' });
    const grace = await addUser(adapter);
    await addUser(adapter);
    const update = adapter.updateUser(grace.id, { handle: 'ada' } as Partial<AdapterUser>);
    await expect(update).rejects.toMatchObject({ field: 'handle' });
    expect(fieldsOf(await adapter.getUser(ada.id)).handle).toBe('ada');
    expect(fieldsOf(await adapter.getUser(grace.id)).handle).toBeNull();
  });

  it('refuses values of the wrong type with a TypeError, storing nothing', async (ctx) => {
    const adapter = await withFields(current, ctx);
    const email = 'typed@example.com';
    await expect(adapter.createUser({ email, seats: '3' } as Partial<AdapterUser>)).rejects.toThrow(TypeError);
    expect(await adapter.getUserByEmail(email)).toBeNull();
    const user = await addUser(adapter);
    await expect(adapter.updateUser(user.id, { trialEndsAt: 'soon' } as Partial<AdapterUser>)).rejects.toThrow(
      TypeError,
    );
    expect(await adapter.getUser(user.id)).toStrictEqual(user);
  });
}

/**
 * Fields whose columns read like the session read's own (`s_expires`, `s_impersonated_by`, …): a user-editable
 * one must never stand in for the session's value in the joined read (a user extending their own session).
 */
function sessionColumnTests(current: CurrentAdapter): void {
  it("never lets a field named like a session column replace the session's own value in the session read", async (ctx) => {
    const adapter = await withFields(current, ctx);
    const far = new Date('2100-01-01T00:00:00.000Z');
    const user = await addUser(adapter, {
      sExpires: far,
      sImpersonatedBy: 'admin-1',
      sTokenHash: 'forged',
      sCreatedAt: far,
      sLastActiveAt: far,
      sIp: '203.0.113.9',
      sUserAgent: 'forged agent',
    } as Partial<AdapterUser>);
    const session = await adapter.createSession(sampleSession(user.id));
    const found = await adapter.getSessionAndUser(session.id);
    expect(found?.session).toStrictEqual(session);
    expect(fieldsOf(found?.user)).toMatchObject({ sExpires: far, sImpersonatedBy: 'admin-1', sTokenHash: 'forged' });
  });
}
