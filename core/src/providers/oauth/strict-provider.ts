/**
 * Test harness: a standards-strict OpenID Provider run in-process on
 * 127.0.0.1:0, built on `oidc-provider` (the OpenID-certified Node
 * implementation), so the kit is checked against an implementation we did
 * not write. Configured like a strict provider (OIDC Core §5.4): in the code
 * flow the ID token carries only `sub` and the protocol claims, and `email`,
 * `email_verified` and `name` come only from the UserInfo endpoint.
 *
 * Login and consent are answered by the harness (no pages): {@link
 * StrictProvider.authorize} follows the provider's redirects with its own
 * cookie jar, signs in as the given subject, and returns the redirect back to
 * the app.
 * @internal
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, {
  type AdapterFactory,
  type AdapterPayload,
  type ClientMetadata,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';

export interface StrictAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  /** A non-standard claim released with the `profile` scope (UserInfo only), for role mappings. */
  groups?: string[];
}

/**
 * The registered clients: `plain` gets JSON UserInfo, `signed` gets signed (`application/jwt`, RS256)
 * UserInfo, `post` sends its secret in the body.
 */
export const STRICT_CLIENTS = {
  plain: { clientId: 'kit-strict', clientSecret: 'kit-strict-secret-0123456789' },
  signed: { clientId: 'kit-strict-jwt', clientSecret: 'kit-strict-jwt-secret-0123456789' },
  /** Authenticates with `client_secret_post`. */
  post: { clientId: 'kit-strict-post', clientSecret: 'kit-strict-post-secret-0123456789' },
} as const;

type TokenBody = Record<string, unknown>;

export interface StrictProvider {
  issuer: string;
  /** Accounts known to the provider, by `sub`. */
  accounts: Map<string, StrictAccount>;
  /**
   * Subjects whose access token the UserInfo endpoint refuses (the account is gone there): it answers 401
   * `invalid_token`.
   */
  userinfoRefused: Set<string>;
  /** Rewrites the next token endpoint response body (e.g. to substitute another user's access token). */
  rewriteNextTokenResponse(fn: (body: TokenBody) => TokenBody): void;
  /** Replaces the signing key: the JWKS then holds only a new key (new `kid`), which signs every new token. */
  rotateKeys(): Promise<void>;
  /** The `kid`s the provider publishes now. */
  kids(): string[];
  /** Runs the authorization request at the provider as `sub`; returns the redirect to the app's callback. */
  authorize(url: URL, sub: string): Promise<URL>;
  stop(): Promise<void>;
}

type Stored = { payload: AdapterPayload; expiresAt: number };

/**
 * oidc-provider storage in plain Maps, one per harness (so nothing is shared between test files or key
 * rotations' providers).
 */
function mapAdapter(): AdapterFactory {
  const stores = new Map<string, Map<string, Stored>>();
  const all = () => [...stores.values()];
  return (name) => {
    const store = stores.get(name) ?? new Map<string, Stored>();
    stores.set(name, store);
    const read = (id: string) => {
      const hit = store.get(id);
      if (!hit || hit.expiresAt <= Date.now()) return undefined;
      return hit.payload;
    };
    return {
      async upsert(id, payload, expiresIn) {
        store.set(id, { payload, expiresAt: Date.now() + (expiresIn ?? 3600) * 1000 });
      },
      find: async (id) => read(id),
      findByUserCode: async (code) => [...store.keys()].map(read).find((p) => p?.userCode === code),
      findByUid: async (uid) => [...store.keys()].map(read).find((p) => p?.uid === uid),
      async consume(id) {
        const hit = read(id);
        if (hit) hit.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const s of all()) for (const [id, hit] of s) if (hit.payload.grantId === grantId) s.delete(id);
      },
    };
  };
}

async function signingKey(): Promise<Record<string, unknown>> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' };
}

/** Starts the provider. `redirectUris` are the app callbacks the clients may use. */
export async function startStrictProvider(redirectUris: string[]): Promise<StrictProvider> {
  const accounts = new Map<string, StrictAccount>();
  const userinfoRefused = new Set<string>();
  let tokenRewrite: ((body: TokenBody) => TokenBody) | undefined;
  let loginAs: string | undefined;
  const adapter = mapAdapter();

  const server = createServer((req, res) => void dispatch(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const findAccount: Configuration['findAccount'] = (ctx, id) => {
    const account = accounts.get(id);
    if (!account) return undefined;
    if ((ctx as KoaContextWithOIDC).oidc?.route === 'userinfo' && userinfoRefused.has(id)) return undefined;
    return { accountId: id, claims: () => ({ ...account, sub: id }) };
  };

  function build(jwk: Record<string, unknown>): Provider {
    const common: Omit<ClientMetadata, 'client_id'> = {
      redirect_uris: redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
    const provider = new Provider(issuer, {
      adapter,
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
      clients: [
        { client_id: STRICT_CLIENTS.plain.clientId, client_secret: STRICT_CLIENTS.plain.clientSecret, ...common },
        {
          client_id: STRICT_CLIENTS.signed.clientId,
          client_secret: STRICT_CLIENTS.signed.clientSecret,
          userinfo_signed_response_alg: 'RS256',
          ...common,
        },
        {
          client_id: STRICT_CLIENTS.post.clientId,
          client_secret: STRICT_CLIENTS.post.clientSecret,
          ...common,
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      findAccount,
      // Scope-requested claims go to UserInfo only (the default, stated here on purpose).
      conformIdTokenClaims: true,
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
      features: { devInteractions: { enabled: false }, userinfo: { enabled: true }, jwtUserinfo: { enabled: true } },
      jwks: { keys: [jwk as never] },
      cookies: { keys: ['strict-provider-cookie-key-0123456789'] },
      pkce: { required: () => true },
      responseTypes: ['code'],
      renderError(ctx, out) {
        ctx.type = 'json';
        ctx.body = out;
      },
    });
    provider.use(async (ctx, next) => {
      await next();
      if (tokenRewrite && ctx.oidc?.route === 'token' && ctx.status === 200) {
        ctx.body = tokenRewrite(ctx.body as TokenBody);
        tokenRewrite = undefined;
      }
    });
    return provider;
  }

  let current = { jwk: await signingKey(), provider: undefined as unknown as Provider };
  current.provider = build(current.jwk);

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const provider = current.provider;
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (!loginAs) throw new Error('no subject to sign in as');
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: loginAs } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({
      accountId: details.session!.accountId,
      clientId: details.params.client_id as string,
    });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (req.method === 'GET' && req.url?.startsWith('/interaction/')) await interaction(req, res);
      else await current.provider.callback()(req, res);
    } catch (error) {
      res.statusCode = 500;
      res.end(error instanceof Error ? error.message : 'error');
    }
  }

  return {
    issuer,
    accounts,
    userinfoRefused,
    rewriteNextTokenResponse(fn) {
      tokenRewrite = fn;
    },
    async rotateKeys() {
      const jwk = await signingKey();
      current = { jwk, provider: build(jwk) };
    },
    kids: () => [String(current.jwk.kid)],
    async authorize(url, sub) {
      loginAs = sub;
      const jar = new Map<string, string>();
      let next = url;
      for (let hop = 0; hop < 10; hop++) {
        if (next.origin !== issuer) return next;
        const res = await fetch(next, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of res.headers.getSetCookie()) {
          const pair = line.split(';')[0]!;
          const eq = pair.indexOf('=');
          const value = pair.slice(eq + 1);
          if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(pair.slice(0, eq));
          else jar.set(pair.slice(0, eq), value);
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`provider answered ${res.status} without a redirect: ${await res.text()}`);
        next = new URL(location, next);
      }
      throw new Error('too many redirects at the provider');
    },
    stop() {
      const closed = new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
      server.closeAllConnections();
      return closed;
    },
  };
}
