import type { AuthPlugin } from '../../contract/types.js';
import { UnauthenticatedError } from '../../errors.js';

/** Counts each user's sign-ins; `GET /sign-ins` reads the count, `POST /sign-ins/reset` clears it. */
export function signInCounter(): AuthPlugin<'signInCounter', { count(userId: string): number }> {
  const counts = new Map<string, number>();
  return {
    id: 'signInCounter',
    init: () => ({ count: (userId) => counts.get(userId) ?? 0 }),
    hooks: {
      afterSignIn(_ctx, { user }) {
        counts.set(user.id, (counts.get(user.id) ?? 0) + 1);
      },
    },
    routes: {
      'sign-ins': {
        async GET(ctx) {
          const { user } = await ctx.auth.readSession(ctx.request);
          if (!user) throw new UnauthenticatedError();
          return { status: 200, json: { count: counts.get(user.id) ?? 0 } };
        },
      },
      'sign-ins/reset': {
        // POST routes are CSRF-checked by the core (token by default) before this runs.
        async POST(ctx) {
          const { user } = await ctx.auth.readSession(ctx.request);
          if (!user) throw new UnauthenticatedError();
          counts.delete(user.id);
          return { status: 200, json: { ok: true } };
        },
        rateLimit: (ctx) =>
          ctx.auth.limiters.login ? { limiter: ctx.auth.limiters.login, mode: 'attempt' } : undefined,
      },
    },
  };
}
