/**
 * `oneTap()` end to end through `auth.handler` with a cookie jar, against a LOCAL JWKS (jose keys served by an HTTP
 * server on 127.0.0.1, port 0): a valid token signs in (creating the user), and each forged, expired, misdirected or
 * replayed token is refused with its code, with nothing created; and single use across two auth instances over one
 * PostgreSQL or MariaDB database (two processes), concurrent submits included. Never touches the network.
 */
import { createHash } from 'node:crypto';
import { Kysely, MysqlDialect, sql, type MysqlPool } from 'kysely';
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { mysqlDatabases } from '../../../../test-support/mysql-databases.js';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import { createSqlAdapter } from '../../storage/sql/adapter.js';
import { EMAIL, ORIGIN, SECRET, TestClient, makeFixture } from '../../testing/fixtures.js';
import { createFixedWindowStorage, createLoginRateLimiter } from '../../rate-limit.js';
import { CLIENT_ID, GOOGLE_EMAIL, localGoogle } from './google.test-helpers.js';
import { oneTap, type OneTapOptions } from './index.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';

const { jwksUrl, publicJwk, token, close } = await localGoogle();
afterAll(close);
/** A key Google's JWKS does not hold. */
const { privateKey: other } = await generateKeyPair('RS256');

async function setup(options: Partial<OneTapOptions> = {}, overrides: Partial<CreateAuthOptions> = {}) {
  const f = await makeFixture('database', {
    plugins: [oneTap({ clientId: CLIENT_ID, jwksUrl, ...options })],
    rateLimit: { login: false },
    ...overrides,
  });
  const users = async () => (await f.adapter.getUserByEmail(GOOGLE_EMAIL)) !== null;
  return { ...f, users };
}

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const post = (c: TestClient, body: Record<string, unknown>) => c.postJson('/auth/one-tap/callback', body);

/** Google's redirect mode: a form post with `credential` and `g_csrf_token`, and Google's cookie. */
function googlePost(c: TestClient, credential: string, field: string, cookie: string) {
  return c.request('/auth/one-tap/callback', {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      cookie: [c.cookieHeader(), `g_csrf_token=${cookie}`].filter(Boolean).join('; '),
    },
    body: new URLSearchParams({ credential, g_csrf_token: field, select_by: 'user' }).toString(),
  });
}

describe('oneTap sign-in', () => {
  it('signs in with a valid token, creating the user and the google account', async () => {
    const f = await setup();
    const c = f.client();
    const res = await post(c, { idToken: await token(), callbackUrl: '/home' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, url: '/home' });
    const user = await f.adapter.getUserByEmail(GOOGLE_EMAIL);
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect((await c.session())?.user.id).toBe(user!.id);
    expect(await f.adapter.getUserByAccount({ provider: 'google', providerAccountId: 'google-sub-1' })).toMatchObject({
      id: user!.id,
    });
    // The same Google user signs in again with a new token: the same user.
    const d = f.client();
    expect((await post(d, { credential: await token({ jti: 'second' }) })).status).toBe(200);
    expect((await d.session())?.user.id).toBe(user!.id);
  });

  it("accepts Google's form post when the g_csrf_token cookie equals the field, and refuses a mismatch", async () => {
    const f = await setup();
    const bad = await googlePost(f.client(), await token(), 'aaaaaaaaaaaa', 'bbbbbbbbbbbb');
    expect(bad.status).toBe(403);
    const empty = await googlePost(f.client(), await token({ jti: 'e' }), '', 'bbbbbbbbbbbb');
    expect(empty.status).toBe(403);
    expect(await f.users()).toBe(false);
    const c = f.client();
    const ok = await googlePost(c, await token({ jti: 'ok' }), 'cccccccccccc', 'cccccccccccc');
    expect(ok.status).toBe(303);
    expect((await c.session())?.user.email).toBe(GOOGLE_EMAIL);
  });

  it('refuses a JSON post without the kit CSRF token', async () => {
    const f = await setup();
    const res = await f.client().request('/auth/one-tap/callback', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN },
      body: JSON.stringify({ idToken: await token() }),
    });
    expect(res.status).toBe(403);
    expect(await f.users()).toBe(false);
  });

  it('links to an existing user by verified email through the core rules (credentials set while unverified removed)', async () => {
    const f = await setup();
    // The fixture's user (EMAIL) registered with a password and never verified the address.
    const c = f.client();
    const res = await post(c, { idToken: await token({ email: EMAIL, sub: 'google-ada' }) });
    expect(res.status).toBe(200);
    expect((await c.session())?.user.id).toBe(f.userId);
    // A first proof of the email removes the password a pre-hijacker could have set.
    expect((await f.client().signIn()).status).not.toBe(200);
  });

  it('does not create the user with signUp: false', async () => {
    const f = await setup({ signUp: false });
    const res = await post(f.client(), { idToken: await token() });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('ONE_TAP_SIGN_UP_DISABLED');
    expect(await f.users()).toBe(false);
  });
});

describe('oneTap refusals (nothing created)', () => {
  const cases: [string, () => Promise<string>, string, number][] = [
    ['wrong audience', () => token({ aud: 'someone-else' }), 'ONE_TAP_TOKEN_INVALID', 401],
    ['wrong issuer', () => token({ iss: 'https://evil.example' }), 'ONE_TAP_TOKEN_INVALID', 401],
    [
      'expired',
      () => token({ iat: Math.floor(Date.now() / 1000) - 3700, exp: Math.floor(Date.now() / 1000) - 60 }),
      'ONE_TAP_TOKEN_INVALID',
      401,
    ],
    ['signed by another key', () => token({}, { signWith: other }), 'ONE_TAP_TOKEN_INVALID', 401],
    ['alg none', async () => unsignedToken(), 'ONE_TAP_TOKEN_INVALID', 401],
    ['HS256 forged with the public key', () => hsForged(), 'ONE_TAP_TOKEN_INVALID', 401],
    ['not a JWT', async () => 'not.a.jwt', 'ONE_TAP_TOKEN_INVALID', 401],
    ['no email', () => token({ email: undefined }), 'ONE_TAP_EMAIL_UNVERIFIED', 403],
    ['unverified email', () => token({ email_verified: false }), 'ONE_TAP_EMAIL_UNVERIFIED', 403],
    ['email_verified as a string', () => token({ email_verified: 'true' }), 'ONE_TAP_EMAIL_UNVERIFIED', 403],
  ];
  for (const [name, make, code, status] of cases) {
    it(`refuses ${name} with ${code}`, async () => {
      const f = await setup();
      const res = await post(f.client(), { idToken: await make() });
      expect(res.status).toBe(status);
      expect(await errorCode(res)).toBe(code);
      expect(await f.users()).toBe(false);
      expect(await f.adapter.getUserByAccount({ provider: 'google', providerAccountId: 'google-sub-1' })).toBeNull();
    });
  }

  it('refuses a replayed token', async () => {
    const f = await setup();
    const t = await token();
    expect((await post(f.client(), { idToken: t })).status).toBe(200);
    const again = await post(f.client(), { idToken: t });
    expect(again.status).toBe(401);
    expect(await errorCode(again)).toBe('ONE_TAP_TOKEN_INVALID');
  });
});

describe('oneTap nonce', () => {
  it('signs in when the token carries the issued nonce; refuses a mismatch, a missing cookie and a replay', async () => {
    const f = await setup();
    const c = f.client();
    const { nonce } = (await (await c.request('/auth/one-tap/nonce')).json()) as { nonce: string };
    expect(nonce).toMatch(/^[\w-]{20,}$/);
    const saved = [...c.cookies].find(([name]) => name.includes('one-tap-nonce'))!.join('=');

    const mismatch = await post(c, { idToken: await token({ nonce: `${nonce}x` }) });
    expect(mismatch.status).toBe(401);
    expect(await errorCode(mismatch)).toBe('ONE_TAP_NONCE_INVALID');
    const none = await post(c, { idToken: await token({ jti: 'no-nonce' }) });
    expect(await errorCode(none)).toBe('ONE_TAP_NONCE_INVALID');
    const stranger = await post(f.client(), { idToken: await token({ nonce }) });
    expect(await errorCode(stranger)).toBe('ONE_TAP_NONCE_INVALID');
    expect(await f.users()).toBe(false);

    const ok = await post(c, { idToken: await token({ nonce, jti: 'first' }) });
    expect(ok.status).toBe(200);
    expect(ok.headers.getSetCookie().some((l) => l.startsWith('auth.one-tap-nonce=;'))).toBe(true);

    // Replay: the old nonce cookie sent again, with a fresh token carrying the same nonce.
    const replay = f.client();
    const csrfToken = await replay.csrf();
    const res = await replay.request('/auth/one-tap/callback', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        cookie: `${saved}; ${replay.cookieHeader()}`,
        'x-csrf-token': csrfToken,
      },
      body: JSON.stringify({ idToken: await token({ nonce, jti: 'second' }) }),
    });
    expect(res.status).toBe(401);
    expect(await errorCode(res)).toBe('ONE_TAP_NONCE_INVALID');
  });
});

describe('oneTap rate limit', () => {
  it('counts tries per IP on the login limiter', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { limit: 2, ipLimit: 3, window: 60 });
    const f = await setup({}, { rateLimit: { login } });
    const c = f.client();
    c.ip = '192.0.2.9';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(c, { idToken: 'bad' })).status);
    expect(statuses).toStrictEqual([401, 401, 401, 429]);
    const d = f.client();
    d.ip = '192.0.2.10';
    expect((await post(d, { idToken: await token() })).status).toBe(200);
  });
});

function unsignedToken(): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: 'https://accounts.google.com',
    aud: CLIENT_ID,
    sub: 'google-sub-1',
    email: GOOGLE_EMAIL,
    email_verified: true,
    iat: now,
    exp: now + 3600,
  };
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`;
}

async function hsForged(): Promise<string> {
  // The classic confusion: HS256 with the RSA public key (its JWK JSON) as the HMAC secret.
  const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
  return new SignJWT({ email: GOOGLE_EMAIL, email_verified: true })
    .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
    .setIssuer('https://accounts.google.com')
    .setAudience(CLIENT_ID)
    .setSubject('google-sub-1')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(secret);
}

/** The sign-in, the linking by verified email and a refusal on a SQL adapter. */
function onAdapter(name: string, open: () => Promise<StorageAdapter>) {
  it(`${name}: creates the user, links by verified email, and refuses an unverified email`, async () => {
    const adapter = await open();
    try {
      const f = await setup({}, { adapter });
      const c = f.client();
      expect((await post(c, { idToken: await token() })).status).toBe(200);
      const user = await f.adapter.getUserByEmail(GOOGLE_EMAIL);
      expect((await c.session())?.user.id).toBe(user!.id);
      expect(await f.adapter.getUserByAccount({ provider: 'google', providerAccountId: 'google-sub-1' })).toMatchObject(
        { id: user!.id },
      );
      const d = f.client();
      expect((await post(d, { idToken: await token({ email: EMAIL, sub: 'google-ada' }) })).status).toBe(200);
      expect((await d.session())?.user.id).toBe(f.userId);
      const refused = await post(f.client(), {
        idToken: await token({ email: 'eve@example.com', sub: 'google-eve', email_verified: false }),
      });
      expect(await errorCode(refused)).toBe('ONE_TAP_EMAIL_UNVERIFIED');
      expect(await f.adapter.getUserByEmail('eve@example.com')).toBeNull();
    } finally {
      await adapter.close?.();
    }
  });
}

describe('oneTap on SQL adapters', () => {
  onAdapter('SQLite', async () => createSqliteAdapter({ filename: ':memory:' }));
});

/** One database, two pools: what two processes of one app share. */
type Shared = () => Promise<{ dbs: [Kysely<any>, Kysely<any>]; dialect: 'postgres' | 'mysql'; close(): Promise<void> }>;

/** Single use across processes: two auth instances over one database, each with its own connection pool. */
function acrossProcesses(label: string, open: Shared) {
  describe(`oneTap across processes on ${label}`, () => {
    async function twoProcesses() {
      const { dbs, dialect, close } = await open();
      const auths = dbs.map((db) =>
        createAuth({
          secret: SECRET,
          baseURL: ORIGIN,
          adapter: createSqlAdapter({ db, dialect }),
          providers: [],
          plugins: [oneTap({ clientId: CLIENT_ID, jwksUrl })],
          rateLimit: { login: false },
          logger: { error: () => {}, warn: () => {} },
        }),
      );
      await auths[0]!.migrate();
      return {
        db: dbs[0],
        a: () => new TestClient(auths[0]!),
        b: () => new TestClient(auths[1]!),
        close,
      };
    }

    it('a token or a nonce used in one process is refused in another', async () => {
      const p = await twoProcesses();
      try {
        const t = await token({ jti: 'shared' });
        expect((await post(p.a(), { idToken: t })).status).toBe(200);
        const replay = await post(p.b(), { idToken: t });
        expect(replay.status).toBe(401);
        expect(await errorCode(replay)).toBe('ONE_TAP_TOKEN_INVALID');
        // Kept as its SHA-256 only, until the token expires (exp + the 5 s tolerance).
        const { rows } = await sql<{ identifier: string; token_hash: string; expires: unknown }>`
          select identifier, token_hash, expires from auth_verification_tokens`.execute(p.db);
        const exp = (JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          identifier: 'one-tap-token',
          token_hash: createHash('sha256').update(t).digest('hex'),
        });
        const stored = rows[0]!.expires;
        expect(stored instanceof Date ? stored.getTime() : Number(stored)).toBe((exp + 5) * 1000);
        expect(JSON.stringify(rows)).not.toContain(t.split('.')[2]!);

        const c = p.a();
        const { nonce } = (await (await c.request('/auth/one-tap/nonce')).json()) as { nonce: string };
        const saved = [...c.cookies].find(([name]) => name.includes('one-tap-nonce'))!.join('=');
        expect((await post(c, { idToken: await token({ nonce, jti: 'nonce-1' }) })).status).toBe(200);
        // The other process, the old nonce cookie and a fresh token carrying the same nonce.
        const other = p.b();
        const csrfToken = await other.csrf();
        const res = await other.request('/auth/one-tap/callback', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            cookie: `${saved}; ${other.cookieHeader()}`,
            'x-csrf-token': csrfToken,
          },
          body: JSON.stringify({ idToken: await token({ nonce, jti: 'nonce-2' }) }),
        });
        expect(res.status).toBe(401);
        expect(await errorCode(res)).toBe('ONE_TAP_NONCE_INVALID');
      } finally {
        await p.close();
      }
    });

    it('of one token submitted at once to both processes, exactly one signs in', async () => {
      const p = await twoProcesses();
      try {
        const t = await token({ jti: 'double' });
        const clients = [p.a(), p.b(), p.a(), p.b()];
        const results = await Promise.all(clients.map((c) => post(c, { idToken: t })));
        expect(results.map((r) => r.status).sort()).toStrictEqual([200, 401, 401, 401]);
        for (const r of results.filter((r) => r.status === 401))
          expect(await errorCode(r)).toBe('ONE_TAP_TOKEN_INVALID');
        const signedIn = await Promise.all(clients.map(async (c) => (await c.session())?.user.email ?? null));
        expect(signedIn.filter((e) => e === GOOGLE_EMAIL)).toHaveLength(1);
      } finally {
        await p.close();
      }
    });
  });
}

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pg = await postgresSchemas('one_tap_e2e');
describe.skipIf(!pg.available)('oneTap on PostgreSQL', () => {
  afterAll(() => pg.dropAll());
  onAdapter('PostgreSQL', async () => {
    return postgresAdapterIn(pg, { max: 4 });
  });
  acrossProcesses('PostgreSQL', async () => {
    const db = await pg.isolated();
    const other = pg.sameSchema(db);
    return {
      dbs: [db, other],
      dialect: 'postgres',
      close: async () => void (await Promise.all([db, other].map((d) => d.destroy()))),
    };
  });
});

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('one_tap_e2e');
describe.skipIf(!my.available)('oneTap on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  acrossProcesses('MySQL/MariaDB', async () => {
    const { db, url } = await my.isolated();
    const mysql = await import('mysql2');
    const pool = mysql.createPool({ uri: url, charset: 'utf8mb4', connectionLimit: 4 }) as unknown as MysqlPool;
    const other = new Kysely<any>({ dialect: new MysqlDialect({ pool }) });
    return { dbs: [db, other], dialect: 'mysql', close: () => other.destroy() };
  });
});
