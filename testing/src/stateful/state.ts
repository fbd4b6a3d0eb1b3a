/**
 * `createMockStatefulObjectState`: the state a stateful object is built with.
 * @module
 */
import { createMockStatefulStorage, type MockStatefulStorage } from './storage.js';

/** The id of a stateful object. */
export interface MockStatefulObjectId {
  readonly name?: string;
  toString(): string;
  equals(other: { toString(): string }): boolean;
}

/** A mock state: `id`, in-memory `storage`, `blockConcurrencyWhile`, `waitUntil`. */
export interface MockStatefulObjectState {
  readonly id: MockStatefulObjectId;
  readonly storage: MockStatefulStorage;
  /** Runs `fn`; calls made meanwhile wait until it settles, one at a time. */
  blockConcurrencyWhile<T>(fn: () => Promise<T> | T): Promise<T>;
  waitUntil(promise: Promise<unknown>): void;
  /** Promises given to `waitUntil`. */
  readonly waitUntilPromises: Promise<unknown>[];
}

/** Options of {@link createMockStatefulObjectState}. */
export interface MockStatefulObjectStateInit {
  /** The object's name (its id is derived from it). Default: a random id. */
  name?: string;
}

/**
 * A state for a stateful object under test.
 *
 * @example
 * ```ts
 * const state = createMockStatefulObjectState({ name: 'counter' });
 * const counter = new Counter(state, env);
 * await counter.fetch(createMockRequest('/increment', { method: 'POST' }));
 * expect(state.storage.put).toHaveBeenCalledWith('count', 1);
 * ```
 */
export function createMockStatefulObjectState(init: MockStatefulObjectStateInit = {}): MockStatefulObjectState {
  const idText =
    init.name ??
    Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
  const id: MockStatefulObjectId = {
    ...(init.name !== undefined ? { name: init.name } : {}),
    toString: () => idText,
    equals: (other) => other.toString() === idText,
  };
  const waitUntilPromises: Promise<unknown>[] = [];
  let gate: Promise<unknown> = Promise.resolve();
  return {
    id,
    storage: createMockStatefulStorage(),
    waitUntilPromises,
    waitUntil: (promise) => void waitUntilPromises.push(promise),
    blockConcurrencyWhile<T>(fn: () => Promise<T> | T): Promise<T> {
      const result = gate.then(fn, fn);
      gate = result.catch(() => {});
      return result;
    },
  };
}
