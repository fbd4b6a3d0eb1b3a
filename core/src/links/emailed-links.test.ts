/**
 * Every link the kit mails, as a class: opening it with GET or HEAD (a mail scanner, a link preview, a browser
 * prefetch, with or without the person's session) changes nothing; only the page's button (a CSRF-checked POST)
 * uses it, once. And the email-change takeover: the change needs the password or a fresh sign-in, only the
 * account's own holder confirms it, and the old address can undo it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { email } from '../providers/email.js';
import { createMemoryTenantStorage } from '../tenant/storage/memory.js';
import { organizations } from '../plugins/organizations/plugin.js';
import { createMemoryInvitationStorage } from '../plugins/organizations/storage/memory.js';
import { TestClient } from '../testing/fixtures.js';
import { LINKS_PASSWORD, accountLinksFixture } from '../email-password/account-links.test-helpers.js';

afterEach(() => vi.useRealTimers());

const PASSWORD = LINKS_PASSWORD;

/** With a magic-link provider and organizations, whose mails land in the same outbox. */
const setup = (strategy: 'database' | 'jwt') =>
  accountLinksFixture(strategy, (outbox) => ({
    providers: [
      email({
        from: 'auth@app.test',
        sendVerificationRequest: async ({ identifier, url }) =>
          void outbox.push({ kind: 'magic', to: identifier, url }),
      }),
    ],
    plugins: [
      organizations({
        tenants: createMemoryTenantStorage(),
        invitations: createMemoryInvitationStorage(),
        sendInvitation: ({ email: to, url }) => void outbox.push({ kind: 'invite', to, url }),
      }),
    ],
  }));

/** What mail scanners and previews do with a link: HEAD and GET, with any Accept, with or without cookies. */
async function scan(url: string, ...browsers: TestClient[]) {
  const u = new URL(url);
  const path = `${u.pathname}${u.search}`;
  for (const browser of browsers)
    for (const init of <RequestInit[]>[
      { method: 'HEAD' },
      { method: 'GET' },
      { method: 'GET', headers: { accept: 'application/json' } },
      { method: 'GET', headers: { accept: '*/*', purpose: 'prefetch', 'sec-purpose': 'prefetch' } },
      { method: 'HEAD' },
    ]) {
      const res = await browser.request(path, init);
      expect(res.status, `${init.method} ${u.pathname}`).toBeLessThan(500);
    }
}

describe.each(['database', 'jwt'] as const)('every emailed link (%s sessions)', (strategy) => {
  it('sign-up verification: GET and HEAD verify nothing; the button does, once', async () => {
    const { adapter, client, mail } = setup(strategy);
    const c = client();
    await c.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    const url = await mail('verify', 'ada@example.com');
    await scan(url, client(), c);
    expect((await adapter.getUserByEmail('ada@example.com'))!.emailVerified).toBeNull();
    expect((await c.followLink(url)).status).toBe(303);
    expect((await adapter.getUserByEmail('ada@example.com'))!.emailVerified).toBeInstanceOf(Date);
    expect((await c.followLink(url)).status).toBe(400);
  });

  it('email change: GET and HEAD change nothing, even in the signed-in browser; the button does, once', async () => {
    const { adapter, client, mail, person } = setup(strategy);
    const ada = await person('ada');
    expect(
      (await ada.c.postJson('/auth/email/change', { newEmail: 'lovelace@example.com', password: PASSWORD })).status,
    ).toBe(200);
    const url = await mail('verify', 'lovelace@example.com');
    await scan(url, client(), ada.c);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
    expect((await ada.c.followLink(url)).status).toBe(303);
    expect((await adapter.getUser(ada.id))!.email).toBe('lovelace@example.com');
    expect((await ada.c.followLink(url)).status).toBe(400);
  });

  it('the undo link of an email change: GET and HEAD undo nothing; the button does, once', async () => {
    const { adapter, client, mail, person } = setup(strategy);
    const ada = await person('ada');
    await ada.c.postJson('/auth/email/change', { newEmail: 'lovelace@example.com', password: PASSWORD });
    await ada.c.followLink(await mail('verify', 'lovelace@example.com'));
    const url = await mail('notice', 'ada@example.com');
    await scan(url, client(), ada.c);
    expect((await adapter.getUser(ada.id))!.email).toBe('lovelace@example.com');
    expect((await client().followLink(url)).status).toBe(303);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
    expect((await client().followLink(url)).status).toBe(400);
  });

  it('password reset: GET and HEAD use nothing; the form does, once', async () => {
    const { client, mail, person } = setup(strategy);
    await person('ada');
    await client().postJson('/auth/password/forgot', { email: 'ada@example.com' });
    const url = await mail('reset', 'ada@example.com');
    await scan(url, client());
    expect((await client().followLink(url, { password: 'a brand new password' })).status).toBe(303);
    expect((await client().signIn('ada@example.com', 'a brand new password')).status).toBe(200);
    expect((await client().followLink(url, { password: 'yet another password' })).status).toBe(400);
  });

  it('magic link: GET and HEAD sign nobody in and create nobody; the button does, once', async () => {
    const { adapter, client, mail } = setup(strategy);
    await client().postJson('/auth/signin/email', { email: 'grace@example.com' });
    const url = await mail('magic', 'grace@example.com');
    const scanner = client();
    await scan(url, scanner);
    expect(await scanner.session()).toBeNull();
    expect(await adapter.getUserByEmail('grace@example.com')).toBeNull();
    const grace = client();
    expect((await grace.followLink(url)).status).toBe(303);
    expect((await grace.session())?.user.email).toBe('grace@example.com');
    const again = client();
    await again.followLink(url);
    expect(await again.session()).toBeNull();
  });

  it("invitation: GET and HEAD accept nothing, even in the invitee's browser; the button does, once", async () => {
    const { client, mail, person } = setup(strategy);
    const owner = await person('owner');
    const created = await owner.c.postJson('/auth/org/create', { name: 'Acme', slug: 'acme' });
    expect(created.status).toBe(200);
    const { organization } = (await created.json()) as { organization: { id: string } };
    expect(
      (await owner.c.postJson('/auth/org/invite', { organizationId: organization.id, email: 'bob@example.com' }))
        .status,
    ).toBe(200);
    const url = await mail('invite', 'bob@example.com');
    const bob = await person('bob');
    await scan(url, client(), bob.c);
    const mine = async () =>
      (
        (await (await bob.c.request('/auth/org/list', { headers: { accept: 'application/json' } })).json()) as {
          organizations?: unknown[];
        }
      ).organizations ?? [];
    expect(await mine()).toHaveLength(0);
    expect((await bob.c.followLink(url)).status).toBeLessThan(400);
    expect(await mine()).toHaveLength(1);
    expect((await bob.c.followLink(url)).status).toBe(400);
  });
});

describe('email change cannot take over an address', () => {
  it("a link to the victim's address, opened by the victim (signed out, or signed in to their own account), changes nothing", async () => {
    const { adapter, client, mail, person } = setup('database');
    const mallory = await person('mallory');
    const victim = await person('victim');
    await mallory.c.postJson('/auth/email/change', { newEmail: 'victim2@example.com', password: PASSWORD });
    const url = await mail('verify', 'victim2@example.com');
    // Signed out: the page asks to sign in; it has no button that changes anything.
    const signedOut = client();
    const page = await signedOut.request(new URL(url).pathname + new URL(url).search);
    expect(await page.text()).not.toContain('method="post"');
    expect((await signedOut.followLink(url)).status).toBe(200);
    // A direct POST without a session.
    const token = new URL(url).searchParams.get('token')!;
    const direct = await client().postJson('/auth/verify-email', { token, email: 'victim2@example.com' });
    expect(direct.status).toBe(401);
    // Signed in to the victim's own account.
    const mismatch = await victim.c.followLink(url);
    expect(mismatch.status).toBe(403);
    const json = await victim.c.postJson('/auth/verify-email', { token, email: 'victim2@example.com' });
    expect(await json.json()).toMatchObject({ error: { code: 'LINK_ACCOUNT_MISMATCH' } });
    expect((await adapter.getUser(mallory.id))!.email).toBe('mallory@example.com');
    expect(await adapter.getUserByEmail('victim2@example.com')).toBeNull();
  });

  it('needs the password or a fresh sign-in: a stale session alone, or a wrong password, is refused', async () => {
    const { auth, client, person } = setup('database');
    const ada = await person('ada');
    const change = (body: Record<string, unknown>) =>
      ada.c.postJson('/auth/email/change', { newEmail: 'lovelace@example.com', ...body });
    // Signed in moments ago: fresh.
    expect((await change({})).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + (auth.config.session.freshAge + 60) * 1000);
    const stale = await change({});
    expect(stale.status).toBe(403);
    expect(await stale.json()).toMatchObject({ error: { code: 'SESSION_NOT_FRESH' } });
    const wrong = await change({ password: 'not the password' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
    expect((await change({ password: PASSWORD })).status).toBe(200);
    // An impersonation or a signed-out caller never changes it.
    expect((await client().postJson('/auth/email/change', { newEmail: 'x@example.com' })).status).toBe(401);
  });

  it('the undo link puts the old address back and ends every session and sign-in method, the hijacker’s included', async () => {
    const { adapter, client, mail, person } = setup('database');
    const ada = await person('ada');
    // Someone holding Ada's session (signed in moments ago) moves her account to their address.
    const hijacker = client();
    hijacker.cookies.set(...([...ada.c.cookies].find(([k]) => k.includes('session'))! as [string, string]));
    await hijacker.postJson('/auth/email/change', { newEmail: 'thief@example.com' });
    await hijacker.followLink(await mail('verify', 'thief@example.com'));
    expect((await adapter.getUser(ada.id))!.email).toBe('thief@example.com');
    // Ada's old address heard of it; its link undoes it.
    expect((await client().followLink(await mail('notice', 'ada@example.com'))).status).toBe(303);
    const restored = (await adapter.getUser(ada.id))!;
    expect(restored.email).toBe('ada@example.com');
    expect(restored.emailVerified).toBeInstanceOf(Date);
    expect(await hijacker.session()).toBeNull();
    expect(await ada.c.session()).toBeNull();
    // The password the hijacker may know is gone too; a new one is chosen through a fresh reset link.
    expect((await client().signIn('ada@example.com', PASSWORD)).status).toBe(401);
  });
});

describe('a token of one kind never opens another', () => {
  it('a magic link requested for an address spelled like an account-link key cannot undo, verify or reset', async () => {
    const { adapter, client, mail, person } = setup('database');
    const ada = await person('ada');
    // The address parser refuses RFC 5322 specials, so no address can spell `purpose:user:address`.
    for (const purpose of ['undo-email-change', 'change-email', 'verify-email', 'password-reset']) {
      const spelled = `${purpose}:${ada.id}:evil@attacker.test`;
      const res = await client().postJson('/auth/signin/email', { email: spelled });
      expect(res.status, purpose).toBe(400);
    }
    // And a genuine magic link's token, presented as any account link of a user, opens nothing.
    await client().postJson('/auth/signin/email', { email: 'evil@attacker.test' });
    const magic = new URL(await mail('magic', 'evil@attacker.test')).searchParams.get('token')!;
    const token = `${ada.id}.${magic}`;
    for (const [path, body] of [
      ['/auth/email/change/undo', { token, email: 'evil@attacker.test' }],
      ['/auth/verify-email', { token }],
      ['/auth/password/reset', { token, password: 'attacker password 1' }],
    ] as const)
      expect((await client().postJson(path, body)).status, path).toBe(400);
    expect((await adapter.getUser(ada.id))!.email).toBe('ada@example.com');
    expect((await client().signIn('ada@example.com', PASSWORD)).status).toBe(200);
  });
});
