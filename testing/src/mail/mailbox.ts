/**
 * A mailbox for tests: hooks that capture every mail the kit's auth sends (verification, password reset, email
 * change notice, magic link, invitation), and queries that return the last one's link or code, so a test never
 * writes a mail hook by hand.
 * @module
 */
import type { AccountMail, Auth, EmailChangeNotice, EmailParams, OutgoingMessage } from '@framework/auth';
import type { InvitationMail } from '@framework/auth/plugins/organizations';

/**
 * What a captured mail is: one of the kit's mails, or any name an app gives its own (`'otp'`, `'welcome'`) when it
 * records them with {@link Mailbox.capture}.
 */
export type MailKind =
  | 'verify-email'
  | 'reset-password'
  | 'email-change-notice'
  | 'magic-link'
  | 'invitation'
  | 'email-otp'
  | 'sms-otp'
  | (string & {});

/** One captured mail. */
export interface CapturedMail {
  kind: MailKind;
  /** The recipient, trimmed and lower-cased. */
  to: string;
  /** The link in the mail, when it has one. */
  url?: string;
  /** The single-use token of the link (the `token` parameter), when it has one. */
  token?: string;
  /** A code to type in (an email or SMS one-time code), when it has one. */
  code?: string;
  /** What the hook received, unchanged. */
  data: unknown;
  /** When it was sent, on the mailbox's clock (the context's `ctx.clock`). */
  sentAt: Date;
}

/** Picks mails: by recipient (case-insensitive) and kind; an absent key matches every mail. */
export interface MailQuery {
  to?: string;
  kind?: MailKind;
}

/** A mail an app records itself with {@link Mailbox.capture}. */
export interface MailInput {
  kind: MailKind;
  to: string;
  url?: string;
  token?: string;
  code?: string;
  data?: unknown;
}

/**
 * The kit's mail hooks, each capturing what it receives. Pass them on:
 * `emailAndPassword: { ...mail.hooks }`, `email({ from, sendVerificationRequest: mail.hooks.sendVerificationRequest })`,
 * `organizations({ …, sendInvitation: mail.hooks.sendInvitation })`. They never throw.
 */
export interface MailboxHooks {
  /** `emailAndPassword.sendVerificationEmail`: kind `verify-email`, to the address being verified. */
  sendVerificationEmail(mail: AccountMail): Promise<void>;
  /** `emailAndPassword.sendResetPassword`: kind `reset-password`. */
  sendResetPassword(mail: AccountMail): Promise<void>;
  /** `emailAndPassword.sendEmailChangeNotice`: kind `email-change-notice`, to the OLD address (the undo link). */
  sendEmailChangeNotice(mail: EmailChangeNotice): Promise<void>;
  /** The `email()` provider's `sendVerificationRequest`: kind `magic-link`. */
  sendVerificationRequest(params: EmailParams): Promise<void>;
  /** `organizations({ sendInvitation })`: kind `invitation`. */
  sendInvitation(mail: InvitationMail): Promise<void>;
}

/** Captured mails, oldest first, and the hooks that capture them. */
export interface Mailbox {
  readonly hooks: MailboxHooks;
  /** Records a mail the app sends itself (a one-time code, a welcome mail), so the queries and matchers see it. */
  capture(mail: MailInput): CapturedMail;
  /** The mails matching `query`, oldest first (every mail without a query). */
  list(query?: MailQuery): CapturedMail[];
  /**
   * The newest mail matching `query`.
   * @throws Error naming the query and what was sent (kinds and recipients only) when none matches.
   */
  last(query?: MailQuery): CapturedMail;
  /**
   * The link of the newest mail matching `query`.
   * @throws Error when none matches, or that mail has no link.
   */
  link(query?: MailQuery): string;
  /**
   * The code of the newest mail matching `query`: its `code`, else the single-use token of its link.
   * @throws Error when none matches, or that mail has neither.
   */
  code(query?: MailQuery): string;
  /** Forgets every captured mail. */
  clear(): void;
}

const normalize = (address: string) => address.trim().toLowerCase();

function tokenOf(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('token') ?? undefined;
  } catch {
    return undefined;
  }
}

/** `kind "verify-email" to ada@example.com`, for messages. */
export function describeQuery(query: MailQuery = {}): string {
  const parts = [query.kind === undefined ? 'any kind' : `kind ${JSON.stringify(query.kind)}`];
  if (query.to !== undefined) parts.push(`to ${normalize(query.to)}`);
  return parts.join(' ');
}

/** What was sent, without links or codes (they are secrets): `2 mails: verify-email to a@x, invitation to b@x`. */
export function describeMails(mails: readonly CapturedMail[]): string {
  if (mails.length === 0) return 'no mail was sent';
  const list = mails.map((m) => `${m.kind} to ${m.to}`).join(', ');
  return `${mails.length} ${mails.length === 1 ? 'mail' : 'mails'} sent: ${list}`;
}

/** Whether `mail` matches `query`. */
export function matchesMail(mail: CapturedMail, query: MailQuery = {}): boolean {
  return (
    (query.kind === undefined || mail.kind === query.kind) &&
    (query.to === undefined || mail.to === normalize(query.to))
  );
}

/**
 * Creates an empty mailbox.
 *
 * @example
 * ```ts
 * const mail = createMailbox();
 * const auth = createAuth({ adapter, providers: [], emailAndPassword: { requireEmailVerification: true, ...mail.hooks } });
 * // … sign up …
 * const url = mail.link({ to: 'ada@example.com', kind: 'verify-email' });
 * ```
 */
export function createMailbox(options: MailboxOptions = {}): Mailbox {
  const mails: CapturedMail[] = [];
  const now = options.now ?? (() => Date.now());
  // Once the mailbox records an auth's messages (recordMessages), its hooks only pass: the seam saw the mail.
  let observed = false;

  function capture(input: MailInput): CapturedMail {
    const token = input.token ?? (input.url === undefined ? undefined : tokenOf(input.url));
    const mail: CapturedMail = {
      kind: input.kind,
      to: normalize(input.to),
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(token === undefined ? {} : { token }),
      ...(input.code === undefined ? {} : { code: input.code }),
      data: input.data ?? input,
      sentAt: new Date(now()),
    };
    mails.push(mail);
    return mail;
  }

  function last(query?: MailQuery): CapturedMail {
    const found = mails.findLast((mail) => matchesMail(mail, query));
    if (!found) throw new Error(`mailbox: no mail of ${describeQuery(query)}; ${describeMails(mails)}`);
    return found;
  }

  const hooked = (input: MailInput) => void (observed ? undefined : capture(input));
  const account = (kind: MailKind) => async (mail: AccountMail) =>
    hooked({ kind, to: mail.email, url: mail.url, token: mail.token, data: mail });

  const mailbox: Mailbox = {
    hooks: {
      sendVerificationEmail: account('verify-email'),
      sendResetPassword: account('reset-password'),
      sendEmailChangeNotice: account('email-change-notice'),
      sendVerificationRequest: async (params) =>
        hooked({ kind: 'magic-link', to: params.identifier, url: params.url, token: params.token, data: params }),
      sendInvitation: async (mail) => hooked({ kind: 'invitation', to: mail.email, url: mail.url, data: mail }),
    },
    capture,
    list: (query) => mails.filter((mail) => matchesMail(mail, query)),
    last,
    link(query) {
      const mail = last(query);
      if (mail.url === undefined) throw new Error(`mailbox: the last mail of ${describeQuery(query)} has no link`);
      return mail.url;
    },
    code(query) {
      const mail = last(query);
      const code = mail.code ?? mail.token;
      if (code === undefined) throw new Error(`mailbox: the last mail of ${describeQuery(query)} has no code or token`);
      return code;
    },
    clear: () => void mails.splice(0),
  };
  observers.set(mailbox, (auth) => {
    observed = true;
    return auth.onMessage((message) => void capture(mailOf(message)));
  });
  return mailbox;
}

/** Options of {@link createMailbox}. */
export interface MailboxOptions {
  /** The clock of `sentAt`, in ms since the epoch. Default `Date.now()`; a test context passes `ctx.clock.now`. */
  now?: () => number;
}

const observers = new WeakMap<Mailbox, (auth: Auth) => () => void>();

/** A captured mail of an outgoing message. */
function mailOf(message: OutgoingMessage): MailInput {
  return {
    kind: message.kind,
    to: message.to,
    ...(message.url === undefined ? {} : { url: message.url }),
    ...(message.token === undefined ? {} : { token: message.token }),
    ...(message.code === undefined ? {} : { code: message.code }),
    data: message.data,
  };
}

/**
 * Records into `mail` every message `auth` sends (`auth.onMessage`), whatever hooks the app wired: verification,
 * reset, magic link, email change and notice, invitation, email and SMS codes. From then on the mailbox's own
 * `hooks` only pass (the seam already saw the mail), so a mail is recorded once. `createTestContext` calls it for
 * the app's auth.
 * @returns a function that stops recording; undefined when `auth` has no `onMessage` (an older kit: the hooks keep
 *   capturing).
 * @example
 * ```ts
 * const mail = createMailbox();
 * const stop = recordMessages(mail, auth);
 * // … sign up …
 * mail.link({ to: 'ada@example.com', kind: 'verify-email' });
 * stop?.();
 * ```
 */
export function recordMessages(mail: Mailbox, auth: Auth): (() => void) | undefined {
  const observe = observers.get(mail);
  if (!observe || typeof (auth as Partial<Auth>).onMessage !== 'function') return undefined;
  return observe(auth);
}
