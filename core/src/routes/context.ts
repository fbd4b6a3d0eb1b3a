/**
 * The internal request/response shapes: a request is parsed once into a
 * {@link RouteContext}; an action returns a plain {@link ActionResult}; only
 * the edge (`toWebResponse`) builds a `Response`.
 * @internal
 * @module
 */
import type { ResolvedAuthConfig } from '../config.js';
import type { AuthCallbacks } from '../callbacks.js';
import type { Provider } from '../providers/types.js';
import type { StorageAdapter } from '../storage/types.js';
import type { SessionStrategy } from '../session/types.js';
import type { OutCookie } from '../http/cookies.js';
import type { Session, User } from '../types.js';
import type { OriginPolicy } from '../http/origin.js';
import type { Registry } from '../plugins/registry.js';
import type { RateLimitAttempt, RateLimiter } from '../rate-limit/types.js';
import type { RBAC } from '../rbac/types.js';
import type { AuthTelemetry } from '../telemetry.js';
import type { RefusalLog } from '../rate-limit/refusals.js';
import type { ResolvedEmailAndPassword } from '../email-password/options.js';
import type { AuthEventContext, AuthEvents } from '../events.js';

/** Where the kit writes server-side diagnostics. Messages never contain secrets or stack traces. */
export interface AuthLogger {
  error(message: string): void;
  warn(message: string): void;
}

/** Everything an action may use, fixed at `createAuth` time. */
export interface AuthInternals {
  config: ResolvedAuthConfig;
  providers: ReadonlyMap<string, Provider>;
  callbacks: AuthCallbacks;
  strategy: SessionStrategy;
  adapter: StorageAdapter | undefined;
  /** Key for CSRF and other signed cookies: the first `secret`, or a per-process random key. */
  signingKey: string;
  trustedOrigins: readonly string[];
  /** `baseURL` and the trusted origins: where links point (see `http/origin.ts`). */
  originPolicy: OriginPolicy;
  env: Record<string, unknown>;
  /** The limiters routes may name in their policy; undefined when turned off. */
  limiters: {
    login: RateLimiter | undefined;
    emailVerification: RateLimiter | undefined;
    passwordReset: RateLimiter | undefined;
  };
  /** The app's `events` hooks. */
  events?: AuthEvents;
  /** The `emailAndPassword` options, when the built-in account routes are on (the sign-in page links to them). */
  emailAndPassword?: ResolvedEmailAndPassword;
  maxBodySize: number;
  logger: AuthLogger;
  /** The role definitions given to `createAuth({ rbac })`, if any. */
  rbac: RBAC | undefined;
  /** Every plugin's hooks, by kind, in registration order. */
  hooks: Registry['hooks'];
  /** Spans and metrics (OpenTelemetry API; no-ops without an SDK). */
  telemetry: AuthTelemetry;
  /** This process's recent rate-limit refusals (a bounded ring). */
  refusals: RefusalLog;
  /**
   * Reads the session from a request (shared with `auth.getSession`).
   * `fresh`: confirm it against storage now, for routes that add
   * credentials (a JWT session revoked elsewhere must not add a passkey).
   */
  readSession(request: Request, options?: { fresh?: boolean }): Promise<SessionState>;
}

/** The result of reading a request's session. */
export interface SessionState {
  session: Session | null;
  user: User | null;
  /** True when a session cookie was present but its session had expired. */
  expired: boolean;
  /** Set-Cookie headers (refreshed or cleared session cookie) the response must carry. */
  headers: Headers;
}

export interface RouteContext {
  auth: AuthInternals;
  request: Request;
  url: URL;
  /** The matched route's template (`/auth/callback/:provider`), for metrics and logs. */
  route?: string;
  /**
   * The app's public origin for this request, e.g. `https://app.example.com`:
   * `baseURL` when configured (a request on a trusted origin keeps its own),
   * else the request's origin. Every link and redirect is built on it.
   */
  origin: string;
  cookies: Record<string, string>;
  /** True when the client asked for JSON (Accept or Content-Type), else HTML/redirects. */
  wantsJson: boolean;
  /** `:provider` in `/signin/:provider` and `/callback/:provider`. */
  providerId?: string;
  /** The parsed body of a POST (read once, CSRF already checked). */
  body: Record<string, string>;
  /** The client's IP address, when the server adapter passed it (`RequestInfo.ip`). */
  ip?: string;
  /** The sign-in attempt counted by the route's rate limit, to settle with its outcome. */
  attempt?: RateLimitAttempt;
  /** The request's event context (request id, IP, User-Agent), made on first use by `emit`. */
  eventContext?: AuthEventContext;
}

export interface ActionResult {
  status: number;
  json?: unknown;
  html?: string;
  /** Location for a redirect (status 302/303). */
  redirect?: string;
  cookies?: OutCookie[];
  headers?: Record<string, string>;
  /** A plain-text body (e.g. a script) with its content type. */
  text?: string;
  contentType?: string;
  /** Set-Cookie headers already serialized (e.g. a refreshed session cookie). */
  setCookies?: Headers;
}
