/**
 * The route registry: every plugin's routes (the built-in sign-in and account routes are plugins too, registered
 * first), checked for conflicts once, at `createAuth`, and matched once per request.
 * @internal
 * @module
 */
import { AuthConfigError } from '../errors.js';
import type { AuthHooks, AuthPlugin, Match, Registry, Route } from '../contract/types.js';

// Lower-case segments; the first may be `.well-known` (RFC 8615), for discovery documents under `basePath`.
const PATH = /^(\.well-known\/)?[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*(\/:provider)?$/;
const PROVIDER = '/:provider';
/** The built-in route plugins, named "the core" in conflict messages. */
const BUILT_IN = new Set(['core', 'account']);

function emptyHooks(): Registry['hooks'] {
  return {
    beforeAction: [],
    checkNewPassword: [],
    beforeSession: [],
    afterSignIn: [],
    lastUsedMethod: [],
    signInReplaced: [],
    afterAction: [],
    relaxCsrf: [],
    resolveSession: [],
    checkCredential: [],
    credentialsReset: [],
    userDeleted: [],
    beforeUserDelete: [],
    signedOut: [],
    onEvent: [],
    requestRoles: [],
  };
}

function checkRoute(id: string, path: string, route: Route): void {
  const where = `Invalid auth config: plugin "${id}": route "${path}"`;
  if (!PATH.test(path))
    throw new AuthConfigError(
      `Invalid auth config: plugin "${id}": route path "${path}" must be lower-case segments such as "two-factor/verify"`,
    );
  if (!route.GET && !route.POST) throw new AuthConfigError(`${where} has neither GET nor POST`);
  if (route.csrf !== undefined && route.csrf !== 'token' && route.csrf !== 'origin' && route.csrf !== 'none')
    throw new AuthConfigError(`${where} has csrf ${JSON.stringify(route.csrf)}; use "token", "origin" or "none"`);
}

/** The registered path `path` overlaps, if any: `x/:provider` and every `x/<one segment>` overlap. */
function conflictOf(routes: ReadonlyMap<string, Route>, path: string): string | undefined {
  if (routes.has(path)) return path;
  const segments = path.split('/');
  if (path.endsWith(PROVIDER)) {
    const prefix = path.slice(0, -PROVIDER.length);
    return [...routes.keys()].find((p) => p.split('/').length === segments.length && p.startsWith(`${prefix}/`));
  }
  const provider = [...segments.slice(0, -1), ':provider'].join('/');
  return routes.has(provider) ? provider : undefined;
}

/**
 * Builds the registry.
 * @throws AuthConfigError (`INVALID_CONFIG`) on a duplicate plugin id, a
 *   malformed path, or a path two parties claim.
 */
export function buildRegistry(plugins: readonly AuthPlugin[], basePath: string): Registry {
  const routes = new Map<string, Route>();
  const owner = new Map<string, string>();
  const ids = new Set<string>();
  const hooks = emptyHooks();
  for (const plugin of plugins) {
    if (!plugin || typeof plugin !== 'object' || typeof plugin.id !== 'string' || plugin.id === '') {
      throw new AuthConfigError('Invalid auth config: every plugin needs a non-empty string `id`');
    }
    if (ids.has(plugin.id)) throw new AuthConfigError(`Invalid auth config: two plugins have the id "${plugin.id}"`);
    ids.add(plugin.id);
    for (const [path, route] of Object.entries(plugin.routes ?? {})) {
      checkRoute(plugin.id, path, route);
      const conflict = conflictOf(routes, path);
      if (conflict !== undefined) {
        const taken = owner.get(conflict);
        throw new AuthConfigError(
          `Invalid auth config: plugin "${plugin.id}": route "${path}" is already served by ${taken}`,
        );
      }
      routes.set(path, route);
      owner.set(path, BUILT_IN.has(plugin.id) ? 'the core' : `plugin "${plugin.id}"`);
    }
    for (const kind of Object.keys(hooks) as (keyof AuthHooks)[]) {
      const hook = plugin.hooks?.[kind];
      if (hook) (hooks[kind] as unknown[]).push(hook);
    }
  }

  return {
    hooks,
    match(path): Match | null {
      if (path !== basePath && !path.startsWith(`${basePath}/`)) return null;
      const segments = path
        .slice(basePath.length)
        .split('/')
        .filter((s) => s.length > 0);
      const key = segments.join('/');
      const exact = routes.get(key);
      if (exact && !key.endsWith(PROVIDER)) return { route: exact, template: `${basePath}/${key}` };
      if (segments.length < 2) return null;
      const template = [...segments.slice(0, -1), ':provider'].join('/');
      const route = routes.get(template);
      if (!route) return null;
      try {
        return { route, template: `${basePath}/${template}`, providerId: decodeURIComponent(segments.at(-1)!) };
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
  if (route.OPTIONS) out.push('OPTIONS');
  return out;
}
