/**
 * The account lifecycle over a real HTTP server (port 0) with cookie jars:
 * sign-up → verification mail → verify → sign in, and forgot → reset → old
 * sessions gone → old password refused → new password works.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { Browser, serve } from '../testing/http-server.js';
import type { AccountMail } from './options.js';

describe('email and password accounts over HTTP', () => {
  let server: Server;
  let base: string;
  const outbox: AccountMail[] = [];
  const linkTo = async (email: string, path: string) => {
    await new Promise((r) => setTimeout(r, 0));
    const mail = outbox.filter((m) => m.email === email && new URL(m.url).pathname.endsWith(path)).at(-1)!;
    const url = new URL(mail.url);
    return `${url.pathname}${url.search}`;
  };

  beforeAll(async () => {
    // baseURL is filled in once the port is known: links must use it, not the Host header.
    const options = { baseURL: 'http://127.0.0.1' };
    const auth = () =>
      createAuth({
        secret: 's'.repeat(40),
        baseURL: options.baseURL,
        adapter,
        providers: [],
        logger: { error: () => {}, warn: () => {} },
        emailAndPassword: {
          requireEmailVerification: true,
          sendVerificationEmail: (mail) => void outbox.push(mail),
          sendResetPassword: (mail) => void outbox.push(mail),
        },
      });
    const adapter = createMemoryAdapter();
    let current = auth();
    ({ base, server } = await serve({
      handler: (request: Request, info?: { ip?: string }) => current.handler(request, info),
    } as never));
    options.baseURL = base;
    current = auth();
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sign-up → verification link → verify → sign in; forgot → reset → old session gone → old password refused → new works', async () => {
    const ada = new Browser(base, 'ada-laptop');
    expect(
      (await ada.post('/auth/signup', { email: 'ada@example.com', password: 'first password', name: 'Ada' })).status,
    ).toBe(200);
    expect(await ada.sessionUser()).toBeNull();
    expect(
      (await ada.post('/auth/callback/credentials', { email: 'ada@example.com', password: 'first password' })).status,
    ).toBe(403);
    const verify = await linkTo('ada@example.com', '/verify-email');
    // Opening the link (as a mail scanner would, too) only shows the page; its button verifies.
    expect((await ada.fetch(verify, { method: 'HEAD' })).status).toBe(200);
    expect((await ada.fetch(verify)).status).toBe(200);
    expect(
      (await ada.post('/auth/callback/credentials', { email: 'ada@example.com', password: 'first password' })).status,
    ).toBe(403);
    const token = new URLSearchParams(verify.split('?')[1]).get('token')!;
    expect((await ada.post('/auth/verify-email', { token })).status).toBe(200);
    expect(
      (await ada.post('/auth/callback/credentials', { email: 'ada@example.com', password: 'first password' })).status,
    ).toBe(200);
    expect(await ada.sessionUser()).toBe('ada@example.com');

    const phone = new Browser(base, 'ada-phone');
    expect((await phone.post('/auth/password/forgot', { email: 'ada@example.com' })).status).toBe(200);
    const reset = new URLSearchParams((await linkTo('ada@example.com', '/password/reset')).split('?')[1]).get('token')!;
    expect((await phone.post('/auth/password/reset', { token: reset, password: 'second password' })).status).toBe(200);
    expect(await ada.sessionUser()).toBeNull();
    expect(
      (await phone.post('/auth/callback/credentials', { email: 'ada@example.com', password: 'first password' })).status,
    ).toBe(401);
    expect(
      (await phone.post('/auth/callback/credentials', { email: 'ada@example.com', password: 'second password' }))
        .status,
    ).toBe(200);
    expect(await phone.sessionUser()).toBe('ada@example.com');
    expect((await phone.post('/auth/password/reset', { token: reset, password: 'third password' })).status).toBe(400);
  });
});
