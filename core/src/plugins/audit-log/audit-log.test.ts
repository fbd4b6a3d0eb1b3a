/**
 * `auditLog()` in process beside `admin()`: what each event writes, who the actor is, the admin-only listing with
 * filters, the queue hand-off, and that a failing store or queue never breaks a sign-in.
 */
import { describe, expect, it } from 'vitest';
import { eventContext } from '../../events.js';
import { passwordAccounts } from '../../password-accounts.js';
import { makeFixture, EMAIL, type TestClient } from '../../testing/fixtures.js';
import { admin } from '../admin/plugin.js';
import { createMemoryAdminStorage } from '../admin/storage/memory.js';
import { auditEntryOf } from './entry.js';
import { auditLog, type AuditLogOptions } from './plugin.js';
import { createMemoryAuditStorage } from './storage/memory.js';
import type { AuditEntry } from './types.js';

async function setup(options: Partial<AuditLogOptions> = {}) {
  const storage = createMemoryAuditStorage();
  const errors: string[] = [];
  const f = await makeFixture('database', {
    plugins: [admin({ storage: createMemoryAdminStorage() }), auditLog({ storage, ...options })],
    logger: { error: (m) => void errors.push(m), warn: () => {} },
  });
  const root = await passwordAccounts(f.adapter).register({ email: 'root@example.com', password: 'root-password-1' });
  await f.adapter.updateUser(root.id, { role: 'admin' });
  const asAdmin = async () => {
    const c = f.client();
    c.ip = '198.51.100.7';
    expect((await c.signIn('root@example.com', 'root-password-1')).status).toBe(200);
    return c;
  };
  return { ...f, storage, errors, adminId: root.id, asAdmin };
}

const audit = async (c: TestClient, query = '') => {
  const res = await c.request(`/auth/admin/audit${query}`, { headers: { accept: 'application/json' } });
  return { status: res.status, body: (await res.json()) as { entries: AuditEntry[]; next: string | null } };
};

describe('auditLog()', () => {
  it('writes sign-ins, failures and admin actions with the user, the actor, the client and the request id', async () => {
    const f = await setup();
    const user = f.client();
    user.ip = '192.0.2.10';
    await user.request('/auth/csrf');
    expect((await user.signIn(EMAIL, 'wrong password')).status).toBe(401);
    expect((await user.signIn()).status).toBe(200);
    const ops = await f.asAdmin();
    await ops.postJson(
      '/auth/admin/users/ban',
      { userId: f.userId, reason: 'spam' },
      { traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01` },
    );

    const { entries } = await f.storage.list({});
    // Entries of one millisecond are ordered by their random ids: compare as sets, pick by type and user.
    expect(entries.map((e) => e.type).sort()).toEqual(['onSignIn', 'onSignIn', 'onSignInFailed', 'onUserBanned']);
    const banned = entries.find((e) => e.type === 'onUserBanned');
    const signIn = entries.find((e) => e.type === 'onSignIn' && e.userId === f.userId);
    const failed = entries.find((e) => e.type === 'onSignInFailed');
    expect(banned).toMatchObject({
      userId: f.userId,
      actorId: f.adminId,
      ip: '198.51.100.7',
      requestId: 'ab'.repeat(16),
      data: { reason: 'spam', expiresAt: null },
    });
    expect(signIn).toMatchObject({
      userId: f.userId,
      actorId: f.userId,
      ip: '192.0.2.10',
      data: { provider: 'credentials', isNewUser: false },
    });
    expect(failed).toMatchObject({
      userId: null,
      actorId: null,
      data: { provider: 'credentials', identifier: EMAIL, reason: 'invalid-credentials' },
    });
  });

  it('GET /admin/audit: admins only, filtered by user and type, paged newest first', async () => {
    const f = await setup();
    const user = f.client();
    for (let i = 0; i < 3; i++) await user.signIn();
    expect((await audit(user)).status).toBe(403);
    expect((await audit(f.client())).status).toBe(401);
    const ops = await f.asAdmin();
    const mine = await audit(ops, `?userId=${f.userId}&type=onSignIn&limit=2`);
    expect(mine.status).toBe(200);
    expect(mine.body.entries).toHaveLength(2);
    expect(mine.body.entries.every((e) => e.userId === f.userId && e.type === 'onSignIn')).toBe(true);
    const rest = await audit(
      ops,
      `?userId=${f.userId}&type=onSignIn&limit=2&before=${encodeURIComponent(mine.body.next!)}`,
    );
    expect(rest.body).toMatchObject({ entries: [{ userId: f.userId }], next: null });
    expect((await audit(ops, '?from=yesterday')).status).toBe(400);
    expect((await audit(ops, '?limit=5000')).status).toBe(400);
    expect((await audit(ops, `?from=${new Date(Date.now() + 60_000).toISOString()}`)).body.entries).toEqual([]);
  });

  it('sends each entry to the queue; a failing queue or store is logged and the sign-in goes on', async () => {
    const sent: AuditEntry[] = [];
    const f = await setup({ queue: { send: async (e) => void sent.push(e) }, events: ['onSignIn'] });
    await f.client().signIn(EMAIL, 'wrong password');
    expect((await f.client().signIn()).status).toBe(200);
    expect(sent.map((e) => e.type)).toEqual(['onSignIn']);

    const broken = await setup({
      queue: { send: () => Promise.reject(new TypeError('queue down')) },
      storage: { ...createMemoryAuditStorage(), append: () => Promise.reject(new RangeError('disk full')) },
    });
    expect((await broken.client().signIn()).status).toBe(200);
    expect(broken.errors.join('\n')).toContain('RangeError');
    expect(broken.errors.join('\n')).not.toContain('disk full');
  });

  it('keeps only non-secret fields: an account becomes its provider, never its tokens', () => {
    const context = eventContext(new Request('http://app.test/'), '192.0.2.1');
    const entry = auditEntryOf({
      ...context,
      type: 'onSignIn',
      user: { id: 'u1', email: 'a@b.c' },
      account: {
        provider: 'github',
        providerAccountId: '42',
        type: 'oauth',
        access_token: 'gho_secret',
        id_token: 'x.y.z',
      },
      isNewUser: true,
    });
    expect(entry.data).toStrictEqual({ provider: 'github', isNewUser: true });
    expect(JSON.stringify(entry)).not.toMatch(/gho_secret|x\.y\.z|a@b\.c/);
  });
});
