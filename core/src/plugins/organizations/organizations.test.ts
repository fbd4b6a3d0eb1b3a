/**
 * `organizations()` in process: creating and switching, invitations (the link, accept by the invited verified
 * address only, single use, expiry, resend limits, revoke, decline), member management and its owner rules, RBAC
 * through the active organization, and a fast-check property: nobody reads or changes an organization they are
 * not in, whatever ids the request carries.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { passwordAccounts } from '../../password-accounts.js';
import { defineRBAC } from '../../rbac/define.js';
import { hasRole, requirePermission } from '../../rbac/helpers.js';
import { createMemoryTenantStorage } from '../../tenant/storage/memory.js';
import { makeFixture, type TestClient } from '../../testing/fixtures.js';
import { organizations, type OrganizationsExtension } from './plugin.js';
import type { InvitationMail } from './options.js';
import { createMemoryInvitationStorage } from './storage/memory.js';

afterEach(() => vi.useRealTimers());

const rbac = defineRBAC({
  roles: [
    { id: 'owner', name: 'Owner', permissions: ['*'] },
    { id: 'admin', name: 'Admin', permissions: ['billing:read', 'members:manage'] },
    { id: 'member', name: 'Member', permissions: ['projects:read'] },
  ],
});

async function setup() {
  const tenants = createMemoryTenantStorage();
  const invitations = createMemoryInvitationStorage();
  const mails: InvitationMail[] = [];
  const f = await makeFixture('database', {
    rbac,
    plugins: [organizations({ tenants, invitations, sendInvitation: (m) => void mails.push(m) })],
  });
  const passwords = passwordAccounts(f.adapter);
  /** A verified user, signed in in a fresh client. */
  const person = async (name: string) => {
    const email = `${name}@org.test`;
    const user = await passwords.register({ email, password: `${name}-password-1` });
    await f.adapter.updateUser(user.id, { emailVerified: new Date() });
    const c = f.client();
    expect((await c.signIn(email, `${name}-password-1`)).status).toBe(200);
    return { id: user.id, email, c };
  };
  const ext = f.auth.extensions.organizations as OrganizationsExtension;
  return { ...f, tenants, invitations, mails, person, ext };
}

const post = async (c: TestClient, path: string, body: Record<string, unknown>) => {
  const res = await c.postJson(`/auth/org/${path}`, body);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const get = async (c: TestClient, path: string) => {
  const res = await c.request(`/auth/org/${path}`, { headers: { accept: 'application/json' } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

/** Creates an organization as `c` and returns its id. */
async function create(c: TestClient, name: string): Promise<string> {
  const res = await post(c, 'create', { name });
  expect(res.status).toBe(200);
  return res.body.organization.id as string;
}

/** Invites `email` as `role` and returns the token from the mailed link. */
async function invited(
  f: Awaited<ReturnType<typeof setup>>,
  c: TestClient,
  orgId: string,
  email: string,
  role = 'member',
) {
  const res = await post(c, 'invite', { organizationId: orgId, email, role });
  expect(res.status).toBe(200);
  const url = new URL(f.mails.at(-1)!.url);
  return url.searchParams.get('token')!;
}

describe('organizations()', () => {
  it('creates an organization owned by its creator, active at once; slugs are unique', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const orgId = await create(ada.c, 'Acme Inc');
    expect(await get(ada.c, 'active')).toMatchObject({
      body: { organization: { id: orgId, slug: 'acme-inc', role: 'owner' } },
    });
    expect((await get(ada.c, 'list')).body.organizations).toMatchObject([{ id: orgId, role: 'owner' }]);
    const taken = await post(ada.c, 'create', { name: 'Acme', slug: 'acme-inc' });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'SLUG_TAKEN']);
  });

  it('invites by a link on the canonical origin; only the invited, verified address accepts it, once', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const orgId = await create(ada.c, 'Acme');
    const token = await invited(f, ada.c, orgId, 'Grace@Org.test', 'admin');
    const mail = f.mails[0]!;
    expect(mail).toMatchObject({
      email: 'grace@org.test',
      role: 'admin',
      organization: { name: 'Acme' },
      inviter: { id: ada.id },
    });
    expect(mail.url.startsWith('http://app.test/auth/org/invitation?token=')).toBe(true);
    expect(await f.invitations.findByTokenHash(token)).toBeNull(); // stored hashed only

    const eve = await f.person('eve');
    const wrong = await post(eve.c, 'invitation/accept', { token });
    expect([wrong.status, wrong.body.error.code]).toEqual([403, 'INVITATION_EMAIL_MISMATCH']);

    const grace = await f.person('grace');
    await f.adapter.updateUser(grace.id, { emailVerified: null });
    const unverified = await post(grace.c, 'invitation/accept', { token });
    expect([unverified.status, unverified.body.error.code]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    await f.adapter.updateUser(grace.id, { emailVerified: new Date() });

    expect((await get(f.client(), `invitation?token=${token}`)).body).toMatchObject({
      organization: { name: 'Acme' },
      role: 'admin',
    });
    const accepted = await post(grace.c, 'invitation/accept', { token });
    expect(accepted).toMatchObject({ status: 200, body: { organization: { id: orgId, role: 'admin' } } });
    expect(await get(grace.c, 'active')).toMatchObject({ body: { organization: { id: orgId, role: 'admin' } } });
    const replay = await post(grace.c, 'invitation/accept', { token });
    expect([replay.status, replay.body.error.code]).toEqual([400, 'TOKEN_INVALID']);
    const again = await post(ada.c, 'invite', { organizationId: orgId, email: 'grace@org.test' });
    expect([again.status, again.body.error.code]).toEqual([409, 'ALREADY_MEMBER']);
  });

  it('expires, resends at most once a minute (the old link dies), revokes and declines', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const T0 = Date.UTC(2026, 10, 24, 12);
    vi.setSystemTime(T0);
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const orgId = await create(ada.c, 'Acme');
    const first = await invited(f, ada.c, orgId, grace.email);
    const [pending] = (await get(ada.c, `invitations?organizationId=${orgId}`)).body.invitations;
    const soon = await post(ada.c, 'invitations/resend', { invitationId: pending.id });
    expect([soon.status, soon.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    vi.setSystemTime(T0 + 61_000);
    expect((await post(ada.c, 'invitations/resend', { invitationId: pending.id })).status).toBe(200);
    const second = new URL(f.mails.at(-1)!.url).searchParams.get('token')!;
    expect((await post(grace.c, 'invitation/accept', { token: first })).body.error.code).toBe('TOKEN_INVALID');
    vi.setSystemTime(T0 + 61_000 + 7 * 86_400_000 + 1000);
    expect((await post(grace.c, 'invitation/accept', { token: second })).body.error.code).toBe('TOKEN_INVALID');

    const third = await invited(f, ada.c, orgId, grace.email);
    const [next] = (await get(ada.c, `invitations?organizationId=${orgId}`)).body.invitations;
    expect((await post(ada.c, 'invitations/revoke', { invitationId: next.id })).status).toBe(200);
    expect((await post(grace.c, 'invitation/accept', { token: third })).body.error.code).toBe('TOKEN_INVALID');
    const fourth = await invited(f, ada.c, orgId, grace.email);
    expect((await get(grace.c, 'invitations/mine')).body.invitations).toMatchObject([
      { organization: { name: 'Acme' } },
    ]);
    expect((await post(grace.c, 'invitation/decline', { token: fourth })).status).toBe(200);
    expect(await f.tenants.getMember(orgId, grace.id)).toBeNull();
  });

  it('managers change roles and remove members; the last owner stays; ownership transfers', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const alan = await f.person('alan');
    const orgId = await create(ada.c, 'Acme');
    for (const p of [grace, alan]) await f.tenants.addMember({ tenantId: orgId, userId: p.id, role: 'member' });
    const notManager = await post(grace.c, 'members/set-role', {
      organizationId: orgId,
      userId: alan.id,
      role: 'admin',
    });
    expect([notManager.status, notManager.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(
      (await post(ada.c, 'members/set-role', { organizationId: orgId, userId: grace.id, role: 'admin' })).status,
    ).toBe(200);
    const adminGrantsOwner = await post(grace.c, 'members/set-role', {
      organizationId: orgId,
      userId: alan.id,
      role: 'owner',
    });
    expect(adminGrantsOwner.status).toBe(403);
    const adminRemovesOwner = await post(grace.c, 'members/remove', { organizationId: orgId, userId: ada.id });
    expect(adminRemovesOwner.status).toBe(403);
    expect((await post(ada.c, 'leave', { organizationId: orgId })).body.error.code).toBe('LAST_OWNER');
    const demote = await post(ada.c, 'members/set-role', { organizationId: orgId, userId: ada.id, role: 'member' });
    expect([demote.status, demote.body.error.code]).toEqual([409, 'LAST_OWNER']);
    expect((await post(grace.c, 'members/remove', { organizationId: orgId, userId: alan.id })).status).toBe(200);
    expect(await f.tenants.getMember(orgId, alan.id)).toBeNull();
    expect((await post(ada.c, 'transfer', { organizationId: orgId, userId: grace.id })).status).toBe(200);
    expect((await f.tenants.getMember(orgId, grace.id))?.role).toBe('owner');
    expect((await f.tenants.getMember(orgId, ada.id))?.role).toBe('admin');
    expect((await post(ada.c, 'leave', { organizationId: orgId })).status).toBe(200);
    const members = (await get(grace.c, `members?organizationId=${orgId}`)).body.members;
    expect(members).toMatchObject([{ userId: grace.id, role: 'owner', email: grace.email }]);
  });

  it('checks RBAC permissions against the role in the active organization, never a forged cookie', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const acme = await create(ada.c, 'Acme');
    await f.tenants.addMember({ tenantId: acme, userId: grace.id, role: 'member' });
    const other = await create(grace.c, 'Grace Co');
    const as = (orgId: string) =>
      new Request('http://app.test/', { headers: { cookie: `framework.organization=${orgId}` } });
    expect(await f.ext.can(as(acme), { id: ada.id }, 'billing:read')).toBe(true);
    expect(await f.ext.can(as(acme), { id: grace.id }, 'billing:read')).toBe(false);
    expect(await f.ext.can(as(acme), { id: grace.id }, 'projects:read')).toBe(true);
    expect(await f.ext.can(as(other), { id: ada.id }, 'projects:read')).toBe(false);
    await expect(f.ext.requirePermission(as(other), { id: ada.id }, 'projects:read')).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(f.ext.requirePermission(as(acme), null, 'projects:read')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    const forged = await post(ada.c, 'set-active', { organizationId: other });
    expect([forged.status, forged.body.error.code]).toEqual([404, 'TENANT_NOT_FOUND']);
  });

  it('the active organization role counts in the request scope: requirePermission inside auth.run', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const grace = await f.person('grace');
    const acme = await create(ada.c, 'Acme');
    await f.tenants.addMember({ tenantId: acme, userId: grace.id, role: 'admin' });
    await post(grace.c, 'set-active', { organizationId: acme });
    const scoped = (c: TestClient, cookie = c.cookieHeader()) =>
      f.auth.run(new Request('http://app.test/billing', { headers: { cookie } }), () => {
        requirePermission('billing:read');
        return hasRole('admin');
      });
    await expect(scoped(grace.c)).resolves.toBe(true);
    // The user's own record is untouched: only the scope's checks see the organization role.
    expect((await f.adapter.getUser(grace.id))?.role).toBeUndefined();
    await f.tenants.addMember({ tenantId: acme, userId: grace.id, role: 'member' });
    await expect(scoped(grace.c)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const other = await create(ada.c, 'Other');
    const forged = grace.c.cookieHeader().replace(/framework\.organization=[^;]+/, `framework.organization=${other}`);
    await expect(scoped(grace.c, forged)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('lists members a page at a time (JSON and the page), each exactly once; a bad page query is 400', async () => {
    const f = await setup();
    const ada = await f.person('ada');
    const orgId = await create(ada.c, 'Acme');
    const others = ['m1', 'm2', 'm3', 'm4'];
    for (const userId of others) await f.tenants.addMember({ tenantId: orgId, userId, role: 'member' });
    const seen: string[] = [];
    let page = await get(ada.c, `members?organizationId=${orgId}&limit=2`);
    for (;;) {
      expect(page.status).toBe(200);
      expect(page.body.members.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.members.map((m: { userId: string }) => m.userId));
      if (page.body.next === null) break;
      page = await get(ada.c, `members?organizationId=${orgId}&limit=2&after=${encodeURIComponent(page.body.next)}`);
    }
    expect(seen.sort()).toEqual([ada.id, ...others].sort());
    for (const bad of ['limit=0', 'limit=101', 'limit=x', 'after=%00']) {
      const res = await get(ada.c, `members?organizationId=${orgId}&${bad}`);
      expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    }
    // The page links to the next page of members when there is one.
    for (let i = 0; i < 50; i++) await f.tenants.addMember({ tenantId: orgId, userId: `bulk${i}`, role: 'member' });
    const html = await (await ada.c.request('/auth/org')).text();
    expect(html).toMatch(/href="\/auth\/org\?after=[^"]+">More members<\/a>/);
  });

  it('property: whatever ids a request carries, no one reads or changes an organization they are not in', async () => {
    const f = await setup();
    const people = [await f.person('p0'), await f.person('p1'), await f.person('p2')];
    const orgs = [
      await create(people[0]!.c, 'Org 0'),
      await create(people[1]!.c, 'Org 1'),
      await create(people[2]!.c, 'Org 2'),
    ];
    const snapshot = async () =>
      JSON.stringify(
        await Promise.all(
          orgs.map(async (id) => [
            await f.tenants.get(id),
            (await f.tenants.listMembers(id)).members.sort((a, b) => a.userId.localeCompare(b.userId)),
          ]),
        ),
      );
    const actions = [
      'members',
      'invitations',
      'update',
      'delete',
      'invite',
      'members/set-role',
      'members/remove',
      'transfer',
      'set-active',
      'leave',
    ] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('none', 'member', 'admin'), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom(...actions),
        async (grid, actor, org, target, action) => {
          // The creator of org i is person i (owner); the grid sets everyone else's membership of the other orgs.
          let k = 0;
          for (let o = 0; o < 3; o++)
            for (let p = 0; p < 3; p++) {
              if (p === o) continue;
              const role = grid[k++]!;
              if (role === 'none') await f.tenants.removeMember(orgs[o]!, people[p]!.id);
              else await f.tenants.addMember({ tenantId: orgs[o]!, userId: people[p]!.id, role });
            }
          const membership = await f.tenants.getMember(orgs[org]!, people[actor]!.id);
          const before = await snapshot();
          const body = {
            organizationId: orgs[org],
            userId: people[target]!.id,
            role: 'admin',
            email: 'new@example.com',
            name: 'Renamed',
          };
          const res =
            action === 'members' || action === 'invitations'
              ? await get(people[actor]!.c, `${action}?organizationId=${orgs[org]}`)
              : await post(people[actor]!.c, action, body);
          if (!membership) {
            expect(res.status).toBe(404);
            expect(res.body.error.code).toBe('TENANT_NOT_FOUND');
            expect(await snapshot()).toBe(before);
          } else if (membership.role === 'member' && !['members', 'set-active', 'leave'].includes(action)) {
            expect(res.status).toBe(403);
            expect(await snapshot()).toBe(before);
          }
          // Whatever happened, the other organizations are untouched.
          const others = JSON.parse(await snapshot()) as unknown[];
          const was = JSON.parse(before) as unknown[];
          for (let o = 0; o < 3; o++) if (o !== org) expect(others[o]).toEqual(was[o]);
          if (action === 'delete' && res.status === 200) {
            // Put the deleted organization back for the next run.
            const again = await f.tenants.create({
              id: orgs[org]!,
              slug: `org-${org}-${Date.now()}`,
              name: `Org ${org}`,
            });
            await f.tenants.addMember({ tenantId: again.id, userId: people[org]!.id, role: 'owner' });
          }
          if (
            action === 'transfer' ||
            action === 'leave' ||
            action === 'members/set-role' ||
            action === 'members/remove'
          )
            await f.tenants.addMember({ tenantId: orgs[org]!, userId: people[org]!.id, role: 'owner' });
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
