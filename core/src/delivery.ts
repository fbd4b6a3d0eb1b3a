/**
 * The one seam every outgoing message of the kit and its plugins passes through (verification and reset links,
 * magic links, email-change links and undo notices, invitations, email and SMS one-time codes): the route hands
 * the message and the app's hook to `deliver`, which shows the message to the observers registered with
 * `auth.onMessage` and then runs the hook. `@framework/testing` records `ctx.mail` there, whatever hooks the app
 * wired. Messages carry secrets (links, codes): they are never logged here.
 * @module
 */

/** What a message is. The kit's kinds, or a plugin's own. */
export type OutgoingMessageKind =
  | 'verify-email'
  | 'reset-password'
  | 'email-change-notice'
  | 'magic-link'
  | 'invitation'
  | 'email-otp'
  | 'sms-otp'
  | (string & {});

/**
 * A message the kit hands to one of the app's send hooks. `url`/`token`/`code` are secrets: an observer must not
 * log them.
 */
export interface OutgoingMessage {
  kind: OutgoingMessageKind;
  channel: 'email' | 'sms';
  /** The recipient: an email address (as the hook receives it) or a phone number (E.164). */
  to: string;
  /** The link in the message, when it has one. */
  url?: string;
  /** The single-use token of the link, when it has one. */
  token?: string;
  /** A code to type in, when it has one. */
  code?: string;
  /** When the link or code stops working, when it does. */
  expiresAt?: Date;
  /** What the app's hook receives, unchanged. */
  data: unknown;
}

/** Called with every outgoing message, before the app's hook runs. What it throws is logged (name only) and ignored. */
export type MessageObserver = (message: OutgoingMessage) => void;

/** The seam: `deliver` for routes, `observe` behind `auth.onMessage`. @internal */
export interface Delivery {
  /** Shows `message` to the observers, then runs `send` (the app's hook) in a microtask and answers its result. */
  deliver<T>(message: OutgoingMessage, send: () => T | PromiseLike<T>): Promise<Awaited<T>>;
  /** Adds an observer; the answer removes it. */
  observe(observer: MessageObserver): () => void;
}

/** Creates the seam of one auth instance. @internal */
export function createDelivery(logger: { warn(message: string): void }): Delivery {
  const observers = new Set<MessageObserver>();
  return {
    deliver(message, send) {
      for (const observer of observers) {
        try {
          observer(message);
        } catch (error) {
          logger.warn(`[auth] a message observer threw: ${error instanceof Error ? error.name : typeof error}`);
        }
      }
      return Promise.resolve().then(send) as Promise<Awaited<ReturnType<typeof send>>>;
    },
    observe(observer) {
      if (typeof observer !== 'function') throw new TypeError('auth.onMessage: the observer must be a function');
      // A wrapper per registration, so one function registered twice is removed once per call.
      const entry: MessageObserver = (message) => observer(message);
      observers.add(entry);
      return () => void observers.delete(entry);
    },
  };
}
