/**
 * The Worker's bindings.
 * @module
 */
import type { D1DatabaseLike } from '@framework/auth';

/** What `wrangler.toml` (or Miniflare's options) binds. */
export interface WorkerEnv {
  /** The D1 database: auth tables and received webhook events. */
  DB: D1DatabaseLike;
  /** At least 32 characters; signs sessions and CSRF tokens. */
  AUTH_SECRET: string;
  /** Key of the `/webhooks/demo` signature (Standard Webhooks): a `whsec_…` secret, or any string as the key's bytes. */
  WEBHOOK_SECRET: string;
  /**
   * `false` to send cookies without `Secure` (plain-http development only).
   * Default (unset or any other value): `Secure`. workerd has no `NODE_ENV`,
   * so the kit's Node default (secure in production) cannot decide here.
   */
  COOKIE_SECURE?: string;
  /** Sign-ups and sign-in attempts per client IP per 15 minutes (the login limiter's `ipLimit`). Default 50. */
  REGISTER_RATE_LIMIT?: string;
}
