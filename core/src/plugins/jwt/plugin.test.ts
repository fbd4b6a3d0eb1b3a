import { decodeProtectedHeader, SignJWT, type JSONWebKeySet } from 'jose';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAuth } from '../../auth.js';
import { AuthConfigError } from '../../errors.js';
import { credentials } from '../../providers/credentials.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { passwordAccounts } from '../../password-accounts.js';
import { EMAIL, ORIGIN, PASSWORD, SECRET, TestClient } from '../../testing/fixtures.js';
import { createMemoryJwksStorage, jwt, verifyAccessToken, type JwtExtension, type JwtPluginOptions } from './index.js';

const quiet = { error: () => {}, warn: () => {} };
const AUDIENCE = 'https://api.example.com';
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'];

async function app(options: Partial<JwtPluginOptions> = {}, extra: Record<string, unknown> = {}) {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: EMAIL, password: PASSWORD });
  const storage = createMemoryJwksStorage();
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
    plugins: [jwt({ storage, audience: AUDIENCE, ...options })],
    logger: quiet,
    ...extra,
  });
  const client = new TestClient(auth);
  await client.signIn();
  return { auth, client, storage };
}

const json = { accept: 'application/json' };
const getToken = async (client: TestClient) =>
  (await (await client.request('/auth/token', { headers: json })).json()) as {
    token: string;
    tokenType: string;
    expiresIn: number;
  };
const getJwks = async (client: TestClient) =>
  (await (await client.request('/auth/jwks', { headers: json })).json()) as JSONWebKeySet;

function configError(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(AuthConfigError);
    expect((e as AuthConfigError).code).toBe('INVALID_CONFIG');
    return (e as Error).message;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('jwt() plugin', () => {
  it('GET /token signs a short-lived token for the session: sub, iss = baseURL, aud, iat, exp and the configured claims', async () => {
    const { client, auth } = await app({
      claims: (user) => ({
        roles: ['editor'],
        email: user.email,
        sub: 'admin',
        iss: 'https://evil.example',
        exp: 9e9,
        nbf: 9e9,
        jti: 'fixed',
      }),
    });
    expectTypeOf(auth.extensions.jwt).toEqualTypeOf<JwtExtension>();
    const res = await client.request('/auth/token', { headers: json });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { token: string; tokenType: string; expiresIn: number };
    expect(body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    const claims = await verifyAccessToken(body.token, {
      jwks: await getJwks(client),
      issuer: ORIGIN,
      audience: AUDIENCE,
    });
    const user = (await client.session())!.user;
    expect(claims).toMatchObject({ sub: user.id, iss: ORIGIN, aud: AUDIENCE, roles: ['editor'], email: EMAIL });
    expect(claims.exp - claims.iat).toBe(900);
    expect(typeof claims.jti).toBe('string');
    expect(claims.jti).not.toBe('fixed');
    expect(claims).not.toHaveProperty('nbf');
    expect(decodeProtectedHeader(body.token)).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
    expect(auth.extensions.jwt.issuer).toBe(ORIGIN);
  });

  it('GET /token without a session (or with a forged cookie) is 401 UNAUTHENTICATED', async () => {
    const { auth } = await app();
    for (const headers of [json, { ...json, cookie: 'authjs.session-token=forged' }]) {
      const res = await auth.handler(new Request(`${ORIGIN}/auth/token`, { headers }));
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it('the issuer is baseURL even when the request carries a forged Host', async () => {
    const { auth, client } = await app();
    const res = await auth.handler(
      new Request('http://evil.example/auth/token', {
        headers: { ...json, cookie: client.cookieHeader(), host: 'evil.example' },
      }),
    );
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    await expect(
      verifyAccessToken(token, { jwks: await getJwks(client), issuer: ORIGIN, audience: AUDIENCE }),
    ).resolves.toMatchObject({ iss: ORIGIN });
  });

  for (const algorithm of ['EdDSA', 'ES256'] as const) {
    it(`GET /jwks publishes ${algorithm} public keys with kid, alg and use, never a private member`, async () => {
      const { client, storage } = await app({ algorithm });
      const { token } = await getToken(client);
      const res = await client.request('/auth/jwks', { headers: json });
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const jwks = (await res.json()) as JSONWebKeySet;
      expect(jwks.keys).toHaveLength(1);
      const [key] = jwks.keys;
      expect(key).toMatchObject({
        kid: decodeProtectedHeader(token).kid,
        alg: algorithm,
        use: 'sig',
        kty: algorithm === 'EdDSA' ? 'OKP' : 'EC',
      });
      for (const member of PRIVATE_MEMBERS) expect(key).not.toHaveProperty(member);
      // The private key is stored sealed, never as a JWK.
      const [stored] = await storage.list();
      expect(stored!.privateKey).toMatch(/^enc:v1:[A-Za-z0-9_-]+$/);
      for (const member of PRIVATE_MEMBERS) expect(stored!.publicJwk).not.toHaveProperty(member);
    });
  }

  it('rotate() publishes the next key at once; old tokens keep verifying and the new key signs after activationDelay', async () => {
    const { client, auth } = await app({ activationDelay: 0 });
    const before = await getToken(client);
    const { kid } = await auth.extensions.jwt.rotate();
    const jwks = await getJwks(client);
    expect(jwks.keys.map((k) => k.kid)).toStrictEqual([kid, decodeProtectedHeader(before.token).kid]);
    const after = await getToken(client);
    expect(decodeProtectedHeader(after.token).kid).toBe(kid);
    for (const { token } of [before, after])
      await expect(verifyAccessToken(token, { jwks, issuer: ORIGIN, audience: AUDIENCE })).resolves.toBeTruthy();
    const served = await auth.extensions.jwt.jwksResponse();
    expect(await served.json()).toStrictEqual(jwks);
  });

  it('a flood of GET /jwks reads the key storage once, not once per request', async () => {
    const { client, storage } = await app();
    await getToken(client);
    let reads = 0;
    const list = storage.list.bind(storage);
    storage.list = () => {
      reads += 1;
      return list();
    };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => client.request('/auth/jwks', { headers: json })),
    );
    expect(answers.every((res) => res.status === 200)).toBe(true);
    expect(reads).toBeLessThanOrEqual(1);
  });

  it('refuses to start without baseURL or secret, and on bad options, with INVALID_CONFIG', async () => {
    const base = { adapter: createMemoryAdapter(), providers: [], logger: quiet };
    const plugin = () => jwt({ storage: createMemoryJwksStorage(), audience: AUDIENCE });
    const previous = process.env.AUTH_URL;
    delete process.env.AUTH_URL;
    try {
      expect(configError(() => createAuth({ ...base, secret: SECRET, plugins: [plugin()] }))).toMatch(/baseURL/);
    } finally {
      if (previous !== undefined) process.env.AUTH_URL = previous;
    }
    expect(configError(() => createAuth({ ...base, baseURL: ORIGIN, plugins: [plugin()] }))).toMatch(/secret/);
    const storage = createMemoryJwksStorage();
    expect(configError(() => jwt({ storage, audience: '' }))).toMatch(/audience/);
    expect(configError(() => jwt({ storage, audience: [] }))).toMatch(/audience/);
    expect(configError(() => jwt({ storage, audience: AUDIENCE, algorithm: 'HS256' as never }))).toMatch(/algorithm/);
    expect(configError(() => jwt({ storage, audience: AUDIENCE, expiresIn: 3600, gracePeriod: 60 }))).toMatch(
      /gracePeriod/,
    );
    for (const bad of [0, -1, 1.5, Number.NaN, '900' as never])
      expect(configError(() => jwt({ storage, audience: AUDIENCE, expiresIn: bad }))).toMatch(/expiresIn/);
    expect(configError(() => jwt({ storage: {} as never, audience: AUDIENCE }))).toMatch(/storage/);
  });
});

describe('verifyAccessToken', () => {
  it('rejects a wrong audience or issuer, an expired, tampered or foreign-key token, and a JWT that is not an access token', async () => {
    const { client, auth } = await app();
    const { token } = await getToken(client);
    const jwks = await getJwks(client);
    const ok = { jwks, issuer: ORIGIN, audience: AUDIENCE };
    const rejects = (t: string, options = ok) => expect(verifyAccessToken(t, options)).rejects.toHaveProperty('code');
    await rejects(token, { ...ok, audience: 'https://other.example.com' });
    await rejects(token, { ...ok, issuer: 'https://evil.example' });
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString()) as Record<string, unknown>;
    await rejects(`${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url')}.${s}`);
    const flipped = Buffer.from(s!, 'base64url');
    flipped.writeUInt8(flipped.readUInt8(10) ^ 1, 10);
    await rejects(`${h}.${p}.${flipped.toString('base64url')}`);
    await rejects(token.split('.').slice(0, 2).join('.') + '.');
    // Another key pair, even with the published kid, does not verify.
    const { generateKeyPair } = await import('jose');
    const foreign = await generateKeyPair('EdDSA');
    const kid = decodeProtectedHeader(token).kid!;
    const sign = (header: Record<string, unknown>, body: Record<string, unknown>) =>
      new SignJWT(body).setProtectedHeader({ alg: 'EdDSA', kid, ...header }).sign(foreign.privateKey);
    await rejects(await sign({ typ: 'at+jwt' }, claims));
    await expect(verifyAccessToken(token, { ...ok, algorithms: ['ES256'] })).rejects.toHaveProperty(
      'code',
      'ERR_JOSE_ALG_NOT_ALLOWED',
    );
    await expect(verifyAccessToken(token, { ...ok, jwks: { keys: [] } })).rejects.toHaveProperty(
      'code',
      'ERR_JWKS_NO_MATCHING_KEY',
    );
    expect(auth.extensions.jwt.issuer).toBe(ORIGIN);
  });

  it('with a trusted key, still rejects an expired token, another JWT type, a missing sub, and alg none', async () => {
    const { generateKeyPair, exportJWK, UnsecuredJWT } = await import('jose');
    const { publicKey, privateKey } = await generateKeyPair('EdDSA');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' }] };
    const ok = { jwks, issuer: ORIGIN, audience: AUDIENCE };
    const now = Math.floor(Date.now() / 1000);
    const make = (typ: string, body: Record<string, unknown>) =>
      new SignJWT(body).setProtectedHeader({ alg: 'EdDSA', kid: 'k1', typ }).sign(privateKey);
    const good = { sub: 'u1', iss: ORIGIN, aud: AUDIENCE, iat: now, exp: now + 60 };
    await expect(verifyAccessToken(await make('at+jwt', good), ok)).resolves.toMatchObject({ sub: 'u1' });
    await expect(
      verifyAccessToken(await make('at+jwt', { ...good, iat: now - 120, exp: now - 60 }), ok),
    ).rejects.toHaveProperty('code', 'ERR_JWT_EXPIRED');
    await expect(
      verifyAccessToken(await make('at+jwt', { ...good, iat: now - 120, exp: now - 60 }), {
        ...ok,
        clockTolerance: 120,
      }),
    ).resolves.toBeTruthy();
    await expect(verifyAccessToken(await make('JWT', good), ok)).rejects.toHaveProperty(
      'code',
      'ERR_JWT_CLAIM_VALIDATION_FAILED',
    );
    const { sub: _sub, ...noSub } = good;
    await expect(verifyAccessToken(await make('at+jwt', noSub), ok)).rejects.toHaveProperty(
      'code',
      'ERR_JWT_CLAIM_VALIDATION_FAILED',
    );
    const unsecured = new UnsecuredJWT(good).encode();
    await expect(verifyAccessToken(unsecured, ok)).rejects.toHaveProperty('code');
  });

  it('needs exactly one of jwksUrl and jwks', async () => {
    await expect(verifyAccessToken('x', { issuer: ORIGIN, audience: AUDIENCE })).rejects.toBeInstanceOf(TypeError);
    await expect(
      verifyAccessToken('x', {
        issuer: ORIGIN,
        audience: AUDIENCE,
        jwks: { keys: [] },
        jwksUrl: `${ORIGIN}/auth/jwks`,
      }),
    ).rejects.toBeInstanceOf(TypeError);
  });
});
