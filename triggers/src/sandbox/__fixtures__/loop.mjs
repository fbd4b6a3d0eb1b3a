/** A sandboxed handler that never returns on a run's first attempt (`while (true) {}`); later attempts finish. */
export default async (event, ctx) => {
  ctx.log.info('start');
  if (ctx.attempt === 1) {
    for (;;) {
      // busy: ignores ctx.signal and never yields
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
};
