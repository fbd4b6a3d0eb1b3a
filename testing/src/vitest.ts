/**
 * `@framework/testing/vitest`: matchers for apps built with the kit. One import in a vitest setup file registers
 * them (`expect.extend`) and types them on vitest's `Assertion`:
 *
 * ```ts
 * // vitest.setup.ts
 * import '@framework/testing/vitest';
 * ```
 * @module
 */
import { expect } from 'vitest';
import type { AuthErrorCode } from '@framework/auth';
import { toBeSignedInAs, type SignedInOptions } from './vitest/session.js';
import { toRedirectTo, type RedirectOptions } from './vitest/redirect.js';
import { toHaveAuthError } from './vitest/auth-error.js';
import { toHaveRun, type HaveRunOptions } from './vitest/runs.js';
import { toHaveSentMail, type SentMailQuery } from './vitest/mail.js';

export { configureMatchers, type MatcherDefaults } from './vitest/defaults.js';

export type { SignedInOptions, RedirectOptions, HaveRunOptions, SentMailQuery };

expect.extend({ toBeSignedInAs, toRedirectTo, toHaveAuthError, toHaveRun, toHaveSentMail });

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the type parameter of the declaration merged with
  interface Assertion<T = any> {
    /**
     * The `Set-Cookie` of a response, or the cookie jar of a test context, holds a live session of the user with
     * this email, as the kit's `auth.getSession` reads it. Await it.
     */
    toBeSignedInAs(email: string, options?: SignedInOptions): Promise<void>;
    /**
     * A 3xx response whose `Location` is `path` on the app's origin (relative or absolute); a path without a query
     * matches any query. A `Location` on another origin never matches a path.
     */
    toRedirectTo(path: string, options?: RedirectOptions): void;
    /** A JSON answer `{ error: { code } }`, an `AuthError`, or a function that throws one, with this code. Await it. */
    toHaveAuthError(code: AuthErrorCode): Promise<void>;
    /** A run recorder, trigger runtime or test context saw `trigger` run (`times` exactly, with fields `with`). */
    toHaveRun(trigger: string, options?: HaveRunOptions): void;
    /** A mailbox or test context captured a mail matching `{ to, kind }` (`times` exactly). */
    toHaveSentMail(query?: SentMailQuery): void;
  }
}
