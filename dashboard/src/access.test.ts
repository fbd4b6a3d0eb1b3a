/**
 * Who may open the dashboard: loopback clients in development, a signed-in
 * admin (or a permission holder) in production, nobody when disabled.
 */
import { describe, expect, it } from 'vitest';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { authFixture } from '@framework/testing/conformance';
import { createDashboard } from './dashboard.js';

const runtime = () =>
  createTriggerRuntime({
    env: {},
    triggers: { hook: defineTrigger({ source: { type: 'webhook', path: '/hook' }, handle: () => {} }) },
  });
const get = (path: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost:3000${path}`, { headers: { accept: 'text/html', ...headers } });

describe('dashboard access in development', () => {
  const dashboard = createDashboard({ runtime: runtime(), mode: 'development' });

  it('is open to a loopback client (IPv4, IPv6, mapped)', async () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await dashboard.fetch(get('/_framework/'), { ip });
      expect(res?.status, ip).toBe(200);
      expect(await res!.text()).toContain('<h1>Triggers</h1>');
    }
  });

  it('answers 403 to a non-loopback client, a forwarded request, a foreign Host, or no socket address', async () => {
    const cases: Array<[Request, string | undefined]> = [
      [get('/_framework/'), '192.168.1.20'],
      [get('/_framework/'), '10.0.0.1'],
      [get('/_framework/', { 'x-forwarded-for': '203.0.113.9' }), '127.0.0.1'],
      [new Request('http://evil.example/_framework/', { headers: { accept: 'application/json' } }), '127.0.0.1'],
      [get('/_framework/'), undefined],
    ];
    for (const [request, ip] of cases) {
      const res = await dashboard.fetch(request, ip === undefined ? {} : { ip });
      expect(res?.status, `${request.url} from ${ip}`).toBe(403);
    }
    const json = await dashboard.fetch(get('/_framework/runs/x', { accept: 'application/json' }), {
      ip: '192.168.1.20',
    });
    expect(await json!.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('leaves other paths to the app (null)', async () => {
    expect(await dashboard.fetch(get('/_frameworks'), { ip: '127.0.0.1' })).toBeNull();
    expect(await dashboard.fetch(get('/'), { ip: '127.0.0.1' })).toBeNull();
  });
});

describe('dashboard access in production', async () => {
  const { auth, signIn } = await authFixture({ rbac: true });
  const dashboard = createDashboard({ runtime: runtime(), auth, mode: 'production', enabled: true });

  it('answers 403 FORBIDDEN to a signed-in non-admin, even from loopback', async () => {
    const cookie = await signIn('bob@example.com');
    const res = await dashboard.fetch(get('/_framework/', { cookie, accept: 'application/json' }), { ip: '127.0.0.1' });
    expect(res?.status).toBe(403);
    expect(await res!.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('answers 401 UNAUTHENTICATED with a sign-in link when nobody is signed in', async () => {
    const res = await dashboard.fetch(get('/_framework/'), { ip: '127.0.0.1' });
    expect(res?.status).toBe(401);
    expect(await res!.text()).toContain('href="/auth/signin"');
  });

  it('lets an admin in from anywhere', async () => {
    const cookie = await signIn('ada@example.com');
    const res = await dashboard.fetch(get('/_framework/', { cookie }), { ip: '198.51.100.7' });
    expect(res?.status).toBe(200);
    expect(res!.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('lets an admin post a CSRF-checked form; a non-admin with a valid token still gets 403', async () => {
    const queued = createTriggerRuntime({
      env: {},
      triggers: {
        jobs: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: 1, batchTimeout: '0s' },
          config: { retries: 0 },
          handle: () => {
            throw new Error('down');
          },
        }),
      },
    });
    await queued.start();
    const id = await queued.queue('jobs').send({});
    for (let i = 0; i < 100 && (await queued.failed('jobs')).length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const withQueue = createDashboard({ runtime: queued, auth, mode: 'production', enabled: true });
    const admin = await signIn('ada@example.com');
    const page = await withQueue.fetch(get('/_framework/', { cookie: admin }), {});
    const token = /name="csrfToken" value="([^"]+)"/.exec(await page!.text())?.[1];
    expect(token).toBeTruthy();
    const csrfCookie = page!.headers
      .getSetCookie()
      .find((c) => c.includes('framework-dashboard-csrf='))!
      .split(';')[0]!;
    const post = (cookie: string) =>
      withQueue.fetch(
        new Request('http://localhost:3000/_framework/queues/jobs/replay', {
          method: 'POST',
          headers: {
            cookie: `${cookie}; ${csrfCookie}`,
            origin: 'http://localhost:3000',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ csrfToken: token!, id }).toString(),
        }),
        {},
      );
    const res = await post(admin);
    expect(res?.status).toBe(303);
    expect(res!.headers.get('location')).toBe(`/_framework/?replayed=${id}`);
    expect((await post(await signIn('bob@example.com')))?.status).toBe(403);
    await queued.stop();
  });

  it('checks a configured permission instead of the role', async () => {
    const byPermission = createDashboard({
      runtime: runtime(),
      auth,
      mode: 'production',
      enabled: true,
      permission: 'posts:edit',
    });
    const bob = await signIn('bob@example.com');
    const carol = await signIn('carol@example.com');
    expect((await byPermission.fetch(get('/_framework/', { cookie: bob }), {}))?.status).toBe(200);
    expect((await byPermission.fetch(get('/_framework/', { cookie: carol }), {}))?.status).toBe(403);
  });

  it('fails closed without role definitions', async () => {
    const plain = await authFixture({ rbac: false });
    const noRbac = createDashboard({ auth: plain.auth, mode: 'production', enabled: true });
    const cookie = await plain.signIn('ada@example.com');
    expect((await noRbac.fetch(get('/_framework/', { cookie }), {}))?.status).toBe(403);
  });

  it('is off unless enabled, and refuses to start enabled without auth', async () => {
    const off = createDashboard({ runtime: runtime(), auth, mode: 'production' });
    expect(off.enabled).toBe(false);
    expect(await off.fetch(get('/_framework/', { cookie: await signIn('ada@example.com') }), {})).toBeNull();
    expect(() => createDashboard({ mode: 'production', enabled: true })).toThrow(/needs `auth`/);
  });
});
