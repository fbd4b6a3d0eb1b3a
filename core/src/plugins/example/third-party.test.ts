/**
 * A plugin a third party could write: it imports only the package's public entry points (`@framework/auth`,
 * `@framework/auth/plugin-kit`, `@framework/auth-client`) and adds a sign-in method (a one-time code by email)
 * that completes through `completeSignIn`, a route with CSRF and a rate limit, SQL storage with a migration, an
 * error code of its own, a method on `auth.api`, and a client action. It runs on every SQL storage adapter.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Kysely, SqliteDialect } from 'kysely';
import Database from 'better-sqlite3';
import { createAuth, createSqlAdapter, type StorageAdapter } from '@framework/auth';
import {
  badRequest,
  completeSignIn,
  resolveCallbackUrl,
  defineErrorCodes,
  endpoint,
  parseEmailAddress,
  pluginSql,
  randomString,
  sha256Hex,
  timingSafeEqual,
  type AuthPlugin,
} from '@framework/auth/plugin-kit';
import { authRequest, type AuthClientOptions } from '@framework/auth-client';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { mysqlDatabases } from '../../../../test-support/mysql-databases.js';

const ORIGIN = 'http://localhost:3000';
const SECRET = 'a-test-secret-of-at-least-thirty-two-chars';

const codeErrors = defineErrorCodes({
  EMAIL_CODE_WRONG: { status: 401, message: 'The code is wrong, used or expired', page: 'Verification' },
});

const api = {
  sendEmailCode: endpoint<{ email: string }, { ok: true }>('POST', 'email-code/send'),
};

const addressOf = (value: unknown): string => {
  const address = parseEmailAddress(value);
  if (!address) throw badRequest('Enter a valid email address');
  return address;
};

/** Codes by email: `POST /email-code/send` mails one, `POST /email-code/verify` signs in with it. */
function emailCode(options: {
  db: Kysely<any>;
  send(email: string, code: string): void;
}): AuthPlugin<'emailCode', undefined, typeof api> {
  const store = pluginSql(options.db, {}, 'email_code', 'emailCode');
  const table = `${store.prefix}_codes`;
  async function take(email: string, code: string): Promise<boolean> {
    const row = await store.q.selectFrom(table).selectAll().where('email', '=', email).executeTakeFirst();
    await store.q.deleteFrom(table).where('email', '=', email).execute(); // single use, even when wrong
    if (!row || Number(row.expires_at) < Date.now()) return false;
    return timingSafeEqual(String(row.code_hash), await sha256Hex(code));
  }
  return {
    id: 'emailCode',
    api,
    signInMethods: [
      { id: 'email-code', name: 'Email code', type: 'email-code', urls: { sendUrl: '/email-code/send' } },
    ],
    async migrate() {
      await store.migrate({
        '0001_codes': {
          up: (db) =>
            db.schema
              .createTable(table)
              .addColumn('email', 'varchar(320)', (c) => c.primaryKey())
              .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
              .addColumn('expires_at', 'bigint', (c) => c.notNull())
              .execute(),
        },
      });
    },
    routes: {
      'email-code/send': {
        async POST(ctx) {
          const email = addressOf(ctx.body.email);
          const code = randomString(6);
          const row = { email, code_hash: await sha256Hex(code), expires_at: Date.now() + 300_000 };
          await store.q.deleteFrom(table).where('email', '=', email).execute();
          await store.q.insertInto(table).values(row).execute();
          options.send(email, code);
          return { status: 200, json: { ok: true } };
        },
        rateLimit: (ctx) => (ctx.auth.limiters.login ? { limiter: ctx.auth.limiters.login, mode: 'count' } : undefined),
      },
      'email-code/verify': {
        async POST(ctx) {
          const email = addressOf(ctx.body.email);
          if (!(await take(email, ctx.body.code ?? ''))) throw codeErrors.error('EMAIL_CODE_WRONG');
          const adapter = ctx.auth.adapter!;
          const existing = await adapter.getUserByEmail(email);
          const account = { type: 'email' as const, provider: 'email-code', providerAccountId: email };
          return completeSignIn(ctx, {
            user: existing ?? { id: '', email },
            account,
            emailProven: true,
            isNewUser: !existing,
            callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
            persist: async () => {
              const user = existing ?? (await adapter.createUser({ email, emailVerified: new Date() }));
              if (!(await adapter.getAccount(account))) await adapter.linkAccount({ ...account, userId: user.id });
              return user;
            },
          });
        },
      },
    },
  };
}

/** The plugin's client part: one action, on `authRequest` like the built-in plugins' client parts. */
const verifyEmailCode = (email: string, code: string, options: AuthClientOptions) =>
  authRequest<{ ok: true; url: string }>('/email-code/verify', options, { email, code }, true);

/** A `fetch` into `auth.handler` with a cookie jar, as a browser on ORIGIN. */
function browser(handler: (request: Request) => Promise<Response>): typeof fetch {
  const jar = new Map<string, string>();
  return async (input, init) => {
    const request = new Request(input instanceof Request ? input : new URL(String(input), ORIGIN), init);
    const headers = new Headers(request.headers);
    headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    headers.set('origin', ORIGIN);
    const response = await handler(new Request(request, { headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!, value.join('='));
    }
    return response;
  };
}

type Setup = { adapter: StorageAdapter; db: Kysely<any> };

const pg = await postgresSchemas('third_party_plugin');
const my = await mysqlDatabases('third_party_plugin');
afterAll(async () => {
  await pg.dropAll();
  await my.dropAll();
});

const stores: [string, () => Promise<Setup>][] = [
  [
    'SQLite',
    async () => {
      const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
      return { adapter: createSqlAdapter({ db, dialect: 'sqlite' }), db };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const db = await pg.isolated();
      return { adapter: createSqlAdapter({ db, dialect: 'postgres' }), db };
    },
  ],
  [
    'MariaDB',
    async () => {
      const { db } = await my.isolated();
      return { adapter: createSqlAdapter({ db, dialect: 'mysql' }), db };
    },
  ],
];

describe.each(stores)('a third-party plugin on the public kit (%s)', (_name, open) => {
  async function setup() {
    const store = await open();
    const mail: { email: string; code: string }[] = [];
    const auth = createAuth({
      secret: SECRET,
      baseURL: ORIGIN,
      adapter: store.adapter,
      providers: [],
      logger: { error: () => {}, warn: () => {} },
      plugins: [emailCode({ db: store.db, send: (email, code) => void mail.push({ email, code }) })],
    });
    await auth.migrate();
    const fetch = browser((request) => auth.handler(request, { ip: '203.0.113.7' }));
    return { auth, mail, client: { baseUrl: ORIGIN, fetch } satisfies AuthClientOptions };
  }

  it('signs in with a code through completeSignIn: session, account, and the code is single-use', async () => {
    const { auth, mail, client } = await setup();
    await auth.api.sendEmailCode({ email: 'Ada@Example.com' });
    const { code } = mail.at(-1)!;
    const result = await verifyEmailCode('ada@example.com', code, client);
    expect(result).toMatchObject({ ok: true, data: { ok: true } });
    const session = (await (await client.fetch('/auth/session')).json()) as { user: { email: string } } | null;
    expect(session?.user.email).toBe('ada@example.com');
    const again = await verifyEmailCode('ada@example.com', code, client);
    expect(again).toMatchObject({ ok: false, status: 401, error: 'EMAIL_CODE_WRONG' });
  });

  it('answers its own error code through the client, and auth.api rejects a bad address with 400', async () => {
    const { auth, client } = await setup();
    await auth.api.sendEmailCode({ email: 'ada@example.com' });
    expect(await verifyEmailCode('ada@example.com', '000000', client)).toMatchObject({
      status: 401,
      error: 'EMAIL_CODE_WRONG',
    });
    await expect(auth.api.sendEmailCode({ email: 'not an address' })).rejects.toMatchObject({ status: 400 });
  });

  it('gets the CSRF checks and its rate limit like a built-in route', async () => {
    const { auth } = await setup();
    const post = (headers: Record<string, string>) =>
      auth.handler(
        new Request(`${ORIGIN}/auth/email-code/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
          body: JSON.stringify({ email: 'ada@example.com' }),
        }),
        { ip: '203.0.113.8' },
      );
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    expect(((await (await post({ origin: ORIGIN })).json()) as { error: { code: string } }).error.code).toBe(
      'CSRF_TOKEN_INVALID',
    );
    let last = 200;
    const send = () =>
      auth.api.sendEmailCode({ email: 'x@example.com' }, { ip: '198.51.100.1' }).then(
        () => 200,
        (e: { status: number }) => e.status,
      );
    for (let i = 0; i < 8 && last !== 429; i++) last = await send();
    expect(last).toBe(429);
  });

  it('lists its sign-in method on GET /providers', async () => {
    const { auth } = await setup();
    const providers = await auth.api.listProviders();
    expect(providers['email-code']).toMatchObject({ type: 'email-code', sendUrl: `${ORIGIN}/auth/email-code/send` });
  });
});
