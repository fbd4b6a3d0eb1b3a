import { defineTrigger } from '@framework/trigger';

export default defineTrigger({
  source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'Europe/Berlin' },
  handle: async (event, ctx) => {
    await ctx.emit('mailer', { report: event.scheduledTime.toISOString() });
  },
});
