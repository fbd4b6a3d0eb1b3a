/**
 * Signed-in devices over a real HTTP server (port 0): two browsers with
 * their own cookie jars sign in as the same user; one lists both sessions
 * and ends the other, whose next request is anonymous.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser, serve } from '../../testing/http-server.js';
import { makeFixture, EMAIL, PASSWORD } from '../../testing/fixtures.js';

describe('signed-in devices over HTTP', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const { auth } = await makeFixture('database');
    ({ base, server } = await serve(auth));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('lists both browsers, ends the other one, and its next request is anonymous', async () => {
    const desktop = new Browser(base, 'Desktop Browser/1.0');
    const phone = new Browser(base, 'Phone Browser/2.0');
    for (const b of [desktop, phone])
      expect((await b.post('/auth/callback/credentials', { email: EMAIL, password: PASSWORD })).status).toBe(200);
    expect(await phone.sessionUser()).toBe(EMAIL);

    const listed = await desktop.fetch('/auth/sessions', { headers: { accept: 'application/json' } });
    expect(listed.status).toBe(200);
    const { sessions } = (await listed.json()) as {
      sessions: Array<{ id: string; current: boolean; userAgent: string; ip: string }>;
    };
    expect(sessions.map((s) => [s.userAgent, s.current])).toEqual([
      ['Desktop Browser/1.0', true],
      ['Phone Browser/2.0', false],
    ]);
    expect(sessions.every((s) => s.ip === '127.0.0.1' || s.ip === '::ffff:127.0.0.1')).toBe(true);

    const revoked = await desktop.post('/auth/sessions/revoke', { id: sessions[1]!.id });
    expect(await revoked.json()).toEqual({ ok: true, revoked: 1 });
    expect(await phone.sessionUser()).toBeNull();
    expect((await phone.fetch('/auth/sessions', { headers: { accept: 'application/json' } })).status).toBe(401);
    expect(await desktop.sessionUser()).toBe(EMAIL);
    const after = (await (
      await desktop.fetch('/auth/sessions', { headers: { accept: 'application/json' } })
    ).json()) as { sessions: unknown[] };
    expect(after.sessions).toHaveLength(1);
  });
});
