/**
 * The signed webhook's secret. Files starting with `_` are not triggers (the
 * loader skips them).
 */

/** The secret used when `WEBHOOK_SECRET` is unset outside production, so the README's curl works. */
export const DEV_WEBHOOK_SECRET = 'dev-webhook-secret';

/** Shortest `WEBHOOK_SECRET` accepted in production. */
export const MIN_PRODUCTION_SECRET_LENGTH = 32;

import { randomBytes } from 'node:crypto';

function weakInProduction(env: NodeJS.ProcessEnv): boolean {
  const secret = env.WEBHOOK_SECRET;
  return (
    env.NODE_ENV === 'production' &&
    (!secret || secret.length < MIN_PRODUCTION_SECRET_LENGTH || secret === DEV_WEBHOOK_SECRET)
  );
}

/**
 * Refuses to start the example in production without a strong
 * `WEBHOOK_SECRET`. Called when the trigger runtime is created (app start),
 * not at import: frameworks import server modules while building.
 * @throws {Error} with `NODE_ENV=production` when `WEBHOOK_SECRET` is unset,
 *   shorter than 32 characters or the development secret.
 */
export function assertWebhookSecret(env: NodeJS.ProcessEnv = process.env): void {
  if (weakInProduction(env)) {
    throw new Error(
      `WEBHOOK_SECRET must be set to a random secret of at least ${MIN_PRODUCTION_SECRET_LENGTH} characters when NODE_ENV=production (e.g. openssl rand -hex 32)`,
    );
  }
}

/**
 * `WEBHOOK_SECRET`; outside production, {@link DEV_WEBHOOK_SECRET} when
 * unset. In production without a strong one: a random secret of this process
 * (nothing verifies against it, and {@link assertWebhookSecret} stops the
 * app at start-up), never a default.
 */
export function webhookSecret(env: NodeJS.ProcessEnv = process.env): string {
  if (weakInProduction(env)) return randomBytes(32).toString('hex');
  return env.WEBHOOK_SECRET || (env.NODE_ENV !== 'production' ? DEV_WEBHOOK_SECRET : '');
}
