/**
 * The route registry: the core's routes plus every plugin's, checked for
 * conflicts once, at `createAuth`.
 * @internal
 * @module
 */
import { AuthConfigError } from '../errors.js';
import type { RouteContext } from '../routes/context.js';
import type { AuthHooks, AuthPlugin, PluginRoute } from './types.js';

/**
 * A route in the table: per method, its CSRF policy and limiter; `withProvider` routes take exactly one extra
 * path segment.
 */
export interface Route extends PluginRoute {
  withProvider?: boolean;
  /** POSTs that skip the CSRF checks for this request (the OAuth callback: state + PKCE + flow cookie). */
  csrfExempt?: (ctx: RouteContext) => boolean;
}

export interface Match {
  route: Route;
  providerId?: string;
}

/** The merged route table and the hooks of every plugin, by kind. */
export interface Registry {
  match(rest: string): Match | null;
  readonly hooks: { [K in keyof AuthHooks]-?: NonNullable<AuthHooks[K]>[] };
}

const PATH = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

/**
 * Builds the registry.
 * @throws AuthConfigError (`INVALID_CONFIG`) on a duplicate plugin id, a
 *   malformed path, or a path two parties claim.
 */
export function buildRegistry(core: Readonly<Record<string, Route>>, plugins: readonly AuthPlugin[]): Registry {
  const routes = new Map<string, Route>(Object.entries(core));
  const owner = new Map<string, string>([...routes.keys()].map((p) => [p, 'the core']));
  const ids = new Set<string>();
  const hooks: Registry['hooks'] = {
    beforeSession: [],
    afterSignIn: [],
    resolveSession: [],
    checkCredential: [],
    credentialsReset: [],
    userDeleted: [],
    beforeUserDelete: [],
    signedOut: [],
    onEvent: [],
    requestRoles: [],
  };
  for (const plugin of plugins) {
    if (!plugin || typeof plugin !== 'object' || typeof plugin.id !== 'string' || plugin.id === '') {
      throw new AuthConfigError('Invalid auth config: every plugin needs a non-empty string `id`');
    }
    if (ids.has(plugin.id)) throw new AuthConfigError(`Invalid auth config: two plugins have the id "${plugin.id}"`);
    ids.add(plugin.id);
    for (const [path, route] of Object.entries(plugin.routes ?? {})) {
      if (!PATH.test(path))
        throw new AuthConfigError(
          `Invalid auth config: plugin "${plugin.id}": route path "${path}" must be lower-case segments such as "two-factor/verify"`,
        );
      if (!route.GET && !route.POST)
        throw new AuthConfigError(
          `Invalid auth config: plugin "${plugin.id}": route "${path}" has neither GET nor POST`,
        );
      if (route.csrf !== undefined && route.csrf !== 'token' && route.csrf !== 'origin' && route.csrf !== 'none') {
        throw new AuthConfigError(
          `Invalid auth config: plugin "${plugin.id}": route "${path}" has csrf ${JSON.stringify(route.csrf)}; use "token", "origin" or "none"`,
        );
      }
      const taken =
        owner.get(path) ??
        (path.split('/').length === 2 && routes.get(`${path.split('/')[0]}/:provider`) ? 'the core' : undefined);
      if (taken)
        throw new AuthConfigError(
          `Invalid auth config: plugin "${plugin.id}": route "${path}" is already served by ${taken}`,
        );
      routes.set(path, route);
      owner.set(path, `plugin "${plugin.id}"`);
    }
    for (const kind of Object.keys(hooks) as (keyof AuthHooks)[]) {
      const hook = plugin.hooks?.[kind];
      if (hook) (hooks[kind] as unknown[]).push(hook);
    }
  }

  return {
    hooks,
    match(rest) {
      const segments = rest.split('/').filter((s) => s.length > 0);
      const exact = routes.get(segments.join('/'));
      if (exact && !exact.withProvider) return { route: exact };
      if (segments.length !== 2) return null;
      const route = routes.get(`${segments[0]}/:provider`);
      if (!route) return null;
      try {
        return { route, providerId: decodeURIComponent(segments[1]!) };
      } catch {
        return null;
      }
    },
  };
}

/** The methods a route allows, for `Allow` on 405. */
export function allowedMethods(route: Route): string[] {
  const out: string[] = [];
  if (route.GET) out.push('GET', 'HEAD');
  if (route.POST) out.push('POST');
  return out;
}
