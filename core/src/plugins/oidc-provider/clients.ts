/**
 * The provider's clients: lookup (code-registered first, then stored), creation, and client authentication at
 * the token, revocation and introspection endpoints (RFC 6749 §2.3: `client_secret_basic`, `client_secret_post`,
 * or `none` for public clients).
 * @module
 * @internal
 */
import type { AuthClock } from '../../index.js';
import { randomString, sha256Hex, timingSafeEqual, type RouteContext } from '../../plugin-kit.js';
import {
  checkClient,
  type NewClientInput,
  type OidcClientOptions,
  type ResolvedOidcProviderOptions,
} from './options.js';
import { OAuthError } from './oauth-error.js';
import type { OidcClientRecord } from './types.js';

/** The client lookup and authentication of one provider. */
export interface Clients {
  find(clientId: string): Promise<OidcClientRecord | null>;
  /** Registers (or replaces) a client in storage; answers the record and, for a confidential client, its secret. */
  create(input: NewClientInput): Promise<{
    client: OidcClientRecord;
    clientSecret: string | undefined;
  }>;
  /**
   * Authenticates the client of a token-endpoint request.
   * @throws OAuthError `invalid_client` (401) for an unknown client, a wrong or missing secret, a public client
   *   that sends a secret, or two authentication methods at once.
   */
  authenticate(ctx: RouteContext): Promise<OidcClientRecord>;
}

async function record(c: OidcClientOptions, scopes: readonly string[], createdAt: Date): Promise<OidcClientRecord> {
  return {
    id: c.clientId,
    secretHash: c.clientSecret === undefined ? null : await sha256Hex(c.clientSecret),
    public: c.clientSecret === undefined,
    name: c.name,
    redirectUris: [...c.redirectUris],
    postLogoutRedirectUris: [...(c.postLogoutRedirectUris ?? [])],
    scopes: [...(c.scopes ?? scopes)],
    skipConsent: c.skipConsent ?? false,
    createdAt,
  };
}

/** `client_id:client_secret` of a Basic header (each form-urlencoded, RFC 6749 §2.3.1), or undefined. */
function basicCredentials(request: Request): { id: string; secret: string } | undefined | null {
  const header = request.headers.get('authorization');
  if (!header) return undefined;
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!match) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(match[1]!), (ch) => ch.charCodeAt(0)),
    );
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/** The client registry over `o`'s code-registered clients and storage. */
export function createClients(o: ResolvedOidcProviderOptions, clock: AuthClock): Clients {
  const configured = new Map<string, Promise<OidcClientRecord>>();
  const start = new Date(clock.now());
  for (const c of o.clients) configured.set(c.clientId, record(c, o.scopes, start));

  const find = async (clientId: string) => (await configured.get(clientId)) ?? o.storage.getClient(clientId);

  return {
    find,
    async create(input) {
      const clientId = input.clientId ?? `c_${randomString(12)}`;
      const clientSecret = input.public ? undefined : randomString(32);
      const options: OidcClientOptions = { ...input, clientId, ...(clientSecret ? { clientSecret } : {}) };
      checkClient(options, o.scopes, 'createClient');
      const client = await record(options, o.scopes, new Date(clock.now()));
      await o.storage.putClient(client);
      return { client, clientSecret };
    },
    async authenticate(ctx) {
      const invalid = (basic: boolean) =>
        new OAuthError(
          'invalid_client',
          'Client authentication failed',
          401,
          basic ? { 'www-authenticate': 'Basic' } : {},
        );
      const basic = basicCredentials(ctx.request);
      if (basic === null) throw invalid(true);
      const bodyId = ctx.body.client_id;
      const bodySecret = ctx.body.client_secret;
      if (basic && (bodySecret !== undefined || (bodyId !== undefined && bodyId !== basic.id))) throw invalid(true);
      const id = basic?.id ?? bodyId;
      const secret = basic?.secret ?? bodySecret;
      if (!id) throw invalid(Boolean(basic));
      const client = await find(id);
      if (!client) throw invalid(Boolean(basic));
      if (client.public) {
        // A public client has no secret: one that sends a secret is not who it claims (RFC 6749 §2.3).
        if (secret !== undefined) throw invalid(Boolean(basic));
        return client;
      }
      if (secret === undefined || !client.secretHash) throw invalid(Boolean(basic));
      if (!timingSafeEqual(await sha256Hex(secret), client.secretHash)) throw invalid(Boolean(basic));
      return client;
    },
  };
}
