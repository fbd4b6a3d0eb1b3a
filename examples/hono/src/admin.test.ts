/**
 * Real-server test of the example's admin page (`admin()` + `auditLog()`), through the kit's no-JS forms: ban →
 * refused sign-in → unban, impersonate → stop, and the audit log of it all.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { passwordAccounts } from '@framework/auth';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('example app: admin over HTTP', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-admin-'));
  const running = await start({ dbPath: join(dir, 'app.db') });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });
  const { adapter } = running.example;
  const passwords = passwordAccounts(adapter);
  const root = await passwords.register({ email: 'root@example.com', password: 'root-password-1', name: 'Root' });
  await adapter.updateUser(root.id, { role: 'admin' });
  const user = await passwords.register({ email: 'grace@example.com', password: 'hopper-1906', name: 'Grace' });

  async function signedIn(email: string, password: string) {
    const b = browser();
    const page = await b.fetch(`${running.base}/auth/signin`);
    const res = await b.fetch(
      `${running.base}/auth/callback/credentials`,
      form({ csrfToken: csrfFrom(await page.text()), email, password, callbackUrl: '/' }),
    );
    return { b, res };
  }
  const sessionOf = async (b: ReturnType<typeof browser>) =>
    (await (await b.fetch(`${running.base}/auth/session`, { headers: { accept: 'application/json' } })).json()) as {
      user: { id: string };
      impersonatedBy?: string;
    } | null;

  it('bans from the page: the user is signed out and refused, until unbanned', async () => {
    const grace = await signedIn('grace@example.com', 'hopper-1906');
    expect(grace.res.status).toBe(303);
    const { b: ops } = await signedIn('root@example.com', 'root-password-1');
    const list = await ops.fetch(`${running.base}/auth/admin?search=grace`);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('grace@example.com');
    expect(html).not.toContain('root@example.com');
    const banned = await ops.fetch(
      `${running.base}/auth/admin/users/ban`,
      form({ csrfToken: csrfFrom(html), userId: user.id, reason: 'testing' }),
    );
    expect(await banned.text()).toContain('Banned: testing');
    expect(await sessionOf(grace.b)).toBeNull();
    expect((await signedIn('grace@example.com', 'hopper-1906')).res.status).toBe(403);
    const page = await (await ops.fetch(`${running.base}/auth/admin`)).text();
    await ops.fetch(`${running.base}/auth/admin/users/unban`, form({ csrfToken: csrfFrom(page), userId: user.id }));
    expect((await signedIn('grace@example.com', 'hopper-1906')).res.status).toBe(303);
  });

  it('impersonates from the page and stops back to the admin; the audit log has it all', async () => {
    const { b: ops } = await signedIn('root@example.com', 'root-password-1');
    const page = await (await ops.fetch(`${running.base}/auth/admin`)).text();
    const started = await ops.fetch(
      `${running.base}/auth/admin/impersonate`,
      form({ csrfToken: csrfFrom(page), userId: user.id }),
    );
    expect(started.status).toBe(303);
    expect(await sessionOf(ops)).toMatchObject({ user: { id: user.id }, impersonatedBy: root.id });
    const home = await (await ops.fetch(`${running.base}/auth/signin`)).text();
    const stopped = await ops.fetch(
      `${running.base}/auth/admin/stop-impersonating`,
      form({ csrfToken: csrfFrom(home) }),
    );
    expect(stopped.headers.get('location')).toBe('/auth/admin');
    expect(await sessionOf(ops)).toMatchObject({ user: { id: root.id } });

    const audit = (await (
      await ops.fetch(`${running.base}/auth/admin/audit?userId=${user.id}`, { headers: { accept: 'application/json' } })
    ).json()) as { entries: { type: string; actorId: string }[] };
    const types = audit.entries.map((e) => e.type);
    for (const type of ['onUserBanned', 'onUserUnbanned', 'onImpersonationStarted', 'onImpersonationStopped'])
      expect(types).toContain(type);
    expect(audit.entries.find((e) => e.type === 'onUserBanned')?.actorId).toBe(root.id);
  });
});
