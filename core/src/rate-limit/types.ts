/**
 * Public shapes of `@framework/auth/rate-limit`.
 * @module
 */
import type { AuthClock } from '../clock.js';

/** Counting algorithm of a storage: see {@link createFixedWindowStorage} and {@link createSlidingWindowStorage}. */
export type RateLimitAlgorithm = 'fixed-window' | 'sliding-window';

/** Where a storage keeps its counters. */
export type RateLimitBackend = 'memory' | 'upstash' | 'node-redis';

/**
 * One budget's answer to "may one more request pass?". Internal unit: the
 * window end is an absolute time in **milliseconds** since the epoch.
 */
export interface RateLimitConsumeResult {
  /** Whether the request fits in the budget (the unit was counted). */
  success: boolean;
  /** The budget's size: requests per window. */
  limit: number;
  /** Requests left in the current window after this one (never negative). */
  remaining: number;
  /** When the current window ends, in ms since the epoch. */
  resetAt: number;
}

/** Counts one budget (one `limit` per `window`) for many keys. */
export interface RateLimitCounter {
  /**
   * Counts one request for `key`. Rejects when the backend is unreachable;
   * the limiter turns that into its fail policy. `now`: the caller's clock, in ms since the epoch (the auth's
   * `clock`); memory storages count windows on it (default `Date.now()`), Redis storages count on their own time.
   */
  consume(key: string, now?: number): Promise<RateLimitConsumeResult>;
  /** Forgets the counts of `key` (a fresh budget). */
  reset(key: string): Promise<void>;
}

/** What a limiter asks of a storage for one budget. */
export interface RateLimitCounterConfig {
  /** Requests allowed per window: a positive integer. */
  limit: number;
  /** Window length in **milliseconds**: a positive integer. */
  windowMs: number;
  /** Key prefix that separates this budget from every other one (e.g. `framework:rate-limit:login:ip`). */
  prefix: string;
}

/**
 * Counter storage returned by {@link createFixedWindowStorage} /
 * {@link createSlidingWindowStorage}. One storage can serve many limiters;
 * their keys never collide because each budget has its own prefix.
 */
export interface RateLimitStorage {
  readonly algorithm: RateLimitAlgorithm;
  readonly backend: RateLimitBackend;
  /** Creates the counter for one budget. */
  counter(config: RateLimitCounterConfig): RateLimitCounter;
}

/**
 * A Redis reachable through the `@upstash/redis` SDK: an `@upstash/redis`
 * `Redis` instance (REST), detected by its `evalsha` and `pipeline` methods.
 */
export interface UpstashRedisLike {
  evalsha(...args: never[]): Promise<unknown>;
  eval(...args: never[]): Promise<unknown>;
  pipeline(...args: never[]): unknown;
}

/**
 * The part of a node-redis v5 client (`createClient()` from `redis`) the
 * bridge uses. Detected by its `sendCommand` method. Connect it before use
 * (`await client.connect()`); cluster clients are not supported.
 */
export interface NodeRedisClientLike {
  sendCommand(args: string[], options?: { timeout?: number }): Promise<unknown>;
  /** False while (re)connecting; commands then wait in node-redis's offline queue. */
  readonly isReady?: boolean;
  multi(): { addCommand(args: string[]): unknown; exec(): Promise<unknown> };
  on?(event: 'error', listener: (error: unknown) => void): unknown;
  listenerCount?(event: string): number;
}

/** The `namespace` of a storage factory: omitted (memory), Upstash REST or node-redis. */
export type RateLimitNamespace = UpstashRedisLike | NodeRedisClientLike | undefined;

/** Second, optional argument of the storage factories. */
export interface RateLimitStorageOptions {
  /**
   * Memory only: the most counters kept at once (one per key and budget).
   * Expired windows are dropped first, then the least recently used.
   * Default 100 000 (roughly 15 MB). A positive integer.
   */
  maxEntries?: number;
  /**
   * node-redis only: timeout in **milliseconds** for commands sent while the
   * client is reconnecting, after which node-redis drops them from its
   * offline queue (so an outage cannot pile them up). Default 1000.
   */
  commandTimeout?: number;
}

/** Where limiters write diagnostics. `AuthLogger` and `console` both fit. */
export interface RateLimitLogger {
  warn(message: string): void;
  error?(message: string): void;
}

/**
 * Which proxies to believe in `X-Forwarded-For`:
 * - a hop count `n` (≥ 1): exactly `n` proxies stand in front of the app; the
 *   client is the `n`-th address from the right of `[...X-Forwarded-For, peer]`;
 * - a list of CIDRs (or bare addresses) of the proxies: walking from the
 *   connection's peer leftwards, the first address outside the list is the
 *   client.
 *
 * Omitted or `0`: `X-Forwarded-For` is ignored and only `info.ip` counts.
 */
export type TrustProxy = number | readonly string[];

/** Options shared by the three limiter factories. */
export interface RateLimiterOptions {
  /** Requests allowed per window: a positive integer. Defaults per limiter (login 5). */
  limit?: number;
  /**
   * For {@link RateLimiter.attempt} (the kit's sign-in routes): attempts per
   * window from one client IP, successful or not. Default 10 × `limit`
   * (login: 50 per 900 s).
   */
  ipLimit?: number;
  /** Window length in **seconds** (fractions allowed, ≥ 0.001). Defaults per limiter (login 900). */
  window?: number;
  /**
   * What to do when the storage (Redis) fails or answers later than
   * `timeout`: `false` refuses with a 503 `RATE_LIMIT_UNAVAILABLE` response,
   * `true` lets the request through and logs a warning. Default `false`.
   */
  failOpen?: boolean;
  /** Most time a `check()` waits for the storage, in **milliseconds**. Default 1000. */
  timeout?: number;
  /** Which proxies' `X-Forwarded-For` entries to believe. Default: none. */
  trustProxy?: TrustProxy;
  /**
   * Body fields holding the account identifier, tried in order; the first
   * non-empty one is used. Default `['email', 'username']`.
   */
  identifierFields?: readonly string[];
  /**
   * The source of "now" (ms since the epoch): memory storages count windows on it, and `reset`/`retryAfter` are
   * computed from it. Default `Date.now()`; the limiters `createAuth` builds take its `clock`.
   */
  clock?: AuthClock;
  /** Largest body read to find the identifier, in bytes. Default 65536. */
  maxBodySize?: number;
  /** Key prefix, shared by every process that should share budgets. Default `framework:rate-limit:<name>`. */
  prefix?: string;
  /** Diagnostics sink. Default `console`. */
  logger?: RateLimitLogger;
}

/** Connection facts the adapter knows and the Request does not carry. */
export interface RateLimitCheckInfo {
  /** The TCP peer's address (e.g. Node's `socket.remoteAddress`). */
  ip?: string;
  /**
   * The account identifier when the caller has already read it; skips
   * reading the body. It is normalised like a body field.
   */
  identifier?: string;
}

/** Stable codes carried by refused results. */
export type RateLimitCode = 'RATE_LIMITED' | 'RATE_LIMIT_UNAVAILABLE';

/**
 * Result of {@link RateLimiter.check}. Times are in **seconds**.
 *
 * For a browser, answer a 429 HTML page with `headers` (which carry
 * `Retry-After` and the `RateLimit-*` fields) and `retryAfter` in its text;
 * for API clients, return `response` as is.
 */
export interface RateLimitResult {
  /** The request may proceed. */
  success: boolean;
  /** Requests per window of the reported budget. */
  limit: number;
  /** Requests left in the reported budget's window (0 when refused). */
  remaining: number;
  /** Seconds until the reported budget's window resets (integer, rounded up; 0 when unknown). */
  reset: number;
  /** When refused: seconds the client should wait (RFC 9110 §10.2.3 `Retry-After`). */
  retryAfter?: number;
  /** Why the request was refused, or `RATE_LIMIT_UNAVAILABLE` when it passed only because of `failOpen`. */
  code?: RateLimitCode;
  /** Which budget decided: the client IP (per /64 for IPv6) or the account identifier. */
  scope?: 'ip' | 'account' | 'ip-account';
  /**
   * IETF `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`,
   * `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers-06) and, when
   * refused, `Retry-After`. Copy them onto whatever response you send.
   */
  headers: Headers;
  /**
   * When refused: the JSON answer `{error: {code, message}}` with `headers`,
   * status 429 (`RATE_LIMITED`) or 503 (`RATE_LIMIT_UNAVAILABLE`).
   */
  response?: Response;
}

/** A limiter from {@link createLoginRateLimiter} and its siblings. */
export interface RateLimiter {
  /** `login`, `password-reset` or `email-verification`. */
  readonly name: string;
  /** Requests per window. */
  readonly limit: number;
  /** Window length in seconds. */
  readonly window: number;
  /**
   * The storage it counts in, when it has one (the kit's limiters do): `createAuth`'s per-route rules
   * (`rateLimit.rules`) count in the login limiter's storage.
   */
  readonly storage?: RateLimitStorage;
  /**
   * Counts `request` against the client-IP budget and the account budget
   * (the normalised `email`/`username` body field, read from a clone: the
   * original body stays unread). Never rejects and never waits longer than
   * `timeout` for the storage.
   */
  check(request: Request, info?: RateLimitCheckInfo): Promise<RateLimitResult>;
  /**
   * A sign-in attempt (OWASP ASVS V2.2.1), as the kit's routes count them:
   * every attempt counts against the client IP's budget (`ipLimit`); only
   * failures count against the (client IP, account) pair's budget (`limit`),
   * which a success resets. So a wrong password from one place never locks
   * the owner out from another, and a person who signs in often is never
   * refused. Refused when either budget is spent (`scope` says which).
   * Settle it with `failed()` or `succeeded()`; both never reject.
   */
  attempt(request: Request, info?: RateLimitCheckInfo): Promise<RateLimitAttempt>;
}

/** An attempt counted by {@link RateLimiter.attempt}. */
export interface RateLimitAttempt {
  /** Whether it may proceed, with the tightest budget's figures. */
  result: RateLimitResult;
  /**
   * Marks the attempt failed. Its unit of the (IP, account) budget was reserved when it began, so concurrent
   * guesses cannot overrun the budget; this keeps it.
   */
  failed(): Promise<void>;
  /** Resets the (IP, account) budget: a success forgets earlier failures. */
  succeeded(): Promise<void>;
}

/**
 * The `rateLimit` option of `createAuth`: which limiter guards which route.
 * Without `login`, a memory login limiter with the documented defaults (core/README.md "Rate limits") is on
 * (`defaultLoginLimiter()`); `login: false` turns it off (tests, or a limit
 * enforced elsewhere).
 *
 * @example
 * ```ts
 * const storage = createFixedWindowStorage(redisClient);
 * createAuth({ ...config, rateLimit: { login: createLoginRateLimiter(storage), passwordReset: createPasswordResetRateLimiter(storage) } });
 * ```
 */
export interface RateLimitConfig {
  /** Credentials and email sign-in. Default: `defaultLoginLimiter()`. */
  login?: RateLimiter | false;
  /** Password-reset requests, when the kit serves them. */
  passwordReset?: RateLimiter;
  /** Email-verification (magic-link) sends. */
  emailVerification?: RateLimiter;
  /**
   * Per-route budgets, by route template under `basePath` (`'/signup'`, `'/signin/:provider'`, a plugin's
   * `'/two-factor/verify'`), for any core or plugin route. A rule replaces the route's own limiter (keeping how it
   * counts: sign-in attempts stay attempts, failures per (IP, account) reset on success) so it can tighten or
   * loosen it; a route without one is counted per client IP, and per account when the body names one (`email`,
   * `username`). Rules count in the login limiter's storage (the shared Redis of `secondaryStorage`, or the
   * storage you built `login` on), else in memory. A path that is not a registered route template throws
   * `INVALID_CONFIG` at `createAuth`.
   * @example
   * ```ts
   * createAuth({ ...config, rateLimit: { rules: { '/signup': { window: 3600, max: 3 }, '/signin/:provider': { window: 900, max: 10 } } } });
   * ```
   */
  rules?: Readonly<Record<string, RateLimitRule>>;
}

/**
 * One per-route budget of `rateLimit.rules`: `max` requests per `window` **seconds** from one client IP, and per
 * account when the body names one (on sign-in routes: `max` attempts per IP and `max` failures per (IP, account),
 * which a success resets; `ipLimit` sets the first apart), with the other limiter options (`failOpen`,
 * `trustProxy`, `timeout`, `prefix`, …) as for {@link RateLimiterOptions}.
 */
export interface RateLimitRule extends Omit<RateLimiterOptions, 'limit' | 'window'> {
  /** Window length in **seconds** (fractions allowed, ≥ 0.001). */
  window: number;
  /** Requests allowed per window: a positive integer. */
  max: number;
}
