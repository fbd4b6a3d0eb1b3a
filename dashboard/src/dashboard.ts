/**
 * `createDashboard`: one Web Request → Response handler for everything under
 * `basePath` (default `/_framework`), guarded by {@link decideAccess}.
 * @module
 */
import { authActivityOf } from './auth-plugins.js';
import type { TriggerRuntime } from '@framework/trigger';
import { decideAccess, type DashboardAuth } from './access.js';
import { assetResponse } from './assets.js';
import type { AuthActivitySources } from './auth-activity.js';
import { createCsrfGuard } from './csrf.js';
import { createRunHistory, type RunHistory, type RunHistoryOptions } from './history.js';
import type { PageContext } from './html.js';
import { refusal } from './responses.js';
import { handlePost } from './actions.js';
import { renderGet } from './pages.js';

/** The parts of a `TriggerRuntime` the dashboard reads and acts on. */
export type DashboardRuntime = Pick<
  TriggerRuntime,
  'name' | 'definitions' | 'onRun' | 'inspectQueues' | 'replay' | 'discard' | 'pause' | 'resume' | 'events'
> &
  Partial<Pick<TriggerRuntime, 'getSteps'>>;

/** Options of {@link createDashboard}. */
export interface DashboardOptions {
  /** The trigger runtime to show. Without it the triggers view is empty. */
  runtime?: DashboardRuntime;
  /** The auth engine: required in production, where it checks the signed-in user's role. */
  auth?: DashboardAuth;
  /** Where the dashboard is served. Default `/_framework`. */
  basePath?: string;
  /** Default: `'production'` when `NODE_ENV` is `production`, else `'development'`. */
  mode?: 'development' | 'production';
  /** Whether the dashboard answers at all. Default: `true` in development, `false` in production (opt in). */
  enabled?: boolean;
  /** Roles that may open it in production (any of them). Default `'admin'`. */
  role?: string | string[];
  /** Permissions that may open it in production (any of them); replaces the role check when set. */
  permission?: string | string[];
  /**
   * Whether a session read from an API key (any credential an auth plugin reads per request, not the session
   * cookie) may open it in production. Default `false`: such requests answer 403 `API_KEY_NOT_ALLOWED`, whatever
   * the key's owner may do. When `true`, the key must still pass `role` / `permission` as restricted by the key.
   */
  allowApiKeys?: boolean;
  /** Key of the CSRF tokens (any string). Default: the auth's first `secret`, else a random key per process. */
  secret?: string;
  /** Origins accepted on POSTs besides the request URL's own, e.g. the public origin behind a TLS-terminating proxy. */
  trustedOrigins?: string[];
  /** Run history bounds (see {@link RunHistoryOptions}), or a history to share. */
  history?: RunHistoryOptions | RunHistory;
  /**
   * Data sources of the Auth view. Default: read from `auth` (its adapter's active-session count, and the
   * `auditLog()` plugin's entries when installed).
   */
  authActivity?: AuthActivitySources;
  /** A link shown in the navigation, e.g. where bull-board is mounted. */
  bullBoardPath?: string;
  /** Seconds between background refreshes of the counts (with JavaScript). Default 5; 0 disables. */
  refreshSeconds?: number;
}

/** Request details only the adapter knows. */
export interface DashboardRequestInfo {
  /** The client's IP address as seen on the socket (never from a header). */
  ip?: string | undefined;
}

/** A created dashboard. */
export interface Dashboard {
  readonly basePath: string;
  readonly enabled: boolean;
  /** The run history fed by the runtime (`undefined` without a runtime). */
  readonly history: RunHistory | undefined;
  /**
   * Serves a request under `basePath`; resolves `null` for other paths, for
   * paths under `basePath` that are not its own once access is granted (so an
   * app can mount more pages there, e.g. bull-board), and when the dashboard
   * is disabled, so adapters fall through. Never rejects.
   */
  fetch(request: Request, info?: DashboardRequestInfo): Promise<Response | null>;
  /**
   * The dashboard's access check alone, for pages mounted beside it (e.g.
   * bull-board): `null` when the request may pass, else the refusal (401 /
   * 403) to send. Never rejects.
   */
  authorize(request: Request, info?: DashboardRequestInfo): Promise<Response | null>;
  /**
   * Ends live streams, stops recording runs and writes those waiting for the history's store. A history passed
   * in as `options.history` is left open (it may be shared).
   */
  close(): Promise<void>;
}

/**
 * Creates the dashboard: a triggers view (definitions, next schedule
 * occurrences, recent runs with their logs, queue counts, dead letters with
 * replay and discard, a throughput chart) and an Auth view, as server-rendered
 * HTML that works without JavaScript. Every request is checked: in
 * development only loopback clients (no forwarding headers, loopback Host) may
 * open it; in production only a signed-in user with `role` (default `admin`)
 * or `permission`, answering 401 `UNAUTHENTICATED` / 403 `FORBIDDEN`
 * otherwise, and 403 `API_KEY_NOT_ALLOWED` to an API key session unless
 * `allowApiKeys`. POSTs need the form's CSRF token (signed double submit) and a
 * same-origin `Origin`, else 403 `CSRF_TOKEN_INVALID` / `CSRF_ORIGIN_MISMATCH`.
 *
 * @throws TypeError when enabled in production without `auth`, or `basePath` is not an absolute path.
 * @example
 * ```ts
 * const dashboard = createDashboard({ runtime, auth, enabled: true, secret: process.env.AUTH_SECRET });
 * const response = await dashboard.fetch(request, { ip }); // null: not a dashboard path
 * ```
 */
export function createDashboard(options: DashboardOptions = {}): Dashboard {
  const basePath = (options.basePath ?? '/_framework').replace(/\/+$/, '');
  if (!/^\/[\w./-]*$/.test(basePath) || basePath.includes('..'))
    throw new TypeError(`createDashboard: basePath must be an absolute path, got ${JSON.stringify(options.basePath)}`);
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const mode = options.mode ?? (env.NODE_ENV === 'production' ? 'production' : 'development');
  const enabled = options.enabled ?? mode === 'development';
  if (enabled && mode === 'production' && !options.auth)
    throw new TypeError('createDashboard: production mode needs `auth` to check the signed-in user');
  const runtime = options.runtime;
  const history = runtime
    ? isHistory(options.history)
      ? options.history
      : createRunHistory(runtime, options.history ?? {})
    : undefined;
  // Cookies follow the auth's session cookie (Secure on HTTPS deployments); the key defaults to the auth
  // secret, so tokens hold across instances.
  const secure = options.auth ? options.auth.config.cookies.sessionToken.options.secure : mode === 'production';
  const secret = options.secret ?? options.auth?.config.secret[0];
  const csrf = createCsrfGuard({
    secret,
    cookiePath: basePath,
    secure,
    ...(options.trustedOrigins ? { trustedOrigins: options.trustedOrigins } : {}),
  });
  const streams = new Set<() => void>();
  const policy = {
    mode,
    auth: options.auth,
    role: options.role ?? 'admin',
    permission: options.permission,
    allowApiKeys: options.allowApiKeys === true,
  };
  // Without explicit sources, the Auth view reads what the auth instance has: its adapter and the auditLog() plugin.
  const authActivity = options.authActivity ?? (options.auth ? authActivityOf(options.auth) : {});
  const deps = { runtime, history, authActivity, streams };

  async function serve(request: Request, info: DashboardRequestInfo): Promise<Response | null> {
    const url = new URL(request.url);
    if (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return null;
    const path = url.pathname.slice(basePath.length) || '/';
    const access = await decideAccess(request, info.ip, policy);
    if (!access.allowed)
      return withHeaders(refusal(request, access.status, access.code, access.message, access.signIn), access.headers);
    if (!KNOWN_PATHS.test(path)) return null;
    if (request.method === 'GET' && path.startsWith('/assets/'))
      return (await assetResponse(path.slice('/assets/'.length))) ?? notFound(request);
    const context: PageContext = {
      base: basePath,
      refresh: options.refreshSeconds ?? 5,
      bullBoard: options.bullBoardPath,
      ...flash(url.searchParams),
    };
    const guard = await csrf;
    let response: Response | null;
    if (request.method === 'POST') response = await handlePost(request, path, { ...deps, csrf: guard, base: basePath });
    else if (request.method === 'GET' || request.method === 'HEAD')
      response = await renderGet(request, path, url, context, { ...deps, csrf: guard });
    else
      response = new Response(JSON.stringify({ error: { code: 'METHOD_NOT_ALLOWED' } }), {
        status: 405,
        headers: { allow: 'GET, HEAD, POST', 'content-type': 'application/json' },
      });
    return withHeaders(response ?? notFound(request), access.headers);
  }

  return {
    basePath,
    enabled,
    history,
    async fetch(request, info = {}) {
      if (!enabled) return null;
      try {
        return await serve(request, info);
      } catch {
        return refusal(request, 500, 'INTERNAL_ERROR', 'The dashboard could not answer this request.');
      }
    },
    async authorize(request, info = {}) {
      try {
        const access = await decideAccess(request, info.ip, policy);
        return access.allowed
          ? null
          : withHeaders(refusal(request, access.status, access.code, access.message, access.signIn), access.headers);
      } catch {
        return refusal(request, 500, 'INTERNAL_ERROR', 'The dashboard could not answer this request.');
      }
    },
    async close() {
      for (const end of streams) end();
      streams.clear();
      // A history passed in is the caller's to close.
      if (history && !isHistory(options.history)) await history.close();
    },
  };
}

/**
 * The dashboard itself when given one, else a new one from `options`: what
 * every adapter's mount function accepts.
 * @example
 * ```ts
 * const dashboard = dashboardOf(optionsOrDashboard);
 * ```
 */
export function dashboardOf(source: DashboardOptions | Dashboard): Dashboard {
  return typeof (source as Dashboard).fetch === 'function' && typeof (source as Dashboard).basePath === 'string'
    ? (source as Dashboard)
    : createDashboard(source as DashboardOptions);
}

/**
 * The message after a replay or discard (`?replayed=<id>` and the like): a
 * fixed sentence around the message id, so a crafted link cannot put
 * arbitrary text on the page.
 */
function flash(params: URLSearchParams): Pick<PageContext, 'notice' | 'error'> {
  const id = (name: string) => {
    const value = params.get(name);
    return value && value.length <= 200 ? value : undefined;
  };
  const paused = id('paused');
  const resumed = id('resumed');
  if (paused) return { notice: `Paused the queue of ${paused}.` };
  if (resumed) return { notice: `Resumed the queue of ${resumed}.` };
  const replayed = id('replayed');
  const discarded = id('discarded');
  const missing = id('missing');
  if (replayed) return { notice: `Replayed message ${replayed}.` };
  if (discarded) return { notice: `Discarded message ${discarded}.` };
  if (missing) return { error: `Message ${missing} was not found (already replayed or discarded?).` };
  return {};
}

/** The dashboard's own route families; other paths under the base path are left to the app (after the access check). */
const KNOWN_PATHS = /^\/(?:|auth|events|api\/[\w-]+|assets\/.*|runs\/.*|queues\/.*)$/;

function isHistory(value: RunHistoryOptions | RunHistory | undefined): value is RunHistory {
  return typeof (value as RunHistory | undefined)?.recent === 'function';
}

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

/** Adds the session's Set-Cookie headers and the dashboard's security headers (assets keep their caching). */
function withHeaders(response: Response, extra: Headers): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!headers.has(name)) headers.set(name, value);
  for (const cookie of extra.getSetCookie()) headers.append('set-cookie', cookie);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function notFound(request: Request): Response {
  return refusal(request, 404, 'NOT_FOUND', 'No such dashboard page.');
}
