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
  /** Shared secret of the `/webhooks/demo` signature (`x-signature: sha256=<hex HMAC>`). */
  WEBHOOK_SECRET: string;
}
