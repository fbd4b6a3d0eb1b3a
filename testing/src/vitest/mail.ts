/**
 * `toHaveSentMail({ to, kind, times? })`: mails a mailbox captured.
 * @module
 */
import type { MatcherState } from 'vitest';
import type { MatcherResult } from './defaults.js';
import { describeMails, describeQuery, type Mailbox, type MailQuery } from '../mail/mailbox.js';

/** What `toHaveSentMail` looks for. */
export interface SentMailQuery extends MailQuery {
  /** Exactly this many matching mails. Default: at least one. */
  times?: number;
}

const isMailbox = (value: unknown): value is Mailbox =>
  typeof value === 'object' && value !== null && typeof (value as Mailbox).list === 'function' && 'hooks' in value;

/** The matcher. */
export function toHaveSentMail(this: MatcherState, received: unknown, query: SentMailQuery = {}): MatcherResult {
  const mailbox = isMailbox(received) ? received : (received as { mail?: unknown } | null)?.mail;
  if (!isMailbox(mailbox)) throw new TypeError('toHaveSentMail: expected a mailbox or a test context');
  if (query.times !== undefined && !(Number.isInteger(query.times) && query.times >= 0))
    throw new TypeError('toHaveSentMail: times must be a whole number');
  const count = mailbox.list(query).length;
  const pass = query.times === undefined ? count > 0 : count === query.times;
  const wanted = query.times === undefined ? 'a mail' : `${query.times} ${query.times === 1 ? 'mail' : 'mails'}`;
  return {
    pass,
    message: () =>
      `expected ${pass ? 'not ' : ''}to have sent ${wanted} of ${describeQuery(query)}, but ${count} ${count === 1 ? 'matches' : 'match'}; ${describeMails(mailbox.list())}`,
  };
}
