/**
 * The account identifier of a sign-in style request: the first non-empty of
 * the configured body fields, read from a clone so the handler still gets
 * the body.
 * @internal
 * @module
 */
import { readFormBody } from '../http/body.js';
import { sha256Hex } from '../crypto.js';

/**
 * Case-, width- and space-insensitive form of an identifier: Unicode NFKC,
 * trimmed, lower-cased. `Alice@Example.COM ` and `alice@example.com` share a
 * budget.
 */
export function normalizeIdentifier(value: string): string {
  return value.normalize('NFKC').trim().toLowerCase();
}

/**
 * The budget key of an identifier: a SHA-256 prefix, so neither memory nor
 * Redis holds e-mail addresses and keys stay short whatever the input.
 */
export async function identifierBudgetKey(value: string): Promise<string | null> {
  const normalised = normalizeIdentifier(value);
  if (normalised === '') return null;
  return (await sha256Hex(normalised)).slice(0, 32);
}

/**
 * Reads `fields` from a JSON, urlencoded or multipart body (the same parser
 * the auth routes use). Unreadable, oversized or malformed bodies give null:
 * the routes refuse those requests themselves.
 */
export async function readIdentifier(
  request: Request,
  fields: readonly string[],
  maxBodySize: number,
): Promise<string | null> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null || request.bodyUsed) return null;
  let body: Record<string, string>;
  try {
    body = await readFormBody(request.clone(), maxBodySize);
  } catch {
    return null;
  }
  for (const field of fields) {
    const value = body[field];
    if (typeof value === 'string' && normalizeIdentifier(value) !== '') return value;
  }
  return null;
}
