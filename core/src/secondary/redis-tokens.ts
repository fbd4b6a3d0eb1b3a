/**
 * Verification tokens (magic links, email verification, password resets, passkey challenges) in Redis instead
 * of the database, for `redisSecondaryStorage`: single-use by `GETDEL`, expiring by a key TTL, and purged by
 * an index sorted by expiry.
 * @module
 * @internal
 */
import { delegateAdapter } from '../storage/delegate.js';
import { StorageConflictError, type StorageAdapter, type VerificationToken } from '../storage/types.js';

/** The part of a node-redis v4/v5 client this uses: raw commands. */
export interface RedisCommandClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * How long a token's key outlives its `expires` (ms): the adapter contract returns an expired token once (the
 * caller tells "expired" from "unknown"), and `purgeExpired` removes it earlier. One day.
 */
const GRACE_MS = 86_400_000;

/**
 * Deletes the keys of the tokens of one identifier (KEYS[1], its own index sorted by expiry) expiring after
 * ARGV[1] (ms; `-inf` for all), removes them from the global index (KEYS[2]), and returns how many existed.
 */
const DELETE_BY_IDENTIFIER = `local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')
local n = 0
for _, k in ipairs(keys) do
  n = n + redis.call('DEL', k)
  redis.call('ZREM', KEYS[1], k)
  redis.call('ZREM', KEYS[2], k)
end
return n`;

/** Sets KEYS[1] to live at least ARGV[1] ms more (never shortens it; Redis 6 has no `PEXPIRE … GT`). */
const EXTEND_TTL = `local t = redis.call('PTTL', KEYS[1])
if t >= 0 and t >= tonumber(ARGV[1]) then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[1])`;

/** Deletes the keys of every token expiring at or before ARGV[1] (ms) and returns how many existed. */
const PURGE = `local keys = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local n = 0
for _, k in ipairs(keys) do n = n + redis.call('DEL', k) end
if #keys > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1]) end
return n`;

/** The token methods of a storage adapter, on Redis under `prefix`. */
export function redisVerificationTokens(
  client: RedisCommandClientLike,
  prefix: string,
): Pick<StorageAdapter, 'createVerificationToken' | 'useVerificationToken' | 'deleteVerificationTokens'> & {
  /** Deletes tokens expiring at or before `now`; resolves how many. */
  purgeExpired(now: Date): Promise<number>;
} {
  const index = `${prefix}vt-index`;
  // The hash is hex and fixed-length, so the identifier after it needs no escaping.
  const keyOf = (identifier: string, tokenHash: string) => `${prefix}vt:${tokenHash}:${identifier}`;
  // Each identifier's tokens, by expiry, for deleteVerificationTokens.
  const byIdentifier = (identifier: string) => `${prefix}vt-id:${identifier}`;
  return {
    async createVerificationToken(token) {
      const key = keyOf(token.identifier, token.tokenHash);
      const expires = token.expires.getTime();
      const ttl = Math.max(expires - Date.now(), 0) + GRACE_MS;
      const value = JSON.stringify({ identifier: token.identifier, tokenHash: token.tokenHash, expires });
      const set = await client.sendCommand(['SET', key, value, 'PX', String(ttl), 'NX']);
      if (set === null) throw new StorageConflictError('Verification token exists already', 'tokenHash');
      await client.sendCommand(['ZADD', index, String(expires), key]);
      const own = byIdentifier(token.identifier);
      await client.sendCommand(['ZADD', own, String(expires), key]);
      await client.sendCommand(['EVAL', EXTEND_TTL, '1', own, String(ttl)]);
      return { identifier: token.identifier, tokenHash: token.tokenHash, expires: new Date(expires) };
    },
    async useVerificationToken({ identifier, tokenHash }) {
      const key = keyOf(identifier, tokenHash);
      const raw = await client.sendCommand(['GETDEL', key]);
      if (typeof raw !== 'string') return null;
      await client.sendCommand(['ZREM', index, key]);
      await client.sendCommand(['ZREM', byIdentifier(identifier), key]);
      const stored = JSON.parse(raw) as { identifier: string; tokenHash: string; expires: number };
      const token: VerificationToken = {
        identifier: stored.identifier,
        tokenHash: stored.tokenHash,
        expires: new Date(stored.expires),
      };
      return token;
    },
    async deleteVerificationTokens({ identifier, expiresAfter }) {
      const after = expiresAfter ? String(expiresAfter.getTime()) : '-inf';
      return Number(
        await client.sendCommand(['EVAL', DELETE_BY_IDENTIFIER, '2', byIdentifier(identifier), index, after]),
      );
    },
    async purgeExpired(now) {
      return Number(await client.sendCommand(['EVAL', PURGE, '1', index, String(now.getTime())]));
    },
  };
}

/** `adapter` with its verification tokens in Redis (see {@link redisVerificationTokens}). */
export function withRedisVerificationTokens(
  adapter: StorageAdapter,
  client: RedisCommandClientLike,
  prefix: string,
): StorageAdapter {
  const tokens = redisVerificationTokens(client, prefix);
  return delegateAdapter(adapter, {
    createVerificationToken: tokens.createVerificationToken,
    useVerificationToken: tokens.useVerificationToken,
    deleteVerificationTokens: tokens.deleteVerificationTokens,
    async purgeExpired(now = new Date(), options) {
      const [stored, inRedis] = await Promise.all([adapter.purgeExpired(now, options), tokens.purgeExpired(now)]);
      return { ...stored, verificationTokens: stored.verificationTokens + inRedis };
    },
  });
}
