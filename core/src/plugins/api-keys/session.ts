/**
 * Telling an API key's session from a cookie session.
 * @module
 */
import type { Session } from '../../types.js';
import type { ApiKeySession } from './types.js';

/**
 * Whether `session` (from `getSession()` or `auth.getSession(request)`)
 * comes from an API key.
 * @example
 * ```ts
 * const session = getSession();
 * if (isApiKeySession(session)) log.info(`key ${session.keyId}`);
 * ```
 */
export function isApiKeySession(session: Session | null | undefined): session is ApiKeySession {
  return !!session && (session as Partial<ApiKeySession>).type === 'api-key';
}
