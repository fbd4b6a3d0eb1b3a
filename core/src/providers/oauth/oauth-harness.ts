/**
 * Test harness for the OAuth flows: a real OIDC provider (oauth2-mock-server
 * on 127.0.0.1:0, RS256 keys) and a cookie-keeping in-process browser.
 * @internal
 * @module
 */
import { decodeJwt } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import { createAuth, type Auth, type CreateAuthOptions } from '../../auth.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import type { StorageAdapter } from '../../storage/types.js';
import type { Profile } from '../../types.js';
import type { UserProfile } from './types.js';

export const APP = 'http://app.test';
export const SECRET = 'oauth-test-secret-oauth-test-secret-0123456789';

/**
 * Starts the provider. Its UserInfo endpoint answers `{sub}` with the subject
 * of the bearer access token (the mock's default is a fixed `johndoe`), like
 * a lenient provider that puts every other claim in the ID token.
 */
export async function startProvider(): Promise<{ server: OAuth2Server; issuer: string; stop(): Promise<void> }> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  server.service.on(
    'beforeUserinfo',
    (res: { body: unknown }, req: { headers: Record<string, string | undefined> }) => {
      const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (token) res.body = { sub: decodeJwt(token).sub };
    },
  );
  await server.start(0, '127.0.0.1');
  const issuer = server.issuer.url!;
  return { server, issuer, stop: () => server.stop() };
}

/** The usual OIDC profile mapping: standard claims (OIDC Core §5.1) to a user profile. */
export function claimsProfile(claims: Profile): UserProfile {
  return {
    id: String(claims.sub),
    email: (claims.email as string | undefined) ?? null,
    name: (claims.name as string | undefined) ?? null,
    emailVerified: claims.email_verified === true ? new Date() : null,
  };
}

type IdTokenPatch = Record<string, unknown>;

/**
 * Adds claims to the next ID token (the access token carries `amr`, the ID
 * token does not). A patched `sub` goes into the access token too, so the
 * UserInfo endpoint answers for the same subject.
 */
export function patchNextIdToken(server: OAuth2Server, patch: IdTokenPatch): void {
  const handler = (token: { payload: Record<string, unknown> }) => {
    if ('amr' in token.payload) {
      if ('sub' in patch) token.payload.sub = patch.sub;
      return;
    }
    Object.assign(token.payload, patch);
    server.service.off('beforeTokenSigning', handler);
  };
  server.service.on('beforeTokenSigning', handler);
}

/** An in-process browser: keeps cookies for the app and follows the provider's redirect over real HTTP. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly auth: Auth) {}

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  keep(res: Response): Response {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (!value || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async app(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    // What a browser sends on a navigation or a form post.
    if (!headers.has('accept')) headers.set('accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
    if (this.cookies.size) headers.set('cookie', this.header());
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${APP}${pathOrUrl}`;
    return this.keep(await this.auth.handler(new Request(url, { ...init, headers })));
  }

  async csrf(): Promise<string> {
    return ((await (await this.app('/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
  }

  /** Starts the flow: returns the provider's authorization URL. */
  async start(providerId: string, callbackUrl = '/home'): Promise<URL> {
    const csrfToken = await this.csrf();
    const res = await this.app(`/auth/signin/${providerId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken, callbackUrl }).toString(),
    });
    if (res.status !== 303) throw new Error(`signin answered ${res.status}: ${await res.text()}`);
    return new URL(res.headers.get('location')!);
  }

  /** Visits the authorization URL at the provider; returns where it redirects back to. */
  async authorize(url: URL): Promise<URL> {
    const res = await fetch(url, { redirect: 'manual' });
    if (res.status !== 302) throw new Error(`provider answered ${res.status}`);
    return new URL(res.headers.get('location')!);
  }

  /** The whole flow; returns the app's final response to the callback. */
  async signIn(providerId: string, callbackUrl = '/home'): Promise<Response> {
    const back = await this.authorize(await this.start(providerId, callbackUrl));
    return this.app(back.href);
  }

  async session(): Promise<{
    user: { id: string; email: string | null; name: string | null; image: string | null };
  } | null> {
    return (await (await this.app('/auth/session', { headers: { accept: 'application/json' } })).json()) as never;
  }
}

export function makeAuth(options: Partial<CreateAuthOptions> & Pick<CreateAuthOptions, 'providers'>): {
  auth: Auth;
  adapter: StorageAdapter;
} {
  const adapter = options.adapter ?? createMemoryAdapter();
  const auth = createAuth({
    secret: SECRET,
    adapter,
    logger: {
      error: (m) => process.env.DEBUG_AUTH && console.error(m),
      warn: (m) => process.env.DEBUG_AUTH && console.warn(m),
    },
    ...options,
  });
  // auth.adapter reads account tokens in clear (storage holds them encrypted).
  return { auth, adapter: auth.adapter! };
}
