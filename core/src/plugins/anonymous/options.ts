/**
 * The options of `anonymous()`.
 * @module
 */
import { AuthConfigError } from '../../plugin-kit.js';
import type { User } from '../../index.js';
import type { AnonymousStorage } from './storage/types.js';

/** What `onLinkAccount` receives. */
export interface AnonymousLink {
  /** The guest, as stored when the sign-in began. It is deleted after the hook returns. */
  anonymousUser: User;
  /** The user the browser just signed in (or up) as. */
  newUser: User;
}

/** Options of `anonymous()`. */
export interface AnonymousOptions {
  /**
   * Runs when a guest signs up or signs in by any method, after the new session is issued and before the guest
   * is deleted: move the guest's data (a cart, drafts) to `newUser`. Awaited. A throw is logged (by error name)
   * and the guest is then kept (not deleted) so its data can still be moved; the sign-in itself stands.
   */
  onLinkAccount?: (link: AnonymousLink) => void | Promise<void>;
  /**
   * Give each guest an address `guest-<random>@<emailDomain>` (a domain you control or a reserved one such as
   * `guest.invalid`). Default: guests have no email address.
   */
  emailDomain?: string;
  /** Where the guest marks live. Default: a table in the auth adapter's own database (memory on the memory adapter). */
  storage?: AnonymousStorage;
}

/** The options with defaults applied. */
export interface ResolvedAnonymousOptions {
  onLinkAccount: AnonymousOptions['onLinkAccount'];
  emailDomain: string | undefined;
}

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the option at fault.
 */
export function resolveAnonymousOptions(options: AnonymousOptions): ResolvedAnonymousOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: anonymous(): ${what}`);
  if (typeof options !== 'object' || options === null) throw fail('needs an options object');
  if (options.onLinkAccount !== undefined && typeof options.onLinkAccount !== 'function')
    throw fail('onLinkAccount must be a function');
  if (
    options.emailDomain !== undefined &&
    (typeof options.emailDomain !== 'string' || !DOMAIN.test(options.emailDomain))
  )
    throw fail('emailDomain must be a lower-case domain name such as "guest.example.com"');
  if (options.storage !== undefined && typeof options.storage?.isAnonymous !== 'function')
    throw fail('storage must be an AnonymousStorage');
  return { onLinkAccount: options.onLinkAccount, emailDomain: options.emailDomain };
}
