/**
 * `captcha()`: a `beforeAction` guard that verifies a captcha token server-side on the chosen routes' POSTs, after
 * the CSRF checks and before the route's rate limit and action.
 * @module
 */
import { AuthConfigError, type AuthPlugin, type RouteContext } from '../../plugin-kit.js';
import { CAPTCHA_ERRORS, type CaptchaErrorCode } from './errors.js';
import { resolveCaptchaOptions, WIDGET_FIELDS, type CaptchaOptions, type ResolvedCaptchaOptions } from './options.js';
import { verifyToken } from './verify.js';

/** Longest token sent to the provider (Turnstile's are at most 2048 characters). */
const MAX_TOKEN_LENGTH = 4096;
const PROVIDER = '/:provider';

/** Whether the request's route is one of `routes`: by its template, or by its concrete path. */
function guarded(ctx: RouteContext, routes: ReadonlySet<string>): boolean {
  if (ctx.route === undefined) return false;
  const template = ctx.route.slice(ctx.auth.config.basePath.length);
  if (routes.has(template)) return true;
  return (
    ctx.providerId !== undefined &&
    template.endsWith(PROVIDER) &&
    routes.has(`${template.slice(0, -PROVIDER.length)}/${ctx.providerId}`)
  );
}

/** The token: the provider widget's own form field, else `captchaToken`, else the `X-Captcha-Response` header. */
function tokenOf(ctx: RouteContext, o: ResolvedCaptchaOptions): string {
  return (
    ctx.body[WIDGET_FIELDS[o.provider]] ??
    ctx.body.captchaToken ??
    ctx.request.headers.get('x-captcha-response') ??
    ''
  ).trim();
}

/**
 * Requires a captcha on the chosen routes: each of their POSTs (HTTP and `auth.api` calls alike) must carry a
 * token the provider accepts, verified server-side (form-encoded `secret`, `response`, and `remoteip` when the
 * adapter passed the client's IP) before the route's rate limit and action run, so a refused sign-up creates
 * nothing and sends nothing. The token is read from the widget's own form field (`cf-turnstile-response`,
 * `h-captcha-response`, `g-recaptcha-response`), else the `captchaToken` field, else the `X-Captcha-Response`
 * header. GET requests (the pages) pass.
 *
 * Refusals: 400 `CAPTCHA_REQUIRED` (no token), 403 `CAPTCHA_FAILED` (refused by the provider, or a score below
 * `minScore`), 503 `CAPTCHA_UNAVAILABLE` (the verify endpoint failed: refused, never let through).
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad option; at `createAuth`, for a given `routes` entry that no
 * core or plugin route serves (a typo would otherwise leave that route unguarded).
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { captcha } from '@framework/auth/plugins/captcha';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   providers: [],
 *   emailAndPassword: {},
 *   plugins: [captcha({ provider: 'turnstile', secretKey: process.env.TURNSTILE_SECRET_KEY! })],
 * });
 * ```
 */
export function captcha(
  options: CaptchaOptions,
): AuthPlugin<'captcha', unknown, Record<never, never>, CaptchaErrorCode> {
  const o = resolveCaptchaOptions(options);
  return {
    id: 'captcha',
    init(auth) {
      if (!o.routesGiven) return undefined;
      for (const route of o.routes)
        if (auth.routeTemplateOf(route) === undefined)
          throw new AuthConfigError(
            `Invalid auth config: captcha(): routes has ${JSON.stringify(route)}, which no route serves; use a path under basePath such as "/signup" or "/signin/:provider"`,
          );
      return undefined;
    },
    hooks: {
      async beforeAction(ctx) {
        if (ctx.request.method !== 'POST' || !guarded(ctx, o.routes)) return undefined;
        const token = tokenOf(ctx, o);
        if (token === '') throw CAPTCHA_ERRORS.error('CAPTCHA_REQUIRED');
        if (token.length > MAX_TOKEN_LENGTH) throw CAPTCHA_ERRORS.error('CAPTCHA_FAILED');
        await verifyToken(o, token, ctx.ip, ctx.auth.logger);
        return undefined;
      },
    },
    errorCodes: CAPTCHA_ERRORS,
  };
}
