/**
 * `toBeSignedInAs(email)`: whether a response's `Set-Cookie`, or a test context's cookie jar, holds a session of
 * that user, as the kit's own `auth.getSession` reads it (a forged, expired or cleared cookie holds none).
 * @module
 */
import type { Auth } from '@framework/auth';
import type { MatcherState } from 'vitest';
import { createCookieJar, type TestCookieJar } from '../context/cookie-jar.js';
import { responseSource } from '../context/responses.js';
import { DEFAULT_ORIGIN, matcherDefaults, type MatcherResult } from './defaults.js';

/** Options of `toBeSignedInAs`. */
export interface SignedInOptions {
  /** The kit's auth that reads the session. Default: the test context's, then `configureMatchers({ auth })`. */
  auth?: Auth;
}

interface Subject {
  what: string;
  jar: TestCookieJar;
  auth: Auth | undefined;
  origin: string;
}

const isJar = (value: unknown): value is TestCookieJar =>
  typeof value === 'object' && value !== null && typeof (value as TestCookieJar).header === 'function';

/** A test context (or anything with the kit's `auth`, a cookie jar and an origin). */
interface ContextLike {
  auth?: Auth;
  cookies: TestCookieJar;
  origin?: string;
}
const isContext = (value: unknown): value is ContextLike =>
  typeof value === 'object' && value !== null && isJar((value as ContextLike).cookies);

function subjectOf(received: unknown): Subject {
  const defaults = matcherDefaults();
  if (received instanceof Response) {
    const jar = createCookieJar();
    jar.store(received.headers.getSetCookie());
    const source = responseSource(received);
    return {
      what: 'the response',
      jar,
      auth: source?.auth ?? defaults.auth,
      origin: source?.origin ?? defaults.origin ?? DEFAULT_ORIGIN,
    };
  }
  if (isContext(received))
    return {
      what: 'the test context',
      jar: received.cookies,
      auth: received.auth ?? defaults.auth,
      origin: received.origin ?? defaults.origin ?? DEFAULT_ORIGIN,
    };
  if (isJar(received))
    return { what: 'the cookie jar', jar: received, auth: defaults.auth, origin: defaults.origin ?? DEFAULT_ORIGIN };
  throw new TypeError('toBeSignedInAs: expected a Response, a test context or its cookie jar');
}

/** The matcher. */
export async function toBeSignedInAs(
  this: MatcherState,
  received: unknown,
  email: string,
  options: SignedInOptions = {},
): Promise<MatcherResult> {
  if (typeof email !== 'string' || email === '')
    throw new TypeError('toBeSignedInAs: email must be a non-empty string');
  const subject = subjectOf(received);
  const auth = options.auth ?? subject.auth;
  if (!auth)
    throw new TypeError(
      "toBeSignedInAs: no kit auth to read the session with; pass { auth }, call configureMatchers({ auth }), or use a test context's response",
    );
  const cookie = subject.jar.header(auth.config.basePath);
  const { user } = await auth.getSession(
    new Request(new URL(auth.config.basePath, subject.origin), { headers: { cookie } }),
  );
  const want = email.trim().toLowerCase();
  const got = user?.email?.toLowerCase();
  const pass = got === want;
  const holds = !cookie
    ? 'it holds no cookie'
    : !user
      ? 'its cookies hold no live session'
      : `its session is ${got === undefined ? `user ${JSON.stringify(user.id)} (no email)` : got}`;
  return {
    pass,
    message: () =>
      pass
        ? `expected ${subject.what} not to be signed in as ${want}, but it is`
        : `expected ${subject.what} to be signed in as ${want}, but ${holds}`,
  };
}
