/**
 * `@framework/auth-client/plugins/admin` against the real engine with `admin()`: list, ban, impersonate and back.
 */
import { describe, expect, it } from 'vitest';
import { passwordAccounts } from '@framework/auth';
import { admin, createMemoryAdminStorage } from '@framework/auth/plugins/admin';
import {
  banUser,
  createUser,
  impersonateUser,
  listUsers,
  removeUser,
  revokeUserSessions,
  setUserRole,
  stopImpersonating,
  unbanUser,
} from '../src/plugins/admin.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-admin-test-secret-0123456789abcdef012345';

describe('admin client functions', () => {
  it('cover the user list, bans, roles, impersonation and removal', async () => {
    const { adapter, ada, browser } = await engine({
      secret: SECRET,
      plugins: [admin({ storage: createMemoryAdminStorage() })],
      rateLimit: { login: false },
    });
    const root = await passwordAccounts(adapter).register({ email: 'root@example.com', password: 'root-password-1' });
    await adapter.updateUser(root.id, { role: 'admin' });

    const user = browser();
    const signInAda = async () =>
      expect(
        (
          await user.client.signIn('credentials', {
            email: 'ada@example.com',
            password: 'analytical-engine',
            redirect: false,
          })
        ).ok,
      ).toBe(true);
    await signInAda();
    expect((await listUsers({}, { fetch: user.fetch })).error).toBe('FORBIDDEN');

    const ops = browser();
    const opts = { fetch: ops.fetch };
    expect(
      (
        await ops.client.signIn('credentials', {
          email: 'root@example.com',
          password: 'root-password-1',
          redirect: false,
        })
      ).ok,
    ).toBe(true);
    const page = await listUsers({ search: 'ADA@', limit: 10 }, opts);
    expect(page.data).toMatchObject({ users: [{ id: ada.id, banned: null }], next: null });

    expect((await banUser({ userId: ada.id, reason: 'spam' }, opts)).ok).toBe(true);
    expect((await listUsers({ search: 'ada' }, opts)).data?.users[0]?.banned).toMatchObject({ reason: 'spam' });
    expect((await unbanUser({ userId: ada.id }, opts)).ok).toBe(true);
    expect((await setUserRole({ userId: ada.id, role: 'editor' }, opts)).data?.user.role).toBe('editor');

    const started = await impersonateUser({ userId: ada.id }, opts);
    expect(started.ok).toBe(true);
    const acting = (await (await ops.fetch('/auth/session')).json()) as {
      user: { id: string };
      impersonatedBy: string;
    };
    expect(acting).toMatchObject({ user: { id: ada.id }, impersonatedBy: root.id });
    expect(await stopImpersonating(opts)).toMatchObject({ ok: true, data: { restored: true } });
    expect((await stopImpersonating(opts)).error).toBe('NOT_IMPERSONATING');

    const created = await createUser({ email: 'new@example.com' }, opts);
    expect(created.ok).toBe(true);
    expect((await createUser({ email: 'new@example.com' }, opts)).error).toBe('EMAIL_TAKEN');
    // The ban ended Ada's session; she signs in again, and the admin ends that one.
    await signInAda();
    expect((await revokeUserSessions({ userId: ada.id }, opts)).data?.revoked).toBe(1);
    expect((await removeUser({ userId: created.data!.user.id }, opts)).ok).toBe(true);
    expect(await adapter.getUser(created.data!.user.id)).toBeNull();
  });
});
