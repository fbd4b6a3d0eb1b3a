/**
 * `toHaveAuthError(code)`: a JSON error answer `{ error: { code } }` of the kit, a thrown or rejected `AuthError`,
 * or a function that throws one.
 * @module
 */
import { AuthError, type AuthErrorCode } from '@framework/auth';
import type { MatcherState } from 'vitest';
import type { MatcherResult } from './defaults.js';

/** The code found, or why there is none. */
type Found = { code: string; status?: number } | { none: string };

async function fromResponse(response: Response): Promise<Found> {
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const type = response.headers.get('content-type') ?? 'none';
    return {
      none: `the ${response.status} response is not JSON (content-type ${type}); send accept: application/json`,
    };
  }
  const code = (body as { error?: { code?: unknown } } | null)?.error?.code;
  if (typeof code !== 'string') return { none: `the ${response.status} response has no error.code` };
  return { code, status: response.status };
}

async function found(received: unknown): Promise<Found> {
  if (received instanceof Response) return fromResponse(received);
  if (typeof received === 'function') {
    try {
      await (received as () => unknown)();
    } catch (error) {
      return found(error);
    }
    return { none: 'the function did not throw' };
  }
  if (received instanceof AuthError) return { code: received.code, status: received.status };
  if (received instanceof Error) return { none: `it is a ${received.name}, not an AuthError` };
  throw new TypeError('toHaveAuthError: expected a Response, an AuthError or a function that throws one');
}

/** The matcher. */
export async function toHaveAuthError(
  this: MatcherState,
  received: unknown,
  code: AuthErrorCode,
): Promise<MatcherResult> {
  const result = await found(received);
  const pass = 'code' in result && result.code === code;
  const got = 'code' in result ? `${result.code}${result.status === undefined ? '' : ` (${result.status})`}` : '';
  return {
    pass,
    message: () =>
      pass
        ? `expected no auth error ${code}, but got ${got}`
        : `expected auth error ${code}, but ${'none' in result ? result.none : `got ${got}`}`,
  };
}
