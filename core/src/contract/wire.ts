/**
 * The JSON shapes the routes answer with, declared once for the server API (`auth.api`) and the client.
 * Type-only.
 * @module
 */

/** A user as sent to clients (never the password hash; `emailVerified` is not sent). */
export interface UserJson {
  id: string;
  name: string | null;
  email: string | null;
  image: string | null;
  role?: string;
  roles?: string[];
  /** Fields the app adds (custom user fields, `callbacks.session`). */
  [field: string]: unknown;
}

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

/** One signed-in device (`GET {basePath}/sessions`). */
export interface SessionInfoJson {
  /** The session's public id: the part of the session cookie before the dot, never its secret. */
  id: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastActiveAt: string;
  /** ISO 8601. */
  expires: string;
  userAgent: string | null;
  ip: string | null;
  /** True for the session of the request itself. */
  current: boolean;
}

/** `GET {basePath}/providers`: each sign-in provider or method by id. */
export type ProvidersJson = Record<string, { id: string; name: string; type: string; [url: string]: string }>;
