import { defineTrigger, type TriggerContext } from '@framework/trigger';
import type { StorageAdapter } from '@framework/auth';

/** The part of the example app's env this trigger uses. */
interface CleanupEnv {
  auth: { adapter: Pick<StorageAdapter, 'purgeExpired'> };
}

/**
 * Every night at 03:00 UTC, purge what has expired by the scheduled time:
 * database sessions, verification tokens (magic links, password resets) and
 * passkey challenges.
 */
export default defineTrigger({
  source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'UTC' },
  config: { retries: 2, retryDelay: '5m', timeout: '2m' },
  handle: async (event, ctx: TriggerContext<CleanupEnv>) => {
    const purged = await ctx.env.auth.adapter.purgeExpired(event.scheduledTime);
    console.info(
      `[daily-cleanup] purged ${purged.sessions} expired session(s) and ${purged.verificationTokens} verification token(s) (trace ${ctx.traceId})`,
    );
  },
});
