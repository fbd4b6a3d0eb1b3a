/**
 * Which app a response came from: `createTestContext` notes the auth and origin of every response its `fetch`
 * returns, so the vitest matchers (`toBeSignedInAs`, `toRedirectTo`) need no configuration for them.
 * @module
 */
import type { Auth } from '@framework/auth';

/** The app a response came from. */
export interface ResponseSource {
  auth: Auth | undefined;
  /** The origin the request was sent to. */
  origin: string;
}

const sources = new WeakMap<Response, ResponseSource>();

/** Notes where `response` came from. */
export function rememberResponse(response: Response, source: ResponseSource): void {
  sources.set(response, source);
}

/** Where `response` came from, when a test context sent it. */
export function responseSource(response: Response): ResponseSource | undefined {
  return sources.get(response);
}
