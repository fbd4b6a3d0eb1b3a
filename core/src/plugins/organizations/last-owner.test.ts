/**
 * The last owner of an organization cannot escape it by deleting their account, nor be removed by `admin()`: both
 * answer 409 `LAST_OWNER` and delete nothing, until ownership is transferred or the organization is deleted. Run on
 * the memory adapter and on SQLite (the auth adapter and the organizations' storage alike).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, ownerFixture, storeKinds } from './owner-fixture.js';

const open = storeKinds();
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

describe.each(Object.keys(open))('the last owner of an organization (%s storage)', (kind) => {
  async function setup() {
    const stores = await open[kind]!();
    closing.push(stores.close);
    return ownerFixture(stores);
  }

  it('deleting the account as the only owner of any organization is 409 LAST_OWNER and deletes nothing', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    // Co-owned first, owned alone second: one organization without another owner is enough to refuse.
    const shared = await f.organization(ada.c, 'Shared', [grace], 'owner');
    const alone = await f.organization(ada.c, 'Alone', [grace], 'admin');
    const refused = await f.deleteOwn(ada);
    expect(await errorOf(refused)).toEqual([409, 'LAST_OWNER']);
    expect(await f.adapter.getUser(ada.id)).not.toBeNull();
    expect(await f.roleOf(shared, ada.id)).toBe('owner');
    expect(await f.roleOf(alone, ada.id)).toBe('owner');
    expect((await ada.c.session())?.user.id).toBe(ada.id);
    // An organization of one (no other member at all) holds the owner too.
    const solo = await f.person('solo');
    await f.organization(solo.c, 'Solo');
    expect(await errorOf(await f.deleteOwn(solo))).toEqual([409, 'LAST_OWNER']);
    expect(await f.adapter.getUser(solo.id)).not.toBeNull();
  });

  it('once ownership is transferred, or the organization deleted, the account deletes', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const kept = await f.organization(ada.c, 'Kept', [grace]);
    const dropped = await f.organization(ada.c, 'Dropped');
    expect((await f.deleteOwn(ada)).status).toBe(409);
    expect((await ada.c.postJson('/auth/org/transfer', { organizationId: kept, userId: grace.id })).status).toBe(200);
    expect(await errorOf(await f.deleteOwn(ada))).toEqual([409, 'LAST_OWNER']);
    expect((await ada.c.postJson('/auth/org/delete', { organizationId: dropped })).status).toBe(200);
    const res = await f.deleteOwn(ada);
    expect(res.status).toBe(200);
    expect(await f.adapter.getUser(ada.id)).toBeNull();
    expect(await f.roleOf(kept, ada.id)).toBeUndefined();
    expect(await f.roleOf(kept, grace.id)).toBe('owner');
  });

  it('an owner beside another owner, and a member who owns nothing, delete their accounts', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const bob = await f.person('bob');
    const orgId = await f.organization(ada.c, 'Acme', [grace], 'owner');
    await f.tenants.addMember({ tenantId: orgId, userId: bob.id, role: 'admin' });
    expect((await f.deleteOwn(grace)).status).toBe(200);
    expect(await f.adapter.getUser(grace.id)).toBeNull();
    expect((await f.deleteOwn(bob)).status).toBe(200);
    expect(await f.roleOf(orgId, ada.id)).toBe('owner');
    expect((await f.tenants.listMembers(orgId)).members.map((m) => m.userId)).toEqual([ada.id]);
    // Now the only owner: refused.
    expect(await errorOf(await f.deleteOwn(ada))).toEqual([409, 'LAST_OWNER']);
  });

  it("admin()'s remove-user refuses the only owner the same way, and removes them once ownership moved", async () => {
    const f = await setup();
    const root = await f.person('root', 'admin');
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const orgId = await f.organization(ada.c, 'Acme', [grace], 'admin');
    const refused = await root.c.postJson('/auth/admin/users/remove', { userId: ada.id });
    expect(await errorOf(refused)).toEqual([409, 'LAST_OWNER']);
    expect(await f.adapter.getUser(ada.id)).not.toBeNull();
    expect(await f.roleOf(orgId, ada.id)).toBe('owner');
    expect((await ada.c.session())?.user.id).toBe(ada.id); // nothing ended either
    // The no-JS admin page shows the refusal with its status.
    const page = await root.c.postForm('/auth/admin/users/remove', { userId: ada.id });
    expect(page.status).toBe(409);
    expect(await f.adapter.getUser(ada.id)).not.toBeNull();

    expect((await ada.c.postJson('/auth/org/transfer', { organizationId: orgId, userId: grace.id })).status).toBe(200);
    expect((await root.c.postJson('/auth/admin/users/remove', { userId: ada.id })).status).toBe(200);
    expect(await f.adapter.getUser(ada.id)).toBeNull();
    expect(await f.roleOf(orgId, grace.id)).toBe('owner');
  });
});
