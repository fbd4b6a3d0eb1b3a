import { defineTrigger, type TriggerContext } from '@framework/trigger';
import type { StorageAdapter } from '@framework/auth';

/** The part of the example app's env this trigger uses. */
interface CleanupEnv {
  auth: { adapter: Pick<StorageAdapter, 'purgeExpired'> };
}

/** How the nightly purge paces itself (see `PurgeOptions`). */
const PURGE_PACE = { batchSize: 2_000, budgetMs: 90_000 } as const;

/**
 * Every night at 03:00 UTC, purge what has expired by the scheduled time:
 * database sessions, verification tokens (magic links, password resets) and
 * passkey challenges.
 */
export default defineTrigger({
  source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'UTC' },
  config: { retries: 2, retryDelay: '5m', timeout: '2m' },
  handle: async (event, ctx: TriggerContext<CleanupEnv>) => {
    // Each delete sized to take about 20 ms (never more than 2 000 rows), a yield between them, and at most 90 s
    // of work: well inside the 2 min timeout.
    // Rows left over (a backlog after downtime) go on the next run.
    const purged = await ctx.env.auth.adapter.purgeExpired(event.scheduledTime, PURGE_PACE);
    console.info(
      `[daily-cleanup] purged ${purged.sessions} expired session(s) and ${purged.verificationTokens} verification token(s)${purged.more ? ', more remain for the next run' : ''} (trace ${ctx.traceId})`,
    );
  },
});
