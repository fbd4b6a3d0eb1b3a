/**
 * The JSON shapes the routes answer with, for the server API (`auth.api`). The user and the signed-in device are
 * declared once, in `@framework/auth-client` (which this package depends on), and named here. Type-only.
 * @module
 */
import type { ClientUser, SessionInfo } from '@framework/auth-client';

/** A user as sent to clients (never the password hash; `emailVerified` is not sent): the client's `ClientUser`. */
export type UserJson = ClientUser;

/** One signed-in device (`GET {basePath}/sessions`): the client's `SessionInfo`. */
export type SessionInfoJson = SessionInfo;

/** `GET {basePath}/session`: the session, or null when signed out. */
export interface SessionJson {
  user: UserJson;
  /** ISO 8601. */
  expires: string;
  /** The acting admin's user id during an impersonation. */
  impersonatedBy?: string;
}

/** The answer of a state-changing route: done, and where a browser would go next. */
export interface OkJson {
  ok: true;
  /** Where a browser would be redirected. */
  url?: string;
  [field: string]: unknown;
}

/** `GET {basePath}/providers`: each sign-in provider or method by id. */
export type ProvidersJson = Record<string, { id: string; name: string; type: string; [url: string]: string }>;
