/**
 * `createTenantResolver`: which tenant a request is for.
 * @module
 */
import { AuthConfigError, ForbiddenError, UnauthenticatedError } from '../errors.js';
import type { User } from '../types.js';
import { TenantNotFoundError } from './errors.js';
import { cookieReader, headerReader, pathReader, subdomainReader, type KeyReader } from './strategies.js';
import type { Tenant, TenantMembership, TenantStorage } from './types.js';

/** Options of {@link createTenantResolver} (spec: "TenantResolverOptions"). */
export interface TenantResolverOptions {
  /** Where the request names its tenant. */
  strategy: 'subdomain' | 'path' | 'header' | 'cookie';
  /** `subdomain` (required there): the domain tenants live under, e.g. `example.com` (IDN allowed; no port). */
  baseDomain?: string;
  /** `path`: the prefix before the slug. Default `/t/`. Must start and end with `/`. */
  pathPrefix?: string;
  /** `header`: the header holding the tenant id or slug. Default `X-Tenant-ID`. */
  headerName?: string;
  /** `cookie`: the cookie holding the tenant id or slug. Default `tenant`. */
  cookieName?: string;
}

/** The resolver returned by {@link createTenantResolver}. */
export interface TenantResolver {
  /** The request's tenant, or null when the request names none or an unknown one. */
  resolve(request: Request): Promise<Tenant | null>;
  /**
   * The request's tenant.
   * @throws TenantNotFoundError (`TENANT_NOT_FOUND`, 404) when there is none.
   */
  require(request: Request): Promise<{ tenant: Tenant }>;
  /**
   * The request's tenant and the user's membership of it. Pair the `header`
   * and `cookie` strategies with this check: the client chooses their value.
   * @throws TenantNotFoundError (404) when the request names no known
   *   tenant; UnauthenticatedError (`UNAUTHENTICATED`, 401) without a user;
   *   ForbiddenError (`FORBIDDEN`, 403) when the user is not a member.
   */
  requireMember(
    request: Request,
    user: Pick<User, 'id'> | null | undefined,
  ): Promise<{ tenant: Tenant; membership: TenantMembership }>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const fail = (message: string): never => {
  throw new AuthConfigError(`Invalid tenant resolver options: ${message}`);
};

/** The base domain in the form request hosts take (lowercase, punycode), or a config error. */
function normalizeBaseDomain(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    return fail('the "subdomain" strategy needs baseDomain, e.g. "example.com"');
  const trimmed = value.trim().replace(/^\./, '').replace(/\.$/, '');
  let host = '';
  try {
    const url = new URL(`http://${trimmed}`);
    if (url.port === '' && url.pathname === '/' && url.username === '' && !url.search && !url.hash) host = url.hostname;
  } catch {
    // reported below
  }
  const ip = host.includes('[') || /^[\d.]+$/.test(host);
  if (!host || ip || (!host.includes('.') && host !== 'localhost'))
    return fail(`baseDomain must be a domain name such as "example.com"; got ${JSON.stringify(value)}`);
  return host;
}

function reader(options: TenantResolverOptions): KeyReader {
  switch (options.strategy) {
    case 'subdomain':
      return subdomainReader(normalizeBaseDomain(options.baseDomain));
    case 'path': {
      const prefix = options.pathPrefix ?? '/t/';
      const dotSegment = /\/\.{1,2}\//;
      if (typeof prefix !== 'string' || !/^\/(?:[A-Za-z0-9._~-]+\/)*$/.test(prefix) || dotSegment.test(prefix))
        fail(`pathPrefix must start and end with "/", e.g. "/t/"; got ${JSON.stringify(prefix)}`);
      return pathReader(prefix);
    }
    case 'header': {
      const name = options.headerName ?? 'X-Tenant-ID';
      if (typeof name !== 'string' || !TOKEN.test(name))
        fail(`headerName must be an HTTP header name; got ${JSON.stringify(name)}`);
      return headerReader(name);
    }
    case 'cookie': {
      const name = options.cookieName ?? 'tenant';
      if (typeof name !== 'string' || !TOKEN.test(name))
        fail(`cookieName must be a cookie name; got ${JSON.stringify(name)}`);
      return cookieReader(name);
    }
    default:
      return fail(
        `strategy must be "subdomain", "path", "header" or "cookie"; got ${JSON.stringify((options as { strategy?: unknown }).strategy)}`,
      );
  }
}

/**
 * Creates a resolver that finds the tenant a request is for (spec:
 * "Multi-tenancy"), by one strategy:
 * - `subdomain`: `acme.example.com` with `baseDomain: 'example.com'`. Only a
 *   single label directly under the base domain, on a dot boundary
 *   (`evilexample.com` never matches `example.com`); the bare domain and
 *   `www` give no tenant. Hosts compare lowercased with IDNs in punycode,
 *   ports and one trailing dot ignored. The host is the request URL's, which
 *   adapters build from `Host`; behind a proxy, make sure it forwards `Host`.
 * - `path`: `/t/acme/…` (`pathPrefix`, default `/t/`), after URL
 *   normalization (`..` segments resolved).
 * - `header` (`headerName`, default `X-Tenant-ID`) or `cookie`
 *   (`cookieName`, default `tenant`): a tenant id or slug. The client picks
 *   these freely: check membership with `requireMember`.
 *
 * Slugs from a host or path are lowercased, then must be valid slugs
 * (`isValidTenantSlug`); anything else resolves to null without a storage
 * lookup.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at creation for an unknown
 *   strategy, a missing or malformed `baseDomain`, or a malformed prefix,
 *   header or cookie name.
 * @example
 * ```ts
 * import { createTenantResolver, createMemoryTenantStorage } from '@framework/auth/tenant';
 *
 * const tenants = createTenantResolver(storage, { strategy: 'subdomain', baseDomain: 'example.com' });
 * app.use('*', async (c, next) => {
 *   const { tenant } = await tenants.require(c.req.raw); // 404 TENANT_NOT_FOUND otherwise
 *   c.set('tenant', tenant);
 *   await next();
 * });
 * ```
 */
export function createTenantResolver(storage: TenantStorage, options: TenantResolverOptions): TenantResolver {
  if (!storage || typeof storage.get !== 'function') fail('the first argument must be a tenant storage');
  if (!options || typeof options !== 'object') fail('expected { strategy, ... }');
  const read = reader(options);

  const resolver: TenantResolver = {
    async resolve(request) {
      const key = read(request);
      return key === null ? null : storage.get(key);
    },
    async require(request) {
      const tenant = await resolver.resolve(request);
      if (!tenant) throw new TenantNotFoundError();
      return { tenant };
    },
    async requireMember(request, user) {
      const { tenant } = await resolver.require(request);
      if (!user || typeof user.id !== 'string' || user.id === '') throw new UnauthenticatedError();
      const membership = await storage.getMember(tenant.id, user.id);
      if (!membership) throw new ForbiddenError('You are not a member of this tenant');
      return { tenant, membership };
    },
  };
  return Object.freeze(resolver);
}
