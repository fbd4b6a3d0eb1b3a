/**
 * One server-side token verification: the form-encoded POST every supported provider takes (`secret`,
 * `response`, `remoteip`; hCaptcha's `sitekey`) and the `success` / `score` of its JSON answer.
 * @module
 */
import type { AuthLogger } from '../../plugin-kit.js';
import { CAPTCHA_ERRORS } from './errors.js';
import type { ResolvedCaptchaOptions } from './options.js';

/** The fields of a verify answer `captcha()` reads. */
interface VerifyAnswer {
  success?: unknown;
  score?: unknown;
  'error-codes'?: unknown;
}

/** Asks the provider about `token`. */
async function ask(o: ResolvedCaptchaOptions, token: string, ip: string | undefined): Promise<VerifyAnswer> {
  const form = new URLSearchParams({ secret: o.secretKey, response: token });
  if (ip) form.set('remoteip', ip);
  if (o.provider === 'hcaptcha' && o.siteKey) form.set('sitekey', o.siteKey);
  const response = await o.fetch(o.verifyUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: form.toString(),
    signal: AbortSignal.timeout(o.timeout),
  });
  if (!response.ok) throw new Error(`verify endpoint answered ${response.status}`);
  const answer: unknown = await response.json();
  if (!answer || typeof answer !== 'object') throw new Error('verify endpoint answered no JSON object');
  return answer as VerifyAnswer;
}

/**
 * Verifies `token` with the provider.
 * @throws AuthError `CAPTCHA_FAILED` (403) when the provider refuses it or its score is below `minScore`;
 *   `CAPTCHA_UNAVAILABLE` (503) when the endpoint fails (a network error, a timeout, a non-2xx, no JSON).
 */
export async function verifyToken(
  o: ResolvedCaptchaOptions,
  token: string,
  ip: string | undefined,
  logger: AuthLogger,
): Promise<void> {
  let answer: VerifyAnswer;
  try {
    answer = await ask(o, token, ip);
  } catch (error) {
    logger.error(`[captcha] ${o.provider} verification failed: ${error instanceof Error ? error.message : 'unknown'}`);
    throw CAPTCHA_ERRORS.error('CAPTCHA_UNAVAILABLE');
  }
  const codes = Array.isArray(answer['error-codes']) ? answer['error-codes'].map(String) : [];
  // A wrong secret is the app's mistake, not the visitor's: say so in the log.
  if (codes.some((c) => c.includes('secret'))) logger.error(`[captcha] ${o.provider} refused the secret key: ${codes}`);
  if (answer.success !== true) throw CAPTCHA_ERRORS.error('CAPTCHA_FAILED');
  if (o.minScore !== undefined && !(typeof answer.score === 'number' && answer.score >= o.minScore))
    throw CAPTCHA_ERRORS.error('CAPTCHA_FAILED');
}
