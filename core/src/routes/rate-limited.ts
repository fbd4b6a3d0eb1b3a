/**
 * The answer to a request refused by a rate limiter: the limiter's JSON
 * (429 `RATE_LIMITED` or 503 `RATE_LIMIT_UNAVAILABLE`) for JSON clients, the
 * error page with the same status and headers for browsers.
 * @internal
 * @module
 */
import type { RateLimitResult, RateLimiter } from '../rate-limit/types.js';
import { errorPage } from '../pages/pages.js';
import { coreMessages } from '../i18n/core/index.js';
import type { ActionResult, RouteContext, RouteRateLimit } from '../contract/types.js';

export function rateLimited(
  ctx: Pick<RouteContext, 'wantsJson' | 'auth'> & { request?: Request },
  verdict: RateLimitResult,
): ActionResult {
  const status = verdict.response?.status ?? 429;
  const headers: Record<string, string> = {};
  verdict.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const code = status === 503 ? 'RATE_LIMIT_UNAVAILABLE' : 'RATE_LIMITED';
  if (ctx.wantsJson) {
    const message =
      status === 503 ? 'Sign-in is briefly unavailable; try again shortly' : 'Too many attempts; try again later';
    return { status, json: { error: { code, message } }, headers };
  }
  const wait = verdict.retryAfter ? Math.ceil(verdict.retryAfter / 60) : 0;
  const t = coreMessages.for(ctx);
  const detail =
    wait === 1 ? t('errorPage.retryInOneMinute') : wait > 1 ? t('errorPage.retryInMinutes', { minutes: wait }) : '';
  const html = errorPage({
    t,
    code: status === 503 ? 'Default' : 'RateLimited',
    signInUrl: ctx.auth.config.pages.signIn,
    ...(detail ? { detail } : {}),
  });
  return { status, html, headers };
}

/** The limiter and the (normalised) account of the attempt a request holds, for {@link attemptIdentity}. */
export interface AttemptIdentity {
  limiter: RateLimiter;
  /** The identifier as counted: trimmed and lower-cased (the limiter hashes it into its keys). */
  identifier: string;
}

const identities = new WeakMap<RouteContext, AttemptIdentity>();

/**
 * Which (limiter, account) the request's `ctx.attempt` counts against, when it names an account. A sign-in that
 * is interrupted (a second factor) carries it to the request that completes the sign-in, which counts its own
 * attempt against the same account, so that completion settles the first step's attempt as a success.
 */
export function attemptIdentity(ctx: RouteContext): AttemptIdentity | undefined {
  return identities.get(ctx);
}

/**
 * Applies a route's policy after the CSRF checks; returns the refusal, or
 * undefined to go on. An `attempt` is kept on `ctx.attempt` for the route
 * to settle (`completeSignIn` reports success, a wrong password failure).
 */
export async function applyRateLimit(
  ctx: RouteContext,
  policy: RouteRateLimit | undefined,
  info: { ip?: string },
): Promise<ActionResult | undefined> {
  if (!policy) return undefined;
  const refused = (verdict: RateLimitResult) => {
    ctx.auth.refusals.record({
      at: new Date(ctx.auth.clock.now()),
      key: info.ip ?? 'unknown',
      limit: ctx.route ?? ctx.url.pathname,
    });
    return rateLimited(ctx, verdict);
  };
  const named = typeof policy.identifier === 'function' ? await policy.identifier() : policy.identifier;
  const identifier = (named ?? (ctx.body.email?.trim() || ctx.body.username || '')).trim().toLowerCase();
  const facts = { ...(info.ip ? { ip: info.ip } : {}), ...(identifier ? { identifier } : {}) };
  if (policy.mode === 'attempt') {
    const attempt = await policy.limiter.attempt(ctx.request, facts);
    if (!attempt.result.success) return refused(attempt.result);
    ctx.attempt = attempt;
    if (identifier) identities.set(ctx, { limiter: policy.limiter, identifier });
    return undefined;
  }
  const verdict = await policy.limiter.check(ctx.request, facts);
  return verdict.success ? undefined : refused(verdict);
}
