/**
 * `auth.getAccessToken(request, providerId)`: a valid access token for the
 * signed-in user's account at a provider, refreshed with the stored refresh
 * token (RFC 6749 §6) when it has expired. Concurrent refreshes of one
 * account share one request, because providers that rotate refresh tokens
 * invalidate the old one on first use.
 * @internal
 * @module
 */
import { authError } from './errors/auth-error.js';
import { flowOf } from './providers/flow.js';
import type { AuthInternals } from './contract/types.js';
import type { AdapterAccount } from './storage/types.js';

/** Seconds before `expires_at` at which a token already counts as expired. */
const EXPIRY_MARGIN = 60;

export function accessTokenGetter(auth: AuthInternals) {
  const inflight = new Map<string, Promise<string>>();

  async function refresh(account: AdapterAccount): Promise<string> {
    const provider = auth.providers.get(account.provider);
    const refreshWith = provider ? flowOf(provider)?.refresh : undefined;
    if (!provider || !refreshWith || !account.refresh_token) {
      throw authError('ACCESS_TOKEN_EXPIRED', 'The access token expired and cannot be refreshed; sign in again');
    }
    let tokens;
    try {
      tokens = await refreshWith(provider, account.refresh_token);
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      auth.logger.warn(
        `[auth] ${account.provider}: token refresh failed: ${name}: ${error instanceof Error ? error.message : ''}`,
      );
      throw authError('OAUTH_REFRESH_FAILED', 'The access token could not be refreshed; sign in again');
    }
    const patch: Partial<AdapterAccount> = { access_token: tokens.access_token };
    if (tokens.refresh_token) patch.refresh_token = tokens.refresh_token;
    if (typeof tokens.expires_in === 'number')
      patch.expires_at = Math.floor(auth.clock.now() / 1000) + tokens.expires_in;
    if (tokens.id_token) patch.id_token = tokens.id_token;
    if (tokens.scope) patch.scope = tokens.scope;
    await auth.adapter!.updateAccount(
      { provider: account.provider, providerAccountId: account.providerAccountId },
      patch,
    );
    return tokens.access_token;
  }

  /**
   * @returns the access token, or null when the request has no session or the user has no account at `providerId`.
   * @throws AuthError `ACCESS_TOKEN_EXPIRED` or `OAUTH_REFRESH_FAILED` (401).
   */
  return async function getAccessToken(request: Request, providerId: string): Promise<string | null> {
    if (!auth.adapter) return null;
    const { user } = await auth.readSession(request);
    if (!user) return null;
    const account = (await auth.adapter.listAccounts(user.id)).find((a) => a.provider === providerId);
    if (!account?.access_token) return null;
    const now = Math.floor(auth.clock.now() / 1000);
    if (account.expires_at === undefined || account.expires_at - EXPIRY_MARGIN > now) return account.access_token;
    const key = `${account.provider}\u0000${account.providerAccountId}`;
    let pending = inflight.get(key);
    if (!pending) {
      pending = refresh(account).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  };
}
