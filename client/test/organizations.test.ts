/**
 * `@framework/auth-client/plugins/organizations` against the real engine with `organizations()`: create, invite,
 * accept as the invited user, manage members, leave.
 */
import { describe, expect, it } from 'vitest';
import { passwordAccounts } from '@framework/auth';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import {
  createMemoryInvitationStorage,
  organizations,
  type InvitationMail,
} from '@framework/auth/plugins/organizations';
import {
  acceptInvitation,
  createOrganization,
  getActiveOrganization,
  inviteMember,
  leaveOrganization,
  listInvitations,
  listMembers,
  listMyInvitations,
  listOrganizations,
  setMemberRole,
} from '../src/plugins/organizations.js';
import { engine } from './engine-fetch.js';

describe('organizations client functions', () => {
  it('cover creating, inviting, accepting and managing members', async () => {
    const mails: InvitationMail[] = [];
    const { adapter, browser } = await engine({
      secret: 'client-organizations-test-secret-0123456789abcdef',
      plugins: [
        organizations({
          tenants: createMemoryTenantStorage(),
          invitations: createMemoryInvitationStorage(),
          sendInvitation: (m) => void mails.push(m),
        }),
      ],
      rateLimit: { login: false },
    });
    const grace = await passwordAccounts(adapter).register({ email: 'grace@example.com', password: 'hopper-1906' });
    await adapter.updateUser(grace.id, { emailVerified: new Date() });

    const owner = browser();
    const o = { fetch: owner.fetch };
    const signIn = (b: ReturnType<typeof browser>, email: string, password: string) =>
      b.client.signIn('credentials', { email, password, redirect: false });
    expect((await signIn(owner, 'ada@example.com', 'analytical-engine')).ok).toBe(true);
    const created = await createOrganization({ name: 'Acme' }, o);
    const orgId = created.data!.organization.id;
    expect((await getActiveOrganization(o)).data?.organization).toMatchObject({ id: orgId, role: 'owner' });
    expect((await inviteMember({ organizationId: orgId, email: 'grace@example.com', role: 'admin' }, o)).ok).toBe(true);
    expect((await listInvitations({ organizationId: orgId }, o)).data?.invitations).toHaveLength(1);

    const invitee = browser();
    const g = { fetch: invitee.fetch };
    expect((await signIn(invitee, 'grace@example.com', 'hopper-1906')).ok).toBe(true);
    expect((await listMyInvitations(g)).data?.invitations).toMatchObject([{ organization: { name: 'Acme' } }]);
    const token = new URL(mails[0]!.url).searchParams.get('token')!;
    expect((await acceptInvitation({ token }, g)).data?.organization).toMatchObject({ id: orgId, role: 'admin' });
    expect((await acceptInvitation({ token }, g)).error).toBe('TOKEN_INVALID');
    expect((await listOrganizations(g)).data?.organizations).toMatchObject([{ id: orgId, role: 'admin' }]);

    const members = await listMembers({ organizationId: orgId }, o);
    expect(members.data?.members.map((m) => m.role).sort()).toEqual(['admin', 'owner']);
    expect((await setMemberRole({ organizationId: orgId, userId: grace.id, role: 'member' }, o)).ok).toBe(true);
    expect((await leaveOrganization({ organizationId: orgId }, o)).error).toBe('LAST_OWNER');
    expect((await leaveOrganization({ organizationId: orgId }, g)).ok).toBe(true);
  });
});
