/**
 * A deadline for storage calls.
 * @internal
 * @module
 */

/** Raised when the storage answers later than the limiter's `timeout`. */
export class RateLimitTimeoutError extends Error {
  constructor(ms: number) {
    super(`Rate limit storage did not answer within ${ms} ms`);
    this.name = 'RateLimitTimeoutError';
  }
}

/**
 * Settles with `promise`, or rejects with {@link RateLimitTimeoutError} after
 * `ms` milliseconds. A late rejection of `promise` is swallowed, so an
 * abandoned call never becomes an unhandled rejection.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RateLimitTimeoutError(ms)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
