/**
 * Lua shebang flags (`#!lua flags=...`, Redis 7 "Script flags") that stock
 * Redis understands. `@upstash/ratelimit` ≥ 2.1 adds `allow-key-locking`, an
 * Upstash-only flag that Redis refuses with "Unexpected flag in script
 * shebang"; this module removes such flags and keeps the SHA1 bookkeeping
 * that lets EVALSHA of the original script reach the rewritten one.
 * @internal
 * @module
 */
import * as nodeCrypto from 'node:crypto';
import { toHex } from '../crypto.js';
import { BoundedMap } from './bounded-map.js';

/** Flags documented for Redis 7.0–8.x. */
export const REDIS_SCRIPT_FLAGS: ReadonlySet<string> = new Set([
  'no-writes',
  'allow-oom',
  'allow-stale',
  'no-cluster',
  'allow-cross-slot-keys',
]);

/**
 * Returns `script` with unknown flags removed from its shebang line (and an
 * empty `flags=` dropped). Scripts without a shebang come back unchanged.
 *
 * @example
 * ```ts
 * stripUnknownScriptFlags('#!lua flags=allow-key-locking,no-writes\nreturn 1');
 * // → '#!lua flags=no-writes\nreturn 1'
 * ```
 */
export function stripUnknownScriptFlags(script: string, known: ReadonlySet<string> = REDIS_SCRIPT_FLAGS): string {
  if (!script.startsWith('#!')) return script;
  const end = script.indexOf('\n');
  const line = end < 0 ? script : script.slice(0, end);
  const words = line.trim().split(/[ \t]+/);
  const kept = words.map((word, i) => {
    if (i === 0 || !word.startsWith('flags=')) return word;
    const flags = word
      .slice('flags='.length)
      .split(',')
      .filter((f) => known.has(f));
    return flags.length ? `flags=${flags.join(',')}` : '';
  });
  const rewritten = kept.filter((w) => w !== '').join(' ');
  return rewritten === line ? script : rewritten + (end < 0 ? '' : script.slice(end));
}

/** Lower-case hex SHA1, the name Redis gives a script. */
export async function scriptSha(script: string): Promise<string> {
  if (typeof nodeCrypto.createHash === 'function') return nodeCrypto.createHash('sha1').update(script).digest('hex');
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(script))));
}

/** Remembers rewritten scripts and maps each original SHA1 to the rewritten one. */
export class ScriptRewriter {
  private readonly rewritten = new BoundedMap<string, string>(256);
  private readonly shas = new BoundedMap<string, string>(256);

  /** The SHA1 to send instead of `sha` (itself when the script needed no rewrite or is unknown). */
  sha(sha: string): string {
    return this.shas.get(sha.toLowerCase()) ?? sha;
  }

  /** The script to send instead of `script`; records the SHA1 mapping when it changed. */
  async script(script: string): Promise<string> {
    const known = this.rewritten.get(script);
    if (known !== undefined) return known;
    const rewritten = stripUnknownScriptFlags(script);
    if (rewritten !== script) this.shas.set(await scriptSha(script), await scriptSha(rewritten));
    this.rewritten.set(script, rewritten);
    return rewritten;
  }
}
