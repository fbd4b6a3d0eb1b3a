/**
 * An in-memory KV-like namespace: `get`, `put` (with `expirationTtl` /
 * `expiration`), `delete`, `list`. Expiry is read from `Date.now()`, so fake
 * timers move it.
 * @module
 */

/** Options of {@link MockKVNamespace.put}. */
export interface KVPutOptions {
  /** Seconds from now until the key expires. */
  expirationTtl?: number;
  /** Absolute expiry, in seconds since the epoch. */
  expiration?: number;
  metadata?: unknown;
}

/** One key of a {@link MockKVNamespace.list} page. */
export interface KVListKey {
  name: string;
  /** Seconds since the epoch. */
  expiration?: number;
  metadata?: unknown;
}

/** A page of keys. */
export interface KVListResult {
  keys: KVListKey[];
  list_complete: boolean;
  /** Pass to the next `list` call while `list_complete` is false. */
  cursor?: string;
}

/** How `get` returns a value. Default `text`. */
export type KVValueType = 'text' | 'json' | 'arrayBuffer';

/** A KV-like namespace backed by memory. */
export interface MockKVNamespace {
  get(key: string, type?: KVValueType | { type: KVValueType }): Promise<any>;
  put(key: string, value: string | ArrayBuffer | ArrayBufferView, options?: KVPutOptions): Promise<void>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; limit?: number; cursor?: string }): Promise<KVListResult>;
}

interface Entry {
  value: string | Uint8Array;
  expiresAt?: number;
  metadata?: unknown;
}

function expiryOf(options: KVPutOptions | undefined): number | undefined {
  if (options?.expirationTtl !== undefined) {
    if (!(options.expirationTtl > 0))
      throw new TypeError(`put: expirationTtl must be a positive number of seconds, got ${options.expirationTtl}`);
    return Date.now() + options.expirationTtl * 1000;
  }
  if (options?.expiration !== undefined) return options.expiration * 1000;
  return undefined;
}

function copyValue(value: string | ArrayBuffer | ArrayBufferView): string | Uint8Array {
  if (typeof value === 'string') return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value.slice(0));
  return new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
}

function decode(value: string | Uint8Array, type: KVValueType): unknown {
  if (type === 'arrayBuffer') {
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    return bytes.slice().buffer;
  }
  const text = typeof value === 'string' ? value : new TextDecoder().decode(value);
  return type === 'json' ? JSON.parse(text) : text;
}

/**
 * Creates an empty in-memory namespace.
 *
 * @example
 * ```ts
 * const kv = createMockKVNamespace();
 * await kv.put('session:1', JSON.stringify({ userId: 'u1' }), { expirationTtl: 60 });
 * await kv.get('session:1', 'json'); // { userId: 'u1' }
 * ```
 */
export function createMockKVNamespace(): MockKVNamespace {
  const entries = new Map<string, Entry>();
  const read = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    async get(key, type = 'text') {
      const entry = read(key);
      return entry ? decode(entry.value, typeof type === 'string' ? type : type.type) : null;
    },
    async put(key, value, options) {
      const entry: Entry = { value: copyValue(value) };
      const expiresAt = expiryOf(options);
      if (expiresAt !== undefined) entry.expiresAt = expiresAt;
      if (options?.metadata !== undefined) entry.metadata = structuredClone(options.metadata);
      entries.set(key, entry);
    },
    async delete(key) {
      entries.delete(key);
    },
    async list(options = {}) {
      const prefix = options.prefix ?? '';
      const limit = options.limit ?? 1000;
      const start = Number(options.cursor ?? 0);
      const names = [...entries.keys()].filter((name) => name.startsWith(prefix) && read(name)).sort();
      const page = names.slice(start, start + limit);
      const keys = page.map((name): KVListKey => {
        const entry = entries.get(name)!;
        const key: KVListKey = { name };
        if (entry.expiresAt !== undefined) key.expiration = Math.floor(entry.expiresAt / 1000);
        if (entry.metadata !== undefined) key.metadata = structuredClone(entry.metadata);
        return key;
      });
      const done = start + limit >= names.length;
      return done ? { keys, list_complete: true } : { keys, list_complete: false, cursor: String(start + limit) };
    },
  };
}
