import type { EventFor, TriggerConfig, TriggerDefinition, TriggerHandler, TriggerSource } from './types.js';
import { resolveConfig } from './validate/config.js';
import { fail, rejectUnknownKeys, requireRecord } from './validate/fields.js';
import { normalizeSource } from './validate/sources.js';
import { moduleHandler, sandboxModule } from './sandbox/module.js';

/** Marks objects made by `defineTrigger`; a registry symbol so copies of the package agree. */
const DEFINITION = Symbol.for('@framework/trigger.definition');

/** The record passed to {@link defineTrigger}: a `handle` function, or a `sandbox` module. */
export type TriggerDefinitionInput<S extends TriggerSource, Env> =
  | { source: S; handle: TriggerHandler<EventFor<S>, Env>; config?: TriggerConfig; sandbox?: never }
  | {
      source: S;
      /**
       * Runs the handler in a worker thread: the `file:` URL (or absolute
       * path) of a module whose default export is a `SandboxHandler`.
       * A run past `timeout + gracePeriod` is terminated with its worker
       * (`TRIGGER_TIMEOUT_TERMINATED`, retried per policy) and the runtime
       * stays healthy. Only structured-clone data crosses: the module cannot
       * close over app state, and `ctx.env`, `ctx.step` and `ctx.waitUntil`
       * are not available (`TRIGGER_SANDBOX_UNSUPPORTED`). At most
       * `config.concurrency` workers (default 4 for a sandboxed trigger).
       * Not for webhook triggers (their request does not cross a thread).
       *
       * @example
       * ```ts
       * defineTrigger({
       *   source: { type: 'queue', name: 'images', batchSize: 1 },
       *   sandbox: new URL('./resize.handler.js', import.meta.url),
       *   config: { concurrency: 2, timeout: '30s', gracePeriod: '5s' },
       * });
       * ```
       */
      sandbox: URL | string;
      config?: TriggerConfig;
      handle?: never;
    };

/**
 * Defines a trigger: validates the source and config at once and returns a
 * frozen {@link TriggerDefinition} with defaults applied.
 *
 * Checks: a 5- or 6-field cron (croner syntax) and IANA `timezone` (default
 * `'UTC'`), or `every` (whole seconds), and `catchUp` (default `'none'`);
 * `cancelOn` (a queue trigger needs `batchSize: 1`); queue `batchSize` 1–100 (default 10) and
 * durations; webhook `path` starting with `/`, `methods` (default
 * `['POST']`) and `maxBodySize` (bytes, 1 to 104 857 600, default 1 MiB); objectstore `events`; sqldb
 * `operations`; tail filters; config
 * `retries` (default 3), `retryDelay` (default `'1m'`), `timeout` (default
 * `'30s'`, at most `'15m'`). Durations are strings such as `'30s'`; bare numbers
 * are rejected.
 *
 * @throws {TriggerDefinitionError} code `INVALID_TRIGGER_DEFINITION`; the message starts with the field path,
 * e.g. `source.batchSize: expected an integer from 1 to 100, got number 0`
 * @example
 * ```ts
 * export default defineTrigger({
 *   source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'Europe/Berlin' },
 *   async handle(event, ctx) {
 *     await ctx.env.db.purge(event.scheduledTime);
 *   },
 *   config: { retries: 1, timeout: '2m' },
 * });
 * ```
 */
export function defineTrigger<const S extends TriggerSource, Env = Record<string, any>>(
  input: TriggerDefinitionInput<S, Env>,
): TriggerDefinition<S, Env> {
  const record = requireRecord(input, 'definition');
  rejectUnknownKeys(record, 'definition', ['source', 'handle', 'config', 'sandbox']);
  const sandbox = record.sandbox === undefined ? undefined : sandboxModule(record.sandbox, record.handle);
  if (!sandbox && typeof record.handle !== 'function')
    fail('handle', 'expected a function (event, ctx) => void | Promise<void>');
  const source = deepFreeze(normalizeSource(record.source));
  if (sandbox && source.type === 'webhook')
    fail('sandbox', 'webhook triggers cannot be sandboxed: their request does not cross into a worker thread');
  const config = resolveConfig(record.config);
  if (config.cancelOn && source.type === 'queue' && (source.batchSize ?? 10) > 1)
    fail(
      'config.cancelOn',
      `cancels one run, and a queue trigger's run is one message: give the source batchSize: 1 (it is ${source.batchSize ?? 10})`,
    );
  const definition = sandbox
    ? { source, handle: moduleHandler(sandbox), config, sandbox: Object.freeze({ module: sandbox }) }
    : { source, handle: record.handle, config };
  Object.defineProperty(definition, DEFINITION, { value: true });
  return Object.freeze(definition) as unknown as TriggerDefinition<S, Env>;
}

/** `true` for objects returned by {@link defineTrigger}. */
export function isTriggerDefinition(value: unknown): value is TriggerDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DEFINITION] === true;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/**
 * A copy of `definition` whose handler is `handle` (validated already, so the
 * copy is not checked again); a sandboxed definition is returned unchanged,
 * since its module runs in a worker thread. For test tools that observe runs.
 */
export function withHandler(definition: TriggerDefinition, handle: TriggerHandler<any, any>): TriggerDefinition {
  if (definition.sandbox) return definition;
  const copy = { ...definition, handle };
  Object.defineProperty(copy, DEFINITION, { value: true });
  return Object.freeze(copy) as TriggerDefinition;
}
