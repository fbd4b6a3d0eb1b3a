import { defineTrigger, type TriggerContext } from '@framework/trigger';

/** The part of the example app's env this trigger uses. */
interface CleanupEnv {
  auth: { adapter: { deleteExpiredSessions(now: Date): Promise<number> } };
}

/** Every night at 03:00 UTC, delete sessions whose expiry has passed. */
export default defineTrigger({
  source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'UTC' },
  config: { retries: 2, retryDelay: '5m', timeout: '2m' },
  handle: async (event, ctx: TriggerContext<CleanupEnv>) => {
    const deleted = await ctx.env.auth.adapter.deleteExpiredSessions(event.scheduledTime);
    console.info(`[daily-cleanup] deleted ${deleted} expired session(s) (trace ${ctx.traceId})`);
  },
});
