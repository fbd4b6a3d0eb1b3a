/**
 * `createMockEnv`: bindings created on first access.
 * @module
 */
import { createMockDatabase } from './database.js';
import { createMockKVNamespace } from './kv.js';
import { createMockQueue } from './queue.js';

/** The kinds of binding a mock env creates. */
export type MockBindingKind = 'kv' | 'queue' | 'database';

/** Options of {@link createMockEnv}. */
export interface MockEnvInit {
  /** Plain values (secrets, settings), returned as given. */
  vars?: Record<string, unknown>;
  /** The kind of named bindings, where the name alone does not tell (see {@link bindingKind}). */
  bindings?: Record<string, MockBindingKind>;
}

const BINDING_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * The kind a binding name implies: a name containing `QUEUE` is a queue;
 * `DB`, or a name ending in `_DB` or `DATABASE`, is a database; any other
 * name is a KV namespace.
 *
 * @example
 * ```ts
 * bindingKind('MAIL_QUEUE'); // 'queue'
 * bindingKind('DB');         // 'database'
 * bindingKind('SESSIONS');   // 'kv'
 * ```
 */
export function bindingKind(name: string): MockBindingKind {
  if (name.includes('QUEUE')) return 'queue';
  if (name === 'DB' || name.endsWith('_DB') || name.endsWith('DATABASE')) return 'database';
  return 'kv';
}

const factories = { kv: createMockKVNamespace, queue: createMockQueue, database: createMockDatabase } as const;

/**
 * Mock environment bindings. Each binding is created the first time it is
 * read, as a KV-like namespace in memory, a recording queue or an in-memory
 * SQLite database, by its name (see {@link bindingKind}) or by `bindings`.
 * Only names listed in `vars` or `bindings`, or written in UPPER_SNAKE_CASE,
 * become bindings; other names read as undefined.
 *
 * @example
 * ```ts
 * const env = createMockEnv({ vars: { API_KEY: 'test' } });
 * await env.SESSIONS.put('k', 'v', { expirationTtl: 60 });
 * await env.MAIL_QUEUE.send({ to: 'ada@example.com' });
 * expect(env.MAIL_QUEUE.sent).toHaveLength(1);
 * await env.DB.exec('CREATE TABLE t (x)');
 * ```
 */
export function createMockEnv<Env extends object = Record<string, any>>(init: MockEnvInit = {}): Env {
  const target: Record<string, unknown> = { ...init.vars };
  const kinds = init.bindings ?? {};
  return new Proxy(target, {
    get(object, name, receiver) {
      if (typeof name === 'symbol' || Object.hasOwn(object, name)) return Reflect.get(object, name, receiver);
      const kind = kinds[name] ?? (BINDING_NAME.test(name) ? bindingKind(name) : undefined);
      if (kind === undefined) return undefined;
      const binding = factories[kind]();
      object[name] = binding;
      return binding;
    },
  }) as Env;
}
