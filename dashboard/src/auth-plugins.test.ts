/**
 * The Auth view reading a real auth instance: the active-session count from its adapter and sign-ins, failures
 * and the filtered audit log from the `auditLog()` plugin, with no `authActivity` passed.
 */
import { describe, expect, it } from 'vitest';
import { createAuth, createMemoryAdapter, credentials, passwordAccounts } from '@framework/auth';
import { auditLog, createMemoryAuditStorage } from '@framework/auth/plugins/audit-log';
import { createFixedWindowStorage, createLoginRateLimiter } from '@framework/auth/rate-limit';
import { createDashboard } from './dashboard.js';

async function signIn(auth: ReturnType<typeof createAuth>, password: string) {
  const csrf = await auth.handler(new Request('http://localhost/auth/csrf'));
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((l) => l.split(';')[0])
    .join('; ');
  return auth.handler(
    new Request('http://localhost/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: 'http://localhost', cookie },
      body: JSON.stringify({ csrfToken, email: 'ada@example.com', password }),
    }),
    { ip: '192.0.2.9' },
  );
}

describe('dashboard auth view from the auth instance', () => {
  it('shows active sessions, sign-ins and failures, and the audit log filtered by event', async () => {
    const adapter = createMemoryAdapter();
    const passwords = passwordAccounts(adapter);
    await passwords.register({ email: 'ada@example.com', password: 'analytical-engine' });
    const auth = createAuth({
      secret: 'dashboard-auth-plugins-test-secret-0123456789',
      session: { strategy: 'database' },
      adapter,
      providers: [
        credentials({
          credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
          authorize: passwords.authorize,
        }),
      ],
      plugins: [auditLog({ storage: createMemoryAuditStorage() })],
      rateLimit: { login: createLoginRateLimiter(createFixedWindowStorage(), { limit: 2, window: 900 }) },
      logger: { error: () => {}, warn: () => {} },
    });
    expect((await signIn(auth, 'wrong password')).status).toBe(401);
    expect((await signIn(auth, 'analytical-engine')).status).toBe(200);
    // A success resets the failure budget: two more failures spend it, the next attempt is refused.
    expect((await signIn(auth, 'wrong password')).status).toBe(401);
    expect((await signIn(auth, 'wrong password')).status).toBe(401);
    expect((await signIn(auth, 'wrong password')).status).toBe(429);
    expect(auth.rateLimitRefusals()).toMatchObject([{ key: '192.0.2.9', limit: '/auth/callback/:provider' }]);
    const dashboard = createDashboard({ mode: 'development', auth });
    const get = async (path: string) =>
      (await dashboard.fetch(new Request(`http://localhost${path}`, { headers: { accept: 'text/html' } }), {
        ip: '127.0.0.1',
      }))!.text();
    const html = await get('/_framework/auth');
    expect(html).toContain('data-active-sessions>1<');
    expect(html).not.toContain('authActivity.rateLimitRefusals');
    expect(html).toContain('/auth/callback/:provider');
    expect(html).toContain('onSignInFailed');
    expect(html).toContain('reason=invalid-credentials');
    expect(html).toContain('192.0.2.9');
    expect(html).not.toContain('Not configured: pass <code>authActivity.auditLog');
    const filtered = await get('/_framework/auth?action=onSignIn&outcome=success');
    const auditSection = filtered.slice(filtered.lastIndexOf('<h2>'));
    expect(auditSection).toContain('onSignIn');
    expect(auditSection).not.toContain('onSignInFailed');
  });
});
