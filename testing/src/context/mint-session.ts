/**
 * Real sessions for `withAuth({userId})`, made by the kit's own machinery:
 * - `database` strategy: a session row created through the auth's storage
 *   adapter (`createSession`), whose cookie is `id.secret` with SHA-256(secret)
 *   stored, exactly as a sign-in stores it;
 * - `jwt` strategy: a credentials sign-in on a twin of the auth that shares
 *   its resolved config and secrets, so the token is signed by the kit's jwt
 *   strategy under the same derived key and the app's auth verifies it.
 * @module
 */
import { createAuth, credentials, type Auth, type User } from '@framework/auth';
import { createCookieJar } from './cookie-jar.js';

/** A session cookie minted for a user. */
export interface MintedSession {
  /** The session cookie's name (`cookies.sessionToken.name`). */
  name: string;
  value: string;
  expires: Date;
}

const encoder = new TextEncoder();

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function randomToken(bytes: number): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function unknownUser(userId: string): Error {
  return new Error(`withAuth: no user with id ${JSON.stringify(userId)} in the auth's storage; create it in seed(db) first`);
}

async function databaseSession(auth: Auth, userId: string): Promise<MintedSession> {
  const adapter = auth.adapter;
  if (!adapter) throw new Error('withAuth: the database session strategy needs the auth to have a storage adapter');
  if (!(await adapter.getUser(userId))) throw unknownUser(userId);
  const id = randomToken(16);
  const secret = randomToken(32);
  const now = Date.now();
  const expires = new Date(now + auth.config.session.maxAge * 1000);
  await adapter.createSession({ id, tokenHash: await sha256Hex(secret), userId, expires, createdAt: new Date(now) });
  return { name: auth.config.cookies.sessionToken.name, value: `${id}.${secret}`, expires };
}

/** A twin of `auth` (same config and secrets) whose only sign-in returns `user`. */
function twinFor(auth: Auth, user: User): Auth {
  const { config } = auth;
  return createAuth({
    basePath: config.basePath,
    session: { ...config.session },
    cookies: { sessionToken: { name: config.cookies.sessionToken.name, options: { ...config.cookies.sessionToken.options } } },
    pages: { ...config.pages },
    secret: [...config.secret],
    providers: [credentials({ credentials: { user: { label: 'User', type: 'text' } }, authorize: () => user })],
    rateLimit: { login: false },
    env: {},
    logger: { error: () => {}, warn: () => {} },
  });
}

async function jwtSession(auth: Auth, userId: string): Promise<MintedSession> {
  const user = auth.adapter ? await auth.adapter.getUser(userId) : { id: userId };
  if (!user) throw unknownUser(userId);
  const twin = twinFor(auth, user);
  const jar = createCookieJar();
  const base = `http://localhost${auth.config.basePath}`;
  const csrf = await twin.handler(new Request(`${base}/csrf`, { headers: { accept: 'application/json' } }));
  jar.store(csrf.headers.getSetCookie());
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await twin.handler(
    new Request(`${base}/callback/credentials`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: jar.header(auth.config.basePath) },
      body: JSON.stringify({ csrfToken }),
    }),
  );
  jar.store(signIn.headers.getSetCookie());
  const name = auth.config.cookies.sessionToken.name;
  const value = jar.get(name);
  if (!value) throw new Error(`withAuth: the jwt sign-in answered ${signIn.status} without a session cookie: ${await signIn.text()}`);
  const [, payload = ''] = value.split('.');
  const { exp } = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/'))) as { exp: number };
  return { name, value, expires: new Date(exp * 1000) };
}

/**
 * Mints a real session for `userId` with `auth`, for either session strategy.
 *
 * @throws Error when the user is not in the auth's storage.
 * @example
 * ```ts
 * const { name, value } = await mintSession(auth, user.id);
 * await auth.getSession(new Request('http://localhost/', { headers: { cookie: `${name}=${value}` } }));
 * ```
 */
export function mintSession(auth: Auth, userId: string): Promise<MintedSession> {
  return auth.config.session.strategy === 'database' ? databaseSession(auth, userId) : jwtSession(auth, userId);
}
