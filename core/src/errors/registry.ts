/**
 * The process-wide table of every defined error code (the core's and each plugin's `defineErrorCodes`): what
 * `statusOf`, the error pages and the default messages read wherever an error is answered. One table per process,
 * shared by every copy of the package (ESM and CJS builds, a nested install).
 * @module
 * @internal
 */
import { processShared } from '../brand.js';

/** An error code's entry: its HTTP status, its client-safe default message, and its error-page code. */
export interface ErrorCodeSpec {
  /** The HTTP status the code answers with (4xx or 5xx). */
  readonly status: number;
  /** A client-safe default message (never a secret or a stack). */
  readonly message: string;
  /**
   * The code the error and sign-in pages show it under (`?error=CredentialsSignin`), one of the keys of the page
   * messages; omitted: `Default`.
   */
  readonly page?: string;
}

const codes = processShared('@framework/auth.errorCodes.v1', () => new Map<string, ErrorCodeSpec>());

/** The entry of `code`, or undefined for a code no table defines. */
export function lookupErrorCode(code: string): ErrorCodeSpec | undefined {
  return codes.get(code);
}

/** The code a table of `table` conflicts with (same code, another status, message or page), or undefined. */
export function conflictOf(table: Readonly<Record<string, ErrorCodeSpec>>): string | undefined {
  return Object.keys(table).find((code) => {
    const known = codes.get(code);
    const spec = table[code]!;
    return (
      known !== undefined &&
      (known.status !== spec.status || known.message !== spec.message || known.page !== spec.page)
    );
  });
}

/** Adds every code of `table` (callers check {@link conflictOf} first). */
export function registerErrorCodes(table: Readonly<Record<string, ErrorCodeSpec>>): void {
  for (const [code, spec] of Object.entries(table)) codes.set(code, Object.freeze({ ...spec }));
}

/** The status of a defined code, or 500 for a code no table defines. */
export function statusOf(code: string): number {
  return codes.get(code)?.status ?? 500;
}
