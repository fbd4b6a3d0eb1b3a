import { hmac, matchesAny, type HmacAlgorithm } from './crypto.js';
import { TriggerDefinitionError } from '../errors.js';
import { memoryReplayStore, type ReplayStore } from '../replay/store.js';
import type { ReplayPolicy, VerificationResult, WebhookVerifier } from './types.js';

/** Longest header value a verifier looks at; longer ones are rejected as malformed. */
const MAX_HEADER_LENGTH = 8_192;

/** A failed verification. */
export function invalid(error: string): VerificationResult {
  return { valid: false, error };
}

export const VALID: VerificationResult = Object.freeze({ valid: true });

/** Wraps a check so that any exception becomes `{valid: false}`: verifiers never throw on input. */
export function verifier(
  name: string,
  check: (request: Request, rawBody: Uint8Array) => Promise<VerificationResult>,
): WebhookVerifier {
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

/** Factory-time check of a tolerance option (or another window, named by `option`) in seconds. */
export function requireTolerance(factory: string, value: unknown, fallback: number, option = 'tolerance'): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TriggerDefinitionError(`${factory}({${option}})`, 'expected a positive number of seconds');
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

/** A delivery id we de-duplicate on: 1–256 visible ASCII characters. */
const DELIVERY_ID = /^[\x21-\x7e]{1,256}$/;

/** `true` when `id` can serve as a replay key. */
export function isDeliveryId(id: string | undefined): id is string {
  return id !== undefined && DELIVERY_ID.test(id);
}

/**
 * Factory-time check of a `replay` option: a {@link ReplayStore}, `false` (no
 * de-duplication) or `undefined` (a fresh {@link memoryReplayStore}).
 */
export function replayOption(factory: string, value: unknown): ReplayStore | undefined {
  if (value === false) return undefined;
  if (value === undefined) return memoryReplayStore();
  const store = value as Partial<ReplayStore>;
  const methods = ['claim', 'complete', 'release'] as const;
  if (typeof store !== 'object' || store === null || methods.some((m) => typeof store[m] !== 'function')) {
    throw new TriggerDefinitionError(
      `${factory}({replay})`,
      'expected a replay store (memoryReplayStore(), redisReplayStore()) or false',
    );
  }
  return store as ReplayStore;
}

/** Attaches a {@link ReplayPolicy} to `check` when a store is set. */
export function withReplay(
  check: WebhookVerifier,
  store: ReplayStore | undefined,
  ttlSeconds: number,
  deliveryId: (request: Request) => string | undefined,
): WebhookVerifier {
  if (!store) return check;
  const replay: ReplayPolicy = Object.freeze({ store, ttlSeconds, deliveryId });
  return Object.defineProperty(check, 'replay', { value: replay, enumerable: false });
}
