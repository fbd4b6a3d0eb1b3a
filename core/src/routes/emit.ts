/**
 * The routes' side of auth events: one event context per request, and the
 * calls into the app's `events` hooks (free when no hook is set).
 * @internal
 * @module
 */
import { beforeSignIn, emitAuthEvent, eventContext, type AuthEventName, type AuthEventPayloads } from '../events.js';
import type { Account, User } from '../types.js';
import type { RouteContext } from '../contract/types.js';

function contextOf(ctx: RouteContext) {
  return (ctx.eventContext ??= eventContext(ctx.request, ctx.ip, new Date(ctx.auth.clock.now())));
}

/** Calls the app's `on*` hook for `name`, if any; never throws. */
export function emit<N extends AuthEventName>(
  ctx: RouteContext,
  name: N,
  payload: AuthEventPayloads[N],
): Promise<void> {
  ctx.auth.telemetry.recordEvent(name, payload);
  const events = ctx.auth.events;
  const listeners = ctx.auth.hooks.onEvent;
  if (!events?.[name] && listeners.length === 0) return Promise.resolve();
  return emitAuthEvent({ events, listeners, logger: ctx.auth.logger }, contextOf(ctx), name, payload);
}

/** Calls `beforeSignIn`, if set. @throws AuthError from the hook (the sign-in is refused). */
export function emitBeforeSignIn(
  ctx: RouteContext,
  payload: { user: User; account: Account | null; isNewUser: boolean },
): Promise<void> {
  const events = ctx.auth.events;
  if (!events?.beforeSignIn) return Promise.resolve();
  return beforeSignIn({ events, logger: ctx.auth.logger }, contextOf(ctx), payload);
}
