/**
 * `getSession()`: the current session from `GET {basePath}/session`.
 * @module
 */
import { call, endpoint } from './http.js';
import type { AuthClientOptions, ClientSession } from './types.js';

/** True for a session with a user that has a string id; anything else reads as signed out. */
export function isSession(value: unknown): value is ClientSession {
  const user = (value as { user?: { id?: unknown } } | null)?.user;
  return typeof user === 'object' && user !== null && typeof user.id === 'string' && user.id.length > 0;
}

/**
 * Reads the current session from `GET {basePath}/session`, sending the
 * session cookie.
 *
 * @param options where the auth routes live ({@link AuthClientOptions}).
 * @returns the session (`{user, expires}`, `expires` as an ISO string), or
 *   null when nobody is signed in.
 * @throws Error when the request fails (network) or the server answers with
 *   a status other than 2xx; the message names the status.
 * @example
 * ```ts
 * const session = await getSession();
 * if (session) console.log(`signed in as ${session.user.email}`);
 * ```
 */
export async function getSession(options?: AuthClientOptions): Promise<ClientSession | null> {
  const answer = await call(endpoint(options), '/session');
  if (!answer.ok) throw new Error(`Could not read the session (status ${answer.status})`);
  return isSession(answer.data) ? answer.data : null;
}
