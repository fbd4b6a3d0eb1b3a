/**
 * Concurrent sign-ins in one browser (two tabs submitting at once) carry the same session cookie, and each would
 * rotate it away and re-issue the account it held: two re-issues of one account, of which the browser keeps one
 * (the answer it applies last) and the other is left live in no browser's set. This registry, per auth instance
 * and per process, makes them share one: the first sign-in to keep the account issues its continuation; a sign-in
 * that carried the same token and arrived before that started (so the token was live when it arrived) gets the
 * same session instead of a second one, even when its own read finds the token already rotated away. A request
 * that arrives after the rotation gets nothing from the dead token (OWASP ASVS V3.2.1: the old token stays dead).
 * @module
 * @internal
 */
import type { DeviceSession } from './device-set.js';

/** How long a continuation is remembered for sign-ins still in flight, in milliseconds. */
const REMEMBERED_MS = 5 * 60 * 1000;
/** The most continuations remembered at once (the oldest is forgotten first). */
const REMEMBERED_MAX = 1024;

interface Continuation {
  /** The arrival order at which it started: only requests that arrived no later may share it. */
  started: number;
  /** When it started, by the auth's clock (ms). */
  at: number;
  /** The re-issued session, or null when none was kept (every session of its user ended meanwhile). */
  session: Promise<DeviceSession | null>;
}

/** The continuations of rotated sessions, keyed by the token the sign-ins carried. */
export class Continuations {
  #order = 0;
  readonly #arrivals = new WeakMap<Request, number>();
  readonly #byToken = new Map<string, Continuation>();

  /** Notes the request's arrival (the `beforeAction` hook): only its order among this process's requests counts. */
  arrived(request: Request): void {
    this.#arrivals.set(request, ++this.#order);
  }

  /**
   * The continuation of `token` that `request` may share: started by a sign-in no earlier than it arrived. `now`:
   * the auth's clock, in milliseconds.
   */
  shared(request: Request, token: string, now: number): Promise<DeviceSession | null> | undefined {
    const found = this.#byToken.get(token);
    const arrival = this.#arrivals.get(request);
    if (!found || arrival === undefined || arrival > found.started) return undefined;
    if (now - found.at > REMEMBERED_MS) return undefined;
    return found.session;
  }

  /** Starts the continuation of `token` with `issue` (called at once, before anything is awaited) at `now` (ms). */
  start(token: string, now: number, issue: () => Promise<DeviceSession | null>): Promise<DeviceSession | null> {
    for (const [key, entry] of this.#byToken)
      if (this.#byToken.size >= REMEMBERED_MAX || now - entry.at > REMEMBERED_MS) this.#byToken.delete(key);
      else break;
    const session = issue();
    this.#byToken.set(token, { started: ++this.#order, at: now, session });
    // A failed issue fails the sign-in that started it; a sharer then keeps nothing rather than failing too.
    session.catch(() => this.#byToken.delete(token));
    return session;
  }
}
