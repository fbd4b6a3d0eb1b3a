/**
 * The per-client budget of invalid API keys: a client IP that presents too
 * many unknown, wrong, revoked or expired keys is refused for the rest of
 * the window, before any storage lookup (OWASP ASVS V2.2.1, applied to
 * bearer keys).
 * @module
 * @internal
 */
import { AuthError } from '../../errors.js';
import { authError } from '../../errors/auth-error.js';
import { rateLimitHeaders } from '../../rate-limit/responses.js';
import { withTimeout } from '../../rate-limit/timeout.js';
import type { AuthInternals } from '../../contract/types.js';
import type { ResolvedApiKeysOptions } from './options.js';

/** Most refused IPs remembered in-process; the oldest is forgotten first (its shared counter still holds). */
const MAX_BLOCKED = 10_000;
const TIMEOUT_MS = 1000;

/** What the resolver asks of the budget. */
export interface InvalidKeyGuard {
  /** @throws AuthError `RATE_LIMITED` (429) while `ip` is refused. */
  check(ip: string | undefined): void;
  /** Counts one invalid key from `ip`. @throws AuthError `RATE_LIMITED` (429) when this one spent the budget. */
  failed(ip: string | undefined): Promise<void>;
}

function refusal(untilMs: number, nowMs: number, limit: number, windowMs: number): AuthError {
  const reset = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  const headers = rateLimitHeaders({ limit, remaining: 0, reset, window: windowMs / 1000, retryAfter: reset });
  return authError('RATE_LIMITED', {
    message: 'Too many invalid API keys from this client; try again later',
    headers: Object.fromEntries(headers),
  });
}

/** Builds the guard; with the budget turned off (`invalidKeyLimit: false`) it never refuses. */
export function invalidKeyGuard(
  auth: AuthInternals,
  budget: ResolvedApiKeysOptions['invalidKeyLimit'],
): InvalidKeyGuard {
  if (!budget) return { check: () => {}, failed: async () => {} };
  const { limit, windowMs } = budget;
  const counter = budget.storage.counter({ limit, windowMs, prefix: 'framework:rate-limit:api-key:invalid-ip' });
  /** Refused IPs and when their refusal ends (epoch ms). */
  const blocked = new Map<string, number>();
  return {
    check(ip) {
      if (!ip) return;
      const until = blocked.get(ip);
      if (until === undefined) return;
      const now = auth.clock.now();
      if (until > now) throw refusal(until, now, limit, windowMs);
      blocked.delete(ip);
    },
    async failed(ip) {
      if (!ip) return;
      let result;
      try {
        result = await withTimeout(counter.consume(ip, auth.clock.now()), TIMEOUT_MS);
      } catch {
        // The key was refused anyway; without the counter the request stays anonymous.
        auth.logger.error('apiKeys: the rate-limit storage failed while counting an invalid key');
        return;
      }
      if (result.success) return;
      if (blocked.size >= MAX_BLOCKED) blocked.delete(blocked.keys().next().value!);
      blocked.set(ip, result.resetAt);
      throw refusal(result.resetAt, auth.clock.now(), limit, windowMs);
    },
  };
}
