/** A sandboxed handler that exercises what crosses into its worker, chosen by `event.use` (or a queue body's). */
export default async (event, ctx) => {
  const use = event.use ?? event.messages?.[0]?.body.use;
  if (use === 'log') ctx.log.warn('hello from the worker', { attempt: ctx.attempt, traceId: ctx.traceId });
  if (use === 'env') return void ctx.env;
  if (use === 'step') return void ctx.step;
  if (use === 'emit') await ctx.emit('sink', { from: 'sandbox', date: new Date(0) });
  if (use === 'noRetry') {
    ctx.noRetry();
    throw new Error('gave up');
  }
  if (use === 'coded') throw Object.assign(new Error('declined'), { code: 'CARD_DECLINED', retryable: false });
  if (use === 'decide') {
    const [first, second] = event.messages;
    first.ack();
    second.deadLetter('poison');
    throw new Error('the undecided ones retry');
  }
  if (use === 'abort') {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    ctx.log.info(`aborted: ${ctx.signal.reason.code}`);
  }
};
