import type { ClaimOutcome, ReplayStore } from './store.js';

/**
 * A connected Redis client: node-redis (v4/v5, detected by `sendCommand`) or
 * ioredis (detected by `call`). The store never connects or closes it.
 */
export type ReplayRedisClient =
  | { call(command: string, ...args: Array<string | number>): Promise<unknown> }
  | { sendCommand(args: string[]): Promise<unknown> };

/** Options of {@link redisReplayStore}. */
export interface RedisReplayStoreOptions {
  /** A connected node-redis or ioredis client. */
  client: ReplayRedisClient;
  /** Prefix of every key. Default `'framework:webhook-replay:'`. */
  prefix?: string;
}

/**
 * A replay store shared by every instance on one Redis. A claim is
 * `SET <prefix><key> pending NX EX <lease>` (atomic, so two instances that
 * receive the same delivery at once run it once), a completion `SET … done
 * EX <ttl>`, a release `DEL`. Times are rounded up to whole seconds. Errors
 * of the client reject, and `runtime.fetch` then answers 503 so the sender
 * retries.
 *
 * @throws {TypeError} when `client` is neither a node-redis nor an ioredis client
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * standardWebhooksVerifier({ secret, replay: redisReplayStore({ client }) })
 * ```
 */
export function redisReplayStore(options: RedisReplayStoreOptions): ReplayStore {
  const client = options?.client;
  const prefix = options?.prefix ?? 'framework:webhook-replay:';
  let run: (args: string[]) => Promise<unknown>;
  if (client && typeof (client as { call?: unknown }).call === 'function') {
    const ioredis = client as { call(command: string, ...args: string[]): Promise<unknown> };
    run = ([command, ...args]) => ioredis.call(command!, ...args);
  } else if (client && typeof (client as { sendCommand?: unknown }).sendCommand === 'function') {
    const nodeRedis = client as { sendCommand(args: string[]): Promise<unknown> };
    run = (args) => nodeRedis.sendCommand(args);
  } else {
    throw new TypeError('redisReplayStore: expected a connected node-redis or ioredis client as `client`');
  }
  const seconds = (value: number) => String(Math.max(1, Math.ceil(value)));
  return {
    async claim(key, leaseSeconds): Promise<ClaimOutcome> {
      if ((await run(['SET', prefix + key, 'pending', 'NX', 'EX', seconds(leaseSeconds)])) === 'OK') return 'claimed';
      // Held or done; a key that expired in between counts as held, so the sender simply retries.
      return String(await run(['GET', prefix + key])) === 'done' ? 'done' : 'in-progress';
    },
    async complete(key, ttlSeconds) {
      await run(['SET', prefix + key, 'done', 'EX', seconds(ttlSeconds)]);
    },
    async release(key) {
      await run(['DEL', prefix + key]);
    },
  };
}
