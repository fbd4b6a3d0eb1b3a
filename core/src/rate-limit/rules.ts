/**
 * `createAuth({ rateLimit: { rules } })`: one limiter per route template, validated once.
 * @internal
 * @module
 */
import type { AuthClock } from '../clock.js';
import { AuthConfigError } from '../errors.js';
import { createRateLimiter } from './limiter.js';
import { resolveLimiterOptions } from './options.js';
import type { RateLimiter, RateLimitRule, RateLimitStorage } from './types.js';

/** `/signup`, `/signin/:provider`: lower-case segments, optionally ending in `/:provider`. */
const RULE_PATH = /^(\/[a-z0-9][a-z0-9._-]*)+(\/:provider)?$/;

/**
 * The rules' limiters by path under `basePath`, counting in `storage`. Whether each path is a registered route is
 * checked where the route table is (the handler).
 * @throws AuthConfigError (`INVALID_CONFIG`) for a malformed path or a bad `window` / `max` / limiter option.
 */
export function createRuleLimiters(
  rules: Readonly<Record<string, RateLimitRule>> | undefined,
  storage: RateLimitStorage,
  clock?: AuthClock,
): ReadonlyMap<string, RateLimiter> {
  const out = new Map<string, RateLimiter>();
  if (rules === undefined) return out;
  if (!rules || typeof rules !== 'object' || Array.isArray(rules))
    throw new AuthConfigError('Invalid auth config: rateLimit.rules must be an object of { window, max } by route');
  for (const [path, rule] of Object.entries(rules)) {
    const where = `rateLimit.rules[${JSON.stringify(path)}]`;
    if (!RULE_PATH.test(path))
      throw new AuthConfigError(`Invalid auth config: ${where}: a rule's key is a route path such as "/signup"`);
    if (!rule || typeof rule !== 'object')
      throw new AuthConfigError(`Invalid auth config: ${where} must be { window, max }`);
    const { max, window, ...rest } = rule;
    const name = `rule:${path}`;
    out.set(
      path,
      createRateLimiter(
        // `max` bounds every request per IP too (a sign-in's attempts), not only the failures per account.
        resolveLimiterOptions(where, { name, limit: max, window }, storage, {
          ...rest,
          limit: max,
          ipLimit: rest.ipLimit ?? max,
          window,
          ...(clock && rest.clock === undefined ? { clock } : {}),
        }),
      ),
    );
  }
  return out;
}

/**
 * Checks that each rule names a route the table serves: `templateOf(basePath + path)` (the registry's match) must
 * be that very template, so `/signin/credentials` (a concrete path) or `/signup/` are refused.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the first path that is not a route template.
 */
export function checkRulePaths(
  rules: ReadonlyMap<string, RateLimiter>,
  basePath: string,
  templateOf: (path: string) => string | undefined,
): void {
  for (const path of rules.keys()) {
    const template = `${basePath}${path}`;
    if (templateOf(template) !== template)
      throw new AuthConfigError(
        `Invalid auth config: rateLimit.rules[${JSON.stringify(path)}] is not a route; use a route template under basePath such as "/signup" or "/signin/:provider"`,
      );
  }
}
