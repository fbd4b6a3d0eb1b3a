/**
 * `createLocalIdp`: a local OpenID Provider for tests, built on `oidc-provider` (an OpenID-certified
 * implementation) and served in-process on 127.0.0.1, port 0. Sign-ins are answered without pages: as the user the
 * test picks. The kit meets it through its own OIDC provider factory (`createOAuth2Provider({ issuer })`).
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import { createOAuth2Provider, type OAuthProvider } from '@framework/auth';
import { CookieJar } from 'tough-cookie';

/** A user at the provider: `sub` and the claims it releases (`email`, `email_verified`, `name`, your own). */
export interface LocalIdpUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  [claim: string]: unknown;
}

/**
 * Options of {@link createLocalIdp}.
 * @example
 * ```ts
 * const idp = await createLocalIdp({ claims: ['groups'] });
 * ```
 */
export interface LocalIdpOptions {
  /** Claims of your own the provider releases (with the `profile` scope), besides `email`, `email_verified`, `name`. */
  claims?: readonly string[];
}

/** Options of {@link LocalIdp.provider}: where the app's callback is. */
export interface LocalIdpProviderOptions {
  /** The app's origin (its `baseURL`), e.g. `ctx.origin`. */
  origin: string;
  /** The auth's `basePath`. Default `/auth`. */
  basePath?: string;
  /** The provider id in the kit (`/auth/signin/<id>`). Default `local-idp`. */
  id?: string;
  /** The button label. Default `Local IdP`. */
  name?: string;
  /** Trust the provider's `email_verified` (link to an existing account by email). Default true. */
  trustEmail?: boolean;
}

/** A running local OpenID Provider. */
export interface LocalIdp {
  /** The issuer URL, `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  /** The users, by `sub`: add, change or remove them at any point of a test (claims are read at each sign-in). */
  readonly users: Map<string, LocalIdpUser>;
  /** Adds (or replaces) a user; `email_verified` defaults to true. Returns it. */
  addUser(user: LocalIdpUser): LocalIdpUser;
  /**
   * The kit provider for this issuer (`createOAuth2Provider({ issuer, clientId, clientSecret, trustEmail })`), its
   * callback (`origin + basePath + /callback/ + id`) registered at the provider. Call it while building the auth.
   */
  provider(options: LocalIdpProviderOptions): OAuthProvider;
  /** Who the next sign-ins at the provider are (a browser's too). Without it, the only user, if there is one. */
  signInAs(sub: string | undefined): void;
  /**
   * Runs the authorization request `url` (the kit's redirect to the provider) as `sub`, following the provider's
   * redirects, and returns the redirect back to the app's callback (with `code` and `state`, or `error`).
   * @throws Error when the provider answers without a redirect.
   */
  authorize(url: string | URL, sub?: string): Promise<URL>;
  /** Stops the server. */
  stop(): Promise<void>;
}

const CLIENT_ID = 'framework-test-app';

function signingJwk(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

/**
 * Starts a local OpenID Provider (authorization code flow with PKCE, discovery, JWKS, UserInfo) on 127.0.0.1:0.
 * It has one confidential client, whose callbacks are those {@link LocalIdp.provider} registered. Needs the
 * `oidc-provider` package (an optional peer, loaded on first use). Stop it in `afterAll`.
 *
 * @example
 * ```ts
 * const idp = await createLocalIdp();
 * idp.addUser({ sub: 'ada', email: 'ada@example.com', name: 'Ada' });
 * const ctx = await createTestContext({
 *   createApp: (db, { origin }) =>
 *     createAuth({ baseURL: origin, adapter: db.adapter, providers: [idp.provider({ origin })] }),
 * });
 * const toIdp = await ctx.fetch('/auth/signin/local-idp', { method: 'POST', body: form });
 * const back = await idp.authorize(toIdp.headers.get('location')!, 'ada');
 * await ctx.fetch(back.pathname + back.search); // signed in as ada@example.com
 * ```
 */
export async function createLocalIdp(options: LocalIdpOptions = {}): Promise<LocalIdp> {
  const { default: OidcProvider } = await import('oidc-provider');
  const users = new Map<string, LocalIdpUser>();
  const redirectUris = new Set<string>();
  const clientSecret = randomBytes(24).toString('base64url');
  const jwk = signingJwk();
  const cookieKey = randomBytes(32).toString('base64url');
  let loginAs: string | undefined;
  let provider: Provider | undefined;

  const server = createServer((req, res) => void dispatch(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const findAccount: Configuration['findAccount'] = (_ctx, sub) => {
    const user = users.get(sub);
    return user ? { accountId: sub, claims: () => ({ ...users.get(sub), sub }) } : undefined;
  };

  /** The provider for the callbacks registered so far (rebuilt when one is added; its storage is in memory). */
  function current(): Provider {
    provider ??= new OidcProvider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: clientSecret,
          redirect_uris: [...redirectUris],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      findAccount,
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', ...(options.claims ?? [])],
      },
      features: { devInteractions: { enabled: false } },
      jwks: { keys: [jwk as never] },
      cookies: { keys: [cookieKey] },
      pkce: { required: () => true },
      renderError(ctx, out) {
        ctx.type = 'json';
        ctx.body = out;
      },
    });
    return provider;
  }

  function chosenUser(): string {
    const sub = loginAs ?? (users.size === 1 ? [...users.keys()][0] : undefined);
    if (sub === undefined || !users.has(sub))
      throw new Error(`local IdP: no user to sign in as (signInAs(sub) one of: ${[...users.keys()].join(', ')})`);
    return sub;
  }

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const op = current();
    const details = await op.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const result = { login: { accountId: chosenUser() } };
      await op.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new op.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const result = { consent: { grantId: await grant.save() } };
    await op.interactionFinished(req, res, result, { mergeWithLastSubmission: true });
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (req.method === 'GET' && req.url?.startsWith('/interaction/')) await interaction(req, res);
      else await current().callback()(req, res);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(error instanceof Error ? error.message : 'error');
    }
  }

  return {
    issuer,
    users,
    addUser(user) {
      const stored = { email_verified: true, ...user };
      users.set(user.sub, stored);
      return stored;
    },
    provider({ origin, basePath = '/auth', id = 'local-idp', name = 'Local IdP', trustEmail = true }) {
      redirectUris.add(`${new URL(origin).origin}${basePath}/callback/${id}`);
      provider = undefined;
      return createOAuth2Provider({ id, name, issuer, clientId: CLIENT_ID, clientSecret, trustEmail });
    },
    signInAs(sub) {
      loginAs = sub;
    },
    async authorize(url, sub) {
      if (sub !== undefined) loginAs = sub;
      const jar = new CookieJar();
      let next = new URL(url);
      for (let hop = 0; hop < 10 && next.origin === issuer; hop += 1) {
        const res = await fetch(next, {
          redirect: 'manual',
          headers: { cookie: await jar.getCookieString(next.href) },
        });
        for (const line of res.headers.getSetCookie()) await jar.setCookie(line, next.href, { ignoreError: true });
        const location = res.headers.get('location');
        if (!location) throw new Error(`local IdP answered ${res.status} without a redirect: ${await res.text()}`);
        next = new URL(location, next);
      }
      if (next.origin === issuer) throw new Error('local IdP: too many redirects');
      return next;
    },
    stop() {
      const closed = new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
      server.closeAllConnections();
      return closed;
    },
  };
}
