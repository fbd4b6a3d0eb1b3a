import { defineTrigger } from '@framework/trigger';

export default defineTrigger({
  source: { type: 'queue', name: 'mail', batchSize: 5 },
  config: { retries: 1 },
  handle: (event, ctx) => {
    for (const message of event.messages) {
      const body = message.body as { to?: string };
      if (!body.to) message.deadLetter('no recipient');
      else if (ctx.env.paused) message.retry({ delay: '1m' });
    }
  },
});
