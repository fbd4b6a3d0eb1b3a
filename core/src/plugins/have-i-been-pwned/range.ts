/**
 * One k-anonymity lookup in the Pwned Passwords range API: only the first 5 hex characters of the password's
 * SHA-1 leave the process; the answer lists every known suffix under that prefix with its count.
 * @module
 */
import { toHex } from '../../plugin-kit.js';
import type { ResolvedPwnedOptions } from './options.js';

/** The password's SHA-1 in upper-case hex (the corpus's spelling). */
async function sha1Hex(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(password));
  return toHex(new Uint8Array(digest)).toUpperCase();
}

/**
 * How many times `password` appears in the corpus (0: not found; padding entries count 0).
 * @throws Error when the range API fails (network error, timeout, non-2xx answer).
 */
export async function rangeCount(o: ResolvedPwnedOptions, password: string): Promise<number> {
  const hash = await sha1Hex(password);
  const prefix = hash.slice(0, 5);
  const suffix = hash.slice(5);
  const headers: Record<string, string> = { 'user-agent': '@framework/auth haveIBeenPwned' };
  if (o.padding) headers['add-padding'] = 'true';
  const response = await o.fetch(`${o.endpoint}${prefix}`, { headers, signal: AbortSignal.timeout(o.timeout) });
  if (!response.ok) throw new Error(`range API answered ${response.status}`);
  for (const line of (await response.text()).split('\n')) {
    const [candidate, count] = line.trim().split(':');
    if (candidate?.toUpperCase() === suffix) return Number.parseInt(count ?? '0', 10) || 0;
  }
  return 0;
}
