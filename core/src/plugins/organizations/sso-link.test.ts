/**
 * The organizations page links managers to `sso()`'s page for the active organization when `sso()` serves it, and
 * no one else: members who do not manage, and apps without `sso()`, get no link.
 */
import { describe, expect, it } from 'vitest';
import { makeFixture } from '../../testing/fixtures.js';
import { passwordAccounts } from '../../password-accounts.js';
import { sso } from '../sso/index.js';
import { organizations } from './index.js';

async function setup(withSso: boolean) {
  const orgs = organizations({ sendInvitation: () => {} });
  const f = await makeFixture('database', { plugins: [orgs, ...(withSso ? [sso({ organizations: orgs })] : [])] });
  await f.auth.migrate();
  const person = async (name: string) => {
    const email = `${name}@org.test`;
    const user = await passwordAccounts(f.adapter).register({ email, password: `${name}-password-1` });
    await f.adapter.updateUser(user.id, { emailVerified: new Date() });
    const c = f.client();
    expect((await c.signIn(email, `${name}-password-1`)).status).toBe(200);
    return c;
  };
  const owner = await person('owner');
  const created = await owner.postJson('/auth/org/create', { name: 'Acme' });
  const organizationId = ((await created.json()) as { organization: { id: string } }).organization.id;
  const page = async (c: typeof owner) => (await c.request('/auth/org', { headers: { accept: 'text/html' } })).text();
  return { f, owner, organizationId, person, page };
}

describe('organizations page: the link to SSO settings', () => {
  it('shows managers the link to /sso/manage for the active organization when sso() is on', async () => {
    const t = await setup(true);
    const html = await t.page(t.owner);
    expect(html).toContain(
      `href="/auth/sso/manage?organizationId=${t.organizationId}">Single sign-on (SSO) settings</a>`,
    );
    // A member who does not manage it sees no link.
    const viewer = await t.person('viewer');
    const add = await t.owner.postJson('/auth/org/invite', {
      organizationId: t.organizationId,
      email: 'viewer@org.test',
    });
    expect(add.status).toBe(200);
    const mine = (await (await viewer.request('/auth/org/invitations/mine')).json()) as {
      invitations: { id: string }[];
    };
    expect(
      (await viewer.postJson('/auth/org/invitation/accept', { invitationId: mine.invitations[0]!.id })).status,
    ).toBe(200);
    const memberPage = await t.page(viewer);
    expect(memberPage).toContain('id="active-org"');
    expect(memberPage).not.toContain('/sso/manage');
  });

  it('has no link without sso()', async () => {
    const t = await setup(false);
    expect(await t.page(t.owner)).not.toContain('/sso/manage');
  });
});
