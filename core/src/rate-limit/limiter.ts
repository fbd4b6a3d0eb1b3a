/**
 * The limiter engine shared by the login, password-reset and
 * email-verification factories: two budgets (client IP, account), a
 * deadline on the storage, and the fail policy.
 * @internal
 * @module
 */
import { identifierBudgetKey, readIdentifier } from './identifier.js';
import { ipBudgetKey } from './ip.js';
import type { ResolvedLimiterOptions } from './options.js';
import { rateLimitHeaders, refusalResponse, type HeaderFacts } from './responses.js';
import { withTimeout } from './timeout.js';
import type {
  RateLimitCheckInfo,
  RateLimitConsumeResult,
  RateLimitCounter,
  RateLimiter,
  RateLimitResult,
} from './types.js';

/** Storage failures are reported at most once per this many ms per limiter. */
const LOG_INTERVAL_MS = 10_000;

type Scope = 'ip' | 'account' | 'ip-account';

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Adds `headers`, built on first read: a `Headers` object costs more than the
 * rest of an in-memory check, and most callers of an allowed request never
 * look at it.
 */
function withHeaders<T extends object>(fields: T, facts: HeaderFacts | null): T & { headers: Headers } {
  let headers: Headers | undefined;
  return Object.defineProperty(fields, 'headers', {
    enumerable: true,
    get: () => (headers ??= facts ? rateLimitHeaders(facts) : new Headers()),
  }) as T & { headers: Headers };
}

/** Builds a limiter from validated options. */
export function createRateLimiter(o: ResolvedLimiterOptions): RateLimiter {
  const counters: Record<Scope, RateLimitCounter> = {
    ip: o.storage.counter({ limit: o.limit, windowMs: o.windowMs, prefix: `${o.prefix}:ip` }),
    account: o.storage.counter({ limit: o.limit, windowMs: o.windowMs, prefix: `${o.prefix}:account` }),
    'ip-account': o.storage.counter({ limit: o.limit, windowMs: o.windowMs, prefix: `${o.prefix}:failures` }),
  };
  // attempt(): every attempt per IP, against the higher ipLimit.
  const attempts = o.storage.counter({ limit: o.ipLimit, windowMs: o.windowMs, prefix: `${o.prefix}:attempts` });
  let lastReport = -Infinity;
  let suppressed = 0;
  let warnedNoKey = false;
  let warnedNoIp = false;
  const clock = o.clock;
  const secondsUntil = (at: number): number => Math.max(0, Math.ceil((at - clock.now()) / 1000));

  function report(error: unknown): void {
    const now = clock.now();
    if (now - lastReport < LOG_INTERVAL_MS) {
      suppressed++;
      return;
    }
    const more = suppressed > 0 ? ` (${suppressed} more since the last report)` : '';
    lastReport = now;
    suppressed = 0;
    const outcome = o.failOpen
      ? 'requests are let through (failOpen: true)'
      : 'requests are refused with 503 RATE_LIMIT_UNAVAILABLE (failOpen: false)';
    const message = `Rate limiter "${o.name}": storage unavailable, ${outcome}: ${describe(error)}${more}`;
    try {
      if (!o.failOpen && o.logger.error) o.logger.error(message);
      else o.logger.warn(message);
    } catch {
      // A broken logger must not break sign-in.
    }
  }

  function result(r: RateLimitConsumeResult, scope: Scope): RateLimitResult {
    const reset = secondsUntil(r.resetAt);
    const facts = { limit: r.limit, remaining: r.success ? r.remaining : 0, reset, window: o.window };
    if (r.success) return withHeaders({ success: true, ...facts, scope }, facts);
    const retryAfter = Math.max(1, reset);
    const headers = rateLimitHeaders({ ...facts, retryAfter });
    return {
      success: false,
      ...facts,
      retryAfter,
      code: 'RATE_LIMITED',
      scope,
      headers,
      response: refusalResponse('RATE_LIMITED', headers),
    };
  }

  async function decide(keys: Array<[Scope, string]>): Promise<RateLimitResult> {
    let tightest: RateLimitResult | undefined;
    // In order, IP first: a refused IP does not spend the account's budget, so one address
    // spraying many accounts cannot lock them all out.
    for (const [scope, key] of keys) {
      const r = result(await counters[scope].consume(key, clock.now()), scope);
      if (!r.success) return r;
      if (!tightest || r.remaining < tightest.remaining) tightest = r;
    }
    return tightest!;
  }

  function unavailable(error: unknown): RateLimitResult {
    report(error);
    const base = { limit: o.limit, reset: 0, code: 'RATE_LIMIT_UNAVAILABLE' as const };
    if (o.failOpen) return withHeaders({ success: true, remaining: o.limit, ...base }, null);
    const headers = new Headers();
    return {
      success: false,
      remaining: 0,
      ...base,
      headers,
      response: refusalResponse('RATE_LIMIT_UNAVAILABLE', headers),
    };
  }

  async function keysOf(request: Request, info: RateLimitCheckInfo): Promise<Array<[Scope, string]>> {
    const keys: Array<[Scope, string]> = [];
    try {
      const ip = o.resolveIp(request, typeof info.ip === 'string' ? info.ip : undefined);
      if (ip) keys.push(['ip', ipBudgetKey(ip)]);
      const raw =
        typeof info.identifier === 'string'
          ? info.identifier
          : request.body === null
            ? null
            : await readIdentifier(request, o.identifierFields, o.maxBodySize);
      const account = raw === null ? null : await identifierBudgetKey(raw);
      if (account) keys.push(['account', account]);
    } catch {
      // Hostile input only ever costs a key, never the request.
    }
    return keys;
  }

  /** Runs a storage call that must never break sign-in: failures are reported, not thrown. */
  async function quietly(work: () => Promise<unknown>): Promise<void> {
    try {
      await withTimeout(work(), o.timeout);
    } catch (error) {
      report(error);
    }
  }

  const allowedNoKey = () => {
    const facts = { limit: o.limit, remaining: o.limit, reset: 0, window: o.window };
    return withHeaders({ success: true, limit: o.limit, remaining: o.limit, reset: 0 }, facts);
  };

  return {
    name: o.name,
    limit: o.limit,
    window: o.window,
    storage: o.storage,
    async attempt(request, info) {
      const keys = await keysOf(request, info && typeof info === 'object' ? info : {});
      const ip = keys.find(([scope]) => scope === 'ip')?.[1];
      const account = keys.find(([scope]) => scope === 'account')?.[1];
      // The failure budget is per (IP, account); without an IP it is per account.
      const pair = account ? `${ip ?? '-'}|${account}` : undefined;
      const settle = { failed: async () => {}, succeeded: async () => {} };
      if (!ip && !pair) return { result: allowedNoKey(), ...settle };
      if (!ip && !warnedNoIp) {
        warnedNoIp = true;
        try {
          o.logger.warn(
            `Rate limiter "${o.name}": a sign-in attempt came without a client IP, so its failures count per account across all clients (anyone can then lock that account for a window). Pass { ip } to attempt(); adapters do (on Cloudflare Workers give mountAuth a clientIp).`,
          );
        } catch {
          // A broken logger must not break sign-in.
        }
      }
      let verdict: RateLimitResult;
      try {
        verdict = await withTimeout(
          (async () => {
            let tightest: RateLimitResult | undefined;
            if (ip) {
              const r = result(await attempts.consume(ip, clock.now()), 'ip');
              if (!r.success) return r;
              tightest = r;
            }
            if (pair) {
              // Reserved up front (counted as a failure until `succeeded()` resets it), so concurrent guesses
              // cannot all pass.
              const r = result(await counters['ip-account'].consume(pair, clock.now()), 'ip-account');
              if (!r.success) return r;
              if (!tightest || r.remaining < tightest.remaining) tightest = r;
            }
            return tightest!;
          })(),
          o.timeout,
        );
      } catch (error) {
        return { result: unavailable(error), ...settle };
      }
      if (!pair) return { result: verdict, ...settle };
      return {
        result: verdict,
        // The failure was counted when the attempt began.
        failed: async () => {},
        succeeded: () => quietly(() => counters['ip-account'].reset(pair)),
      };
    },
    async check(request, info) {
      const keys = await keysOf(request, info && typeof info === 'object' ? info : {});
      if (keys.length === 0) {
        if (!warnedNoKey) {
          warnedNoKey = true;
          try {
            o.logger.warn(
              `Rate limiter "${o.name}": a request had neither a client IP (pass { ip } to check()) nor an account identifier; it was not counted`,
            );
          } catch {
            // A broken logger must not break sign-in.
          }
        }
        return allowedNoKey();
      }
      try {
        return await withTimeout(decide(keys), o.timeout);
      } catch (error) {
        return unavailable(error);
      }
    },
  };
}
