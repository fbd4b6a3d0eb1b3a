/**
 * The browser's accounts as the routes show them: the session's public id, expiry and user, never its token.
 * @module
 * @internal
 */
import type { DeviceSession, DeviceSet } from './device-set.js';

/** One signed-in account of the browser as `GET /multi-session/list` answers it. Never carries the token. */
export interface DeviceSessionInfo {
  /** The session's public id: what `set-active` and `revoke` take. */
  sessionId: string;
  /** Whether it is the browser's active session (the session cookie's). */
  active: boolean;
  /** When the session ends unless used, ISO 8601. */
  expires: string;
  /** The account: `id`, `name`, `email`, `image` (null when unset). */
  user: { id: string; name: string | null; email: string | null; image: string | null };
}

/** One account's public view. */
export const describeSession = (s: DeviceSession, active: boolean): DeviceSessionInfo => ({
  sessionId: s.sessionId,
  active,
  expires: (s.refreshedExpires ?? s.expires).toISOString(),
  user: { id: s.user.id, name: s.user.name ?? null, email: s.user.email ?? null, image: s.user.image ?? null },
});

/** The accounts, the active one first, then the others most recently added first. */
export const listOf = (set: DeviceSet): DeviceSessionInfo[] => [
  ...(set.active ? [describeSession(set.active, true)] : []),
  ...[...set.others].reverse().map((s) => describeSession(s, false)),
];
