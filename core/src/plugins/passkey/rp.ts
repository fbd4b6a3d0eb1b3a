/**
 * The relying-party checks shared by the passkey factory and plugin.
 * @internal
 * @module
 */
import { AuthConfigError } from '../../errors.js';

/**
 * Checks that `origin` is on `rpId` (its host is the RP ID or a subdomain of
 * it, WebAuthn §5.1.4); returns the RP ID (default: the origin's host).
 * @throws AuthConfigError (`INVALID_CONFIG`).
 */
export function checkOriginOnRpId(id: string, origin: string, rpId: string | undefined): string {
  const host = new URL(origin).hostname;
  const rp = rpId ?? host;
  if (host !== rp && !host.endsWith(`.${rp}`))
    throw new AuthConfigError(`Invalid provider: "${id}": origin ${origin} is not on rpId ${rp} (WebAuthn §5.1.4)`);
  return rp;
}
