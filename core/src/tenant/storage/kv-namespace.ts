/**
 * One JSON key-value interface over the stores `createKeyValueTenantStorage`
 * accepts, told apart by their methods.
 * @module
 * @internal
 */

/** A KV namespace with `get`/`put`/`delete` (the shape of edge KV stores). Values are strings. */
export interface KeyValueNamespace {
  get(key: string): Promise<string | null>;
  put(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<unknown>;
}

/**
 * A Redis client with `get`/`set`/`del`: node-redis (v4/v5, connected) or
 * `@upstash/redis` (whose `get` may return the JSON already parsed).
 */
export interface RedisLikeClient {
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/** What the tenant storage accepts as a namespace. */
export type TenantKeyValueStore = KeyValueNamespace | RedisLikeClient;

/** JSON values by key. */
export interface JsonStore {
  read<T>(key: string): Promise<T | null>;
  write(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

const hasMethods = (value: object, names: string[]) =>
  names.every((n) => typeof (value as Record<string, unknown>)[n] === 'function');

/** A stored value back as JSON: strings are parsed; objects (a client that parsed already) pass through. */
function decode<T>(raw: unknown): T | null {
  if (raw === null || raw === undefined) return null;
  return (typeof raw === 'string' ? JSON.parse(raw) : raw) as T;
}

/**
 * Wraps `store`: `put`/`delete` marks a KV namespace, `set`/`del` a Redis client.
 * @throws TypeError for anything else.
 */
export function jsonStore(store: TenantKeyValueStore): JsonStore {
  if (store !== null && typeof store === 'object') {
    if (hasMethods(store, ['get', 'put', 'delete'])) {
      const kv = store as KeyValueNamespace;
      return {
        read: async (key) => decode(await kv.get(key)),
        write: async (key, value) => void (await kv.put(key, JSON.stringify(value))),
        remove: async (key) => void (await kv.delete(key)),
      };
    }
    if (hasMethods(store, ['get', 'set', 'del'])) {
      const redis = store as RedisLikeClient;
      return {
        read: async (key) => decode(await redis.get(key)),
        write: async (key, value) => void (await redis.set(key, JSON.stringify(value))),
        remove: async (key) => void (await redis.del(key)),
      };
    }
  }
  throw new TypeError(
    'createKeyValueTenantStorage needs a KV namespace ({get, put, delete}), a node-redis client or an @upstash/redis client',
  );
}
