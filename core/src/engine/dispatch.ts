/**
 * HTTP dispatch: a Web `Request` under `basePath` → the matched route (matched once, its template carried on the
 * match) → a {@link RouteContext} → the action's {@link ActionResult} → a `Response`. POSTs pass the route's CSRF
 * policy, the body limit and the route's rate limit first. Every request is traced (OpenTelemetry).
 * @internal
 * @module
 */
import { authError } from '../errors/auth-error.js';
import { parseCookies } from '../http/cookies.js';
import { readFormBody, readJsonBody } from '../http/body.js';
import { checkCsrfToken, checkOrigin, csrfCookieName } from '../http/csrf.js';
import { publicOrigin } from '../http/origin.js';
import { toWebResponse } from '../http/response.js';
import type {
  ActionResult,
  AuthInternals,
  Match,
  Registry,
  RequestInfo,
  RouteContext,
  RouteRateLimit,
} from '../contract/types.js';
import { checkRulePaths } from '../rate-limit/rules.js';
import { allowedMethods } from '../plugins/registry.js';
import { applyRateLimit } from '../routes/rate-limited.js';
import { errorResult } from '../routes/helpers.js';
import { wantsJson, wantsJsonError } from './negotiate.js';
import { isServerCall } from './server-api.js';

const notFound = () => authError('NOT_FOUND');

/**
 * The request's rate-limit policy: the route's own, with a `rateLimit.rules` limiter for its template in place of
 * the route's limiter (same mode and account, so a rule can tighten or loosen it), or counting per IP and account
 * when the route has none.
 */
function limitOf(ctx: RouteContext, match: Match): RouteRateLimit | undefined {
  const own = ctx.request.method === 'POST' ? match.route.rateLimit?.(ctx) : undefined;
  const rule = ctx.auth.limiters.rules.get(match.template.slice(ctx.auth.config.basePath.length));
  if (!rule) return own;
  return own ? { ...own, limiter: rule } : { limiter: rule, mode: 'count' };
}

/** The plugins' `beforeAction` guards (a captcha), in order: the first refusal, or undefined. */
async function guard(ctx: RouteContext): Promise<ActionResult | undefined> {
  for (const hook of ctx.auth.hooks.beforeAction) {
    const refused = await hook(ctx);
    if (refused) return refused;
  }
  return undefined;
}

/**
 * Checks a POST per its route's CSRF policy, reads its body, runs the `beforeAction` guards and applies its rate
 * limit; a refusal or undefined.
 */
async function admitPost(
  ctx: RouteContext,
  match: Match,
  info: RequestInfo,
  maxBodySize: number,
): Promise<ActionResult | undefined> {
  const { request, auth } = ctx;
  // `auth.api` calls come from the app's server code, never from a cross-site page.
  const exempt = isServerCall(info) || match.route.csrfExempt?.(ctx);
  const own = exempt ? 'none' : (match.route.csrf ?? 'token');
  // A plugin may vouch for a cookie-less request a browser cannot forge (a bearer client): the origin check only.
  const csrf = own === 'token' && auth.hooks.relaxCsrf.some((relax) => relax(request)) ? 'origin' : own;
  if (csrf !== 'none') checkOrigin(request, ctx.origin, auth.trustedOrigins);
  if (match.route.body === 'json') ctx.json = await readJsonBody(request, maxBodySize);
  else ctx.body = await readFormBody(request, maxBodySize);
  // CSRF before the limiter: a cross-site page can neither spend nor probe anyone's budget.
  if (csrf === 'token') {
    const secure = auth.config.cookies.sessionToken.options.secure;
    await checkCsrfToken(
      ctx.body.csrfToken ?? request.headers.get('x-csrf-token') ?? undefined,
      ctx.cookies[csrfCookieName(secure)],
      auth.signingKey,
    );
  }
  // Guards after CSRF (a cross-site page cannot spend a captcha verification), before the limiter and the action.
  const refused = await guard(ctx);
  if (refused) return refused;
  return applyRateLimit(ctx, limitOf(ctx, match), info);
}

/** Runs the matched route's action for a request. */
async function dispatch(
  auth: AuthInternals,
  request: Request,
  url: URL,
  match: Match | null,
  info: RequestInfo,
): Promise<ActionResult> {
  const failure = { auth, request, wantsJson: wantsJsonError(request) };
  if (!match) return errorResult(failure, notFound());
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const action =
    method === 'GET'
      ? match.route.GET
      : method === 'POST'
        ? match.route.POST
        : method === 'OPTIONS'
          ? match.route.OPTIONS
          : undefined;
  if (!action) {
    const e = authError('METHOD_NOT_ALLOWED', {
      message: `Method ${request.method} not allowed`,
      headers: { allow: allowedMethods(match.route).join(', ') },
    });
    return errorResult(failure, e);
  }
  const ctx: RouteContext = {
    auth,
    wantsJson: wantsJson(request),
    request,
    url,
    origin: publicOrigin(auth.originPolicy, url.origin),
    cookies: parseCookies(request.headers.get('cookie')),
    body: {},
    route: match.template,
    ...(info.ip ? { ip: info.ip } : {}),
    ...(match.providerId !== undefined ? { providerId: match.providerId } : {}),
  };
  try {
    const refused =
      method === 'POST'
        ? await admitPost(ctx, match, info, auth.maxBodySize)
        : method === 'OPTIONS' // a preflight: no guard, no limiter, nothing spent
          ? undefined
          : ((await guard(ctx)) ?? (await applyRateLimit(ctx, limitOf(ctx, match), info)));
    if (refused) return refused;
    let result = await action(ctx);
    for (const hook of auth.hooks.afterAction) result = (await hook(ctx, result)) ?? result;
    return result;
  } catch (error) {
    return errorResult(failure, error);
  }
}

/**
 * The engine's `handler`: serves every route under `basePath`; other paths answer 404 `NOT_FOUND`. Never
 * rejects: an unexpected failure answers 500 without its details.
 * @throws AuthConfigError (`INVALID_CONFIG`) when a `rateLimit.rules` path is not a registered route template.
 */
export function createHandler(
  auth: AuthInternals,
  registry: Registry,
): (request: Request, info?: RequestInfo) => Promise<Response> {
  checkRulePaths(auth.limiters.rules, auth.config.basePath, (path) => registry.match(path)?.template);
  return async (request, info = {}) => {
    let response: Response;
    let traced: ReturnType<AuthInternals['telemetry']['startRequest']> | undefined;
    try {
      // The OpenTelemetry API's import, started by createAuth: awaited only until it has arrived.
      if (auth.telemetry.ready) await auth.telemetry.ready;
      const url = new URL(request.url);
      const match = registry.match(url.pathname);
      traced = auth.telemetry.startRequest(request, match?.template ?? 'unmatched');
      const result = await auth.telemetry.withSpan(traced.span, () => dispatch(auth, request, url, match, info));
      response = toWebResponse(result);
      if (request.method === 'HEAD')
        response = new Response(null, { status: response.status, headers: response.headers });
    } catch (error) {
      response = toWebResponse(errorResult({ auth, wantsJson: true }, error));
    }
    traced?.end(response.status);
    return response;
  };
}
