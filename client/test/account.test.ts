/**
 * The account helpers' requests (method, path, JSON body with the CSRF
 * token), their results, and which of them refresh the store, against a
 * scripted server.
 */
import { describe, expect, it } from 'vitest';
import {
  changeEmail,
  verifyEmail,
  undoEmailChange,
  changePassword,
  createAuthStore,
  requestPasswordReset,
  resetPassword,
  sendVerificationEmail,
  signUp,
  type AccountResult,
} from '../src/index.js';
import { ADA, until } from './fake-fetch.js';

const json = (status: number, data: unknown) =>
  new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });

/** A server whose `/session` answers `session`; every other POST answers `answer` and may change the session. */
function scripted(answer: { status: number; body: unknown; session?: unknown }) {
  const state = {
    session: null as unknown,
    calls: [] as Array<{
      method: string;
      path: string;
      body?: Record<string, unknown>;
      headers: Record<string, string>;
    }>,
  };
  const fetcher: typeof fetch = async (input, init = {}) => {
    const path = new URL(String(input), 'http://app.test').pathname;
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    state.calls.push({
      method: init.method ?? 'GET',
      path,
      headers: { ...(init.headers as Record<string, string>) },
      ...(body ? { body } : {}),
    });
    if (path === '/auth/csrf') return json(200, { csrfToken: 'tok' });
    if (path === '/auth/session') return json(200, state.session);
    if (body?.csrfToken !== 'tok') return json(403, { error: { code: 'CSRF_TOKEN_INVALID', message: 'no' } });
    if (answer.session !== undefined) state.session = answer.session;
    return json(answer.status, answer.body);
  };
  return { state, fetch: fetcher };
}

type Case = [
  name: string,
  run: (f: typeof fetch) => Promise<AccountResult>,
  path: string,
  body: Record<string, unknown>,
  refreshes: boolean,
];

const CASES: Case[] = [
  [
    'signUp',
    (f) =>
      signUp(
        { email: 'ada@example.com', password: 'analytical-engine', name: 'Ada', callbackUrl: '/welcome' },
        { fetch: f },
      ),
    '/auth/signup',
    { email: 'ada@example.com', password: 'analytical-engine', name: 'Ada', callbackUrl: '/welcome' },
    true,
  ],
  [
    'sendVerificationEmail',
    (f) => sendVerificationEmail({ email: 'ada@example.com' }, { fetch: f }),
    '/auth/verify-email/send',
    { email: 'ada@example.com' },
    false,
  ],
  [
    'requestPasswordReset',
    (f) => requestPasswordReset({ email: 'ada@example.com' }, { fetch: f }),
    '/auth/password/forgot',
    { email: 'ada@example.com' },
    false,
  ],
  [
    'resetPassword',
    (f) => resetPassword({ token: 't0k3n', password: 'a-new-password' }, { fetch: f }),
    '/auth/password/reset',
    { token: 't0k3n', password: 'a-new-password' },
    true,
  ],
  [
    'changePassword',
    (f) =>
      changePassword(
        { currentPassword: 'old-password', newPassword: 'new-password', revokeOtherSessions: true },
        { fetch: f },
      ),
    '/auth/password/change',
    { currentPassword: 'old-password', newPassword: 'new-password', revokeOtherSessions: true },
    true,
  ],
  [
    'changeEmail',
    (f) => changeEmail({ newEmail: 'ada@new.example', password: 'pw' }, { fetch: f }),
    '/auth/email/change',
    { newEmail: 'ada@new.example', password: 'pw' },
    false,
  ],
  [
    'verifyEmail',
    (f) => verifyEmail({ token: 't0k3n', email: 'ada@new.example' }, { fetch: f }),
    '/auth/verify-email',
    { token: 't0k3n', email: 'ada@new.example' },
    true,
  ],
  [
    'undoEmailChange',
    (f) => undoEmailChange({ token: 't0k3n', email: 'ada@old.example' }, { fetch: f }),
    '/auth/email/change/undo',
    { token: 't0k3n', email: 'ada@old.example' },
    true,
  ],
];

describe.each(CASES)('%s', (_name, run, path, body, refreshes) => {
  it(`posts JSON with a CSRF token to ${path}`, async () => {
    const server = scripted({ status: 200, body: { ok: true } });
    expect(await run(server.fetch)).toEqual({ ok: true, status: 200, data: { ok: true } });
    const post = server.state.calls.find((c) => c.method === 'POST')!;
    expect(server.state.calls.slice(0, 2).map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /auth/csrf',
      `POST ${path}`,
    ]);
    expect(post.body).toEqual({ ...body, csrfToken: 'tok' });
    expect(post.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json' });
  });

  it(`${refreshes ? 'refreshes' : 'leaves'} the store when the session changes`, async () => {
    const server = scripted({ status: 200, body: { ok: true }, session: ADA });
    const store = createAuthStore({ fetch: server.fetch });
    const stop = store.subscribe(() => {});
    await until(() => store.getState().status !== 'loading');
    expect(store.getState().status).toBe('unauthenticated');
    await run(server.fetch);
    // A refresh happens before the promise resolves; without one the store keeps what it read.
    expect(store.getState().status).toBe(refreshes ? 'authenticated' : 'unauthenticated');
    stop();
  });

  it('resolves the stable error code, and FETCH_ERROR when the network fails', async () => {
    const server = scripted({ status: 409, body: { error: { code: 'EMAIL_TAKEN', message: 'taken' } } });
    expect(await run(server.fetch)).toEqual({ ok: false, status: 409, error: 'EMAIL_TAKEN' });
    const offline: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await run(offline)).toEqual({ ok: false, status: 0, error: 'FETCH_ERROR' });
  });
});
