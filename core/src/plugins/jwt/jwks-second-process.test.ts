import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../auth.js';
import { passwordAccounts } from '../../password-accounts.js';
import { credentials } from '../../providers/credentials.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { EMAIL, PASSWORD, SECRET } from '../../testing/fixtures.js';
import type { User } from '../../types.js';
import { createMemoryJwksStorage, jwt } from './index.js';

const AUDIENCE = 'https://api.example.com';
const CHILD = fileURLToPath(new URL('./jwks-verifier.fixture.mjs', import.meta.url));
const user: User = { id: 'user-42', email: 'ada@example.com', emailVerified: null, name: 'Ada', image: null } as User;

/** A verifier process: one token per line in, one verdict per line out. */
class Verifier {
  private readonly lines: AsyncIterator<string>;
  constructor(readonly child: ChildProcessByStdio<Writable, Readable, null>) {
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }
  async verify(token: string): Promise<{ ok: boolean; sub?: string; kid?: string; code?: string }> {
    this.child.stdin.write(`${token}\n`);
    const { value, done } = await this.lines.next();
    if (done) throw new Error('the verifier process ended');
    return JSON.parse(value) as never;
  }
}

describe('a second process verifies tokens through the published JWKS (plain jose createRemoteJWKSet)', () => {
  let server: ServerType;
  let origin: string;
  let handler: (request: Request) => Promise<Response> = async () => new Response('not ready', { status: 503 });
  const children: ChildProcessByStdio<Writable, Readable, null>[] = [];

  beforeAll(async () => {
    server = serve({ fetch: (request) => handler(request), port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const child of children) child.kill();
    await new Promise((resolve) => server.close(resolve));
  });

  function verifier(jwksUrl: string): Verifier {
    const child = spawn(process.execPath, [CHILD, jwksUrl, origin, AUDIENCE], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    children.push(child);
    return new Verifier(child);
  }

  it('before and after a rotation; the old token still verifies during the grace period; /.well-known/jwks.json serves the same keys', async () => {
    const auth = createAuth({
      secret: SECRET,
      baseURL: origin,
      adapter: createMemoryAdapter(),
      providers: [],
      plugins: [jwt({ storage: createMemoryJwksStorage(), audience: AUDIENCE, activationDelay: 0 })],
      logger: { error: () => {}, warn: () => {} },
    });
    handler = (request) =>
      new URL(request.url).pathname === '/.well-known/jwks.json'
        ? auth.extensions.jwt.jwksResponse()
        : auth.handler(request);

    const remote = verifier(`${origin}/auth/jwks`);
    const before = (await auth.extensions.jwt.sign(user)).token;
    const first = await remote.verify(before);
    expect(first).toMatchObject({ ok: true, sub: 'user-42' });

    const { kid } = await auth.extensions.jwt.rotate();
    expect(kid).not.toBe(first.kid);
    const after = (await auth.extensions.jwt.sign(user)).token;
    // The verifier has cached the JWKS without the new key: it refetches on the unknown kid.
    expect(await remote.verify(after)).toStrictEqual({ ok: true, sub: 'user-42', kid });
    expect(await remote.verify(before)).toStrictEqual({ ok: true, sub: 'user-42', kid: first.kid });
    // A tampered token fails in the other process too.
    expect((await remote.verify(`${after.slice(0, -4)}AAAA`)).ok).toBe(false);

    const wellKnown = verifier(`${origin}/.well-known/jwks.json`);
    expect(await wellKnown.verify(before)).toMatchObject({ ok: true, kid: first.kid });
    expect(await wellKnown.verify(after)).toMatchObject({ ok: true, kid });
  });

  it('a browser session gets its token from GET /token over HTTP, and the other process accepts it as that user', async () => {
    const adapter = createMemoryAdapter();
    const passwords = passwordAccounts(adapter);
    const { id } = await passwords.register({ email: EMAIL, password: PASSWORD });
    const auth = createAuth({
      secret: SECRET,
      baseURL: origin,
      adapter,
      providers: [
        credentials({
          credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
          authorize: passwords.authorize,
        }),
      ],
      plugins: [jwt({ storage: createMemoryJwksStorage(), audience: AUDIENCE })],
      logger: { error: () => {}, warn: () => {} },
    });
    handler = (request) => auth.handler(request);
    const jar = new Map<string, string>();
    const send = async (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set('accept', 'application/json');
      headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
      const res = await fetch(`${origin}${path}`, { ...init, headers, redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) {
        const pair = line.split(';')[0]!;
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return res;
    };
    expect((await send('/auth/token')).status).toBe(401);
    const { csrfToken } = (await (await send('/auth/csrf')).json()) as { csrfToken: string };
    const signIn = await send('/auth/callback/credentials', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ csrfToken, email: EMAIL, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const res = await send('/auth/token');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { token } = (await res.json()) as { token: string };
    expect(await verifier(`${origin}/auth/jwks`).verify(token)).toMatchObject({ ok: true, sub: id });
  });
});
