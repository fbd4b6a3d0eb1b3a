/**
 * The storage of a mock stateful object: key/value pairs in memory (values
 * are copied with `structuredClone`, as real storage serialises them),
 * `put` as a vitest spy, transactions that roll back on a throw, and one alarm.
 * @module
 */
import { vi, type Mock } from 'vitest';

/** Options of {@link MockStatefulStorage.list}: keys are sorted; `start` is inclusive, `end` exclusive. */
export interface StorageListOptions {
  prefix?: string;
  start?: string;
  end?: string;
  limit?: number;
  reverse?: boolean;
}

/** Key/value operations shared by the storage and its transactions. */
export interface StatefulStorageOperations {
  get<T = unknown>(key: string): Promise<T | undefined>;
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  /** `put(key, value)` or `put({key: value, …})`; a spy. */
  put: Mock<(keyOrEntries: string | Record<string, unknown>, value?: unknown) => Promise<void>>;
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options?: StorageListOptions): Promise<Map<string, T>>;
}

/** A transaction: the storage operations plus `rollback()`. */
export interface StatefulTransaction extends StatefulStorageOperations {
  /** Undo everything this transaction wrote, when it ends. */
  rollback(): void;
}

/** The `storage` of a mock stateful object state. */
export interface MockStatefulStorage extends StatefulStorageOperations {
  deleteAll(): Promise<void>;
  /** Runs `fn` alone; its writes are undone if it throws or calls `rollback()`. */
  transaction<T>(fn: (txn: StatefulTransaction) => Promise<T> | T): Promise<T>;
  /** The alarm time in ms since the epoch, or null. */
  getAlarm(): Promise<number | null>;
  setAlarm(time: number | Date): Promise<void>;
  deleteAlarm(): Promise<void>;
}

function operations(data: Map<string, unknown>): StatefulStorageOperations {
  const get = async (keyOrKeys: string | string[]) => {
    if (!Array.isArray(keyOrKeys)) return structuredClone(data.get(keyOrKeys));
    const found = new Map<string, unknown>();
    for (const key of keyOrKeys) if (data.has(key)) found.set(key, structuredClone(data.get(key)));
    return found;
  };
  const remove = async (keyOrKeys: string | string[]) => {
    if (!Array.isArray(keyOrKeys)) return data.delete(keyOrKeys);
    return keyOrKeys.filter((key) => data.delete(key)).length;
  };
  const put = vi.fn(async (keyOrEntries: string | Record<string, unknown>, value?: unknown) => {
    const entries = typeof keyOrEntries === 'string' ? { [keyOrEntries]: value } : keyOrEntries;
    for (const [key, v] of Object.entries(entries)) data.set(key, structuredClone(v));
  });
  return {
    get: get as StatefulStorageOperations['get'],
    delete: remove as StatefulStorageOperations['delete'],
    put: put as StatefulStorageOperations['put'],
    async list<T>(options: StorageListOptions = {}) {
      let keys = [...data.keys()]
        .sort()
        .filter(
          (key) =>
            key.startsWith(options.prefix ?? '') &&
            (options.start === undefined || key >= options.start) &&
            (options.end === undefined || key < options.end),
        );
      if (options.reverse) keys = keys.reverse();
      if (options.limit !== undefined) keys = keys.slice(0, options.limit);
      return new Map(keys.map((key) => [key, structuredClone(data.get(key)) as T]));
    },
  };
}

/**
 * Creates empty storage.
 *
 * @example
 * ```ts
 * const storage = createMockStatefulStorage();
 * await storage.put('count', 1);
 * await storage.transaction(async (txn) => { await txn.put('count', 2); txn.rollback(); });
 * await storage.get('count'); // 1
 * ```
 */
export function createMockStatefulStorage(): MockStatefulStorage {
  const data = new Map<string, unknown>();
  let alarm: number | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const base = operations(data);
  return {
    ...base,
    async deleteAll() {
      data.clear();
    },
    transaction<T>(fn: (txn: StatefulTransaction) => Promise<T> | T): Promise<T> {
      const run = async () => {
        const snapshot = new Map(data);
        const alarmBefore = alarm;
        let rolledBack = false;
        const restore = () => {
          data.clear();
          for (const [key, value] of snapshot) data.set(key, value);
          alarm = alarmBefore;
        };
        try {
          const result = await fn({ ...operations(data), rollback: () => void (rolledBack = true) });
          if (rolledBack) restore();
          return result;
        } catch (error) {
          restore();
          throw error;
        }
      };
      const result = queue.then(run, run);
      queue = result.catch(() => {});
      return result;
    },
    async getAlarm() {
      return alarm;
    },
    async setAlarm(time) {
      alarm = typeof time === 'number' ? time : time.getTime();
    },
    async deleteAlarm() {
      alarm = null;
    },
  };
}
