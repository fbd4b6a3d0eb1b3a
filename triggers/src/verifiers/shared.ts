import { hmac, matchesAny, type HmacAlgorithm } from './crypto.js';
import { TriggerDefinitionError } from '../errors.js';
import type { VerificationResult, WebhookVerifier } from './types.js';

/** Longest header value a verifier looks at; longer ones are rejected as malformed. */
const MAX_HEADER_LENGTH = 8_192;

/** A failed verification. */
export function invalid(error: string): VerificationResult {
  return { valid: false, error };
}

export const VALID: VerificationResult = Object.freeze({ valid: true });

/** Wraps a check so that any exception becomes `{valid: false}`: verifiers never throw on input. */
export function verifier(name: string, check: (request: Request, rawBody: Uint8Array) => Promise<VerificationResult>): WebhookVerifier {
  return async (request, rawBody) => {
    try {
      return await check(request, rawBody);
    } catch (error) {
      return invalid(`${name}: ${error instanceof Error ? error.message : 'verification error'}`);
    }
  };
}

/** A header's value, or `undefined` when absent, empty or oversized. */
export function header(request: Request, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = request.headers.get(name);
    if (value !== null && value !== '' && value.length <= MAX_HEADER_LENGTH) return value.trim();
  }
  return undefined;
}

/** Checks that `timestampSec` (a decimal string of seconds) lies within `toleranceSec` of now. */
export function checkTimestamp(raw: string | undefined, toleranceSec: number): string | undefined {
  if (raw === undefined) return 'missing timestamp';
  if (!/^\d{1,12}$/.test(raw)) return 'malformed timestamp';
  const skew = Math.abs(Date.now() / 1000 - Number(raw));
  return skew > toleranceSec ? `timestamp outside the tolerance of ${toleranceSec}s` : undefined;
}

/** Factory-time check of a secret option. */
export function requireSecret(factory: string, option: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TriggerDefinitionError(`${factory}({${option}})`, 'expected a non-empty signing secret string');
  }
  return value;
}

/** Factory-time check of a tolerance option in seconds. */
export function requireTolerance(factory: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TriggerDefinitionError(`${factory}({tolerance})`, 'expected a positive number of seconds');
  }
  return value;
}

/** `true` if the HMAC of `parts` equals one of the decoded `candidates` (compared in constant time). */
export async function signatureMatches(
  algorithm: HmacAlgorithm,
  key: string | Uint8Array,
  parts: ReadonlyArray<string | Uint8Array>,
  candidates: ReadonlyArray<Uint8Array | undefined>,
): Promise<boolean> {
  if (!candidates.some(Boolean)) return false;
  return matchesAny(await hmac(algorithm, key, parts), candidates);
}
