/**
 * The `resolveSession` hook: a request carrying an API key becomes a session
 * of the key's owner, limited to the key's permissions.
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import { rateLimitHeaders } from '../../rate-limit/responses.js';
import { withTimeout } from '../../rate-limit/timeout.js';
import { restrictPermissions } from '../../rbac/restriction.js';
import type { RequestInfo, AuthInternals, SessionState } from '../../contract/types.js';
import { credentialRefused } from '../credential.js';
import { invalidKeyGuard } from './invalid-keys.js';
import { keyFromRequest, secretMatches } from './key-format.js';
import type { ResolvedApiKeysOptions } from './options.js';
import type { ApiKeyRecord, ApiKeySession } from './types.js';

/** Whether a stored key may authenticate at `now`. */
export function usable(record: ApiKeyRecord, now: number): boolean {
  return record.revokedAt === null && (record.expiresAt === null || record.expiresAt.getTime() > now);
}

/** Most time the per-key limiter waits for its storage, in ms; past it the request is refused (fail closed). */
const LIMITER_TIMEOUT_MS = 1000;

/**
 * Builds the hook. Unknown, malformed, revoked or expired keys give no
 * session (the request is anonymous: `requireAuth` answers 401); a valid key
 * of a deleted user throws `CREDENTIAL_REFUSED` (401), and the core's
 * credential checks (`admitCredential`: bans, email verification) run on
 * what it returns. A restricted key's user is limited to its `permissions`
 * and, for role checks, its `roles` (`restrictPermissions`). A valid key over its budget throws `RATE_LIMITED` (429, with
 * `Retry-After` and `RateLimit-*`); an unreachable limiter storage throws
 * `RATE_LIMIT_UNAVAILABLE` (503). The budget is counted only after the
 * secret matched, so knowing a key's public prefix cannot spend its budget.
 * Invalid keys count against the client IP's own budget
 * (`invalidKeyLimit`): past it, that IP's keys answer `RATE_LIMITED` (429).
 */
export function apiKeyResolver(
  auth: AuthInternals,
  o: ResolvedApiKeysOptions,
): (request: Request, info: RequestInfo) => Promise<SessionState | undefined> {
  const invalid = invalidKeyGuard(auth, o.invalidKeyLimit);
  const counter =
    o.rateLimit &&
    o.rateLimit.storage.counter({
      limit: o.rateLimit.limit,
      windowMs: o.rateLimit.windowMs,
      prefix: 'framework:rate-limit:api-key',
    });

  async function charge(keyId: string): Promise<void> {
    if (!counter) return;
    let result;
    try {
      result = await withTimeout(counter.consume(keyId, auth.clock.now()), LIMITER_TIMEOUT_MS);
    } catch {
      auth.logger.error('apiKeys: the rate-limit storage failed; the request was refused');
      throw authError('RATE_LIMIT_UNAVAILABLE', 'API key requests are briefly unavailable; try again shortly');
    }
    if (result.success) return;
    const reset = Math.max(1, Math.ceil((result.resetAt - auth.clock.now()) / 1000));
    const headers = rateLimitHeaders({
      limit: result.limit,
      remaining: 0,
      reset,
      window: o.rateLimit!.windowMs / 1000,
      retryAfter: reset,
    });
    throw authError('RATE_LIMITED', {
      message: 'Too many requests with this API key; try again later',
      headers: Object.fromEntries(headers),
    });
  }

  return async (request, info) => {
    const presented = keyFromRequest(request);
    if (!presented) return undefined;
    invalid.check(info.ip);
    const record = await o.storage.findByPrefix(presented.prefix);
    // Hash even for an unknown prefix, so the answer time does not tell the two apart.
    const matches = await secretMatches(presented.secret, record?.secretHash ?? '0'.repeat(64));
    const now = auth.clock.now();
    if (!record || !matches || !usable(record, now)) {
      await invalid.failed(info.ip);
      return undefined;
    }
    await charge(record.id);
    const stored = await auth.adapter!.getUser(record.userId);
    // A live key whose owner is gone (removed outside the delete route, say) is refused, not read as anonymous.
    if (!stored) throw credentialRefused("This API key's account no longer exists");
    const user =
      record.permissions === null
        ? stored
        : restrictPermissions(stored, record.permissions, { roles: record.roles ?? [] });
    const expires = record.expiresAt ?? new Date(now + auth.config.session.maxAge * 1000);
    const session: ApiKeySession = {
      type: 'api-key',
      keyId: record.id,
      permissions: record.permissions,
      roles: record.roles,
      user,
      expires,
    };
    return { session, user, expired: false, headers: new Headers() };
  };
}
