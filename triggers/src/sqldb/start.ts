import { parseDuration, type Duration } from '../duration.js';
import { TriggerDefinitionError } from '../errors.js';
import type { RuntimeCore } from '../runtime/core.js';
import type { SqlDbSource } from '../types.js';
import { ChangeConsumer, type DatabaseBinding } from './consumer.js';

/** Options of the database outbox consumers (`createTriggerRuntime({changes})`). */
export interface ChangesOptions {
  /** Wait between polls while the outbox is empty. Default `'1s'` (PostgreSQL with `listen` wakes at once). */
  pollInterval?: Duration;
  /** Rows claimed per poll, 1–1000. Default 20. */
  batchSize?: number;
  /**
   * How long a claim holds its rows against other consumers. The consumer
   * renews it every third of `lease` while it still holds rows (heartbeat), so
   * a batch may take longer than `lease`; only a consumer that stops renewing
   * (crashed, or its event loop blocked for `lease`) loses its rows to another.
   * Default `'30s'`.
   */
  lease?: Duration;
}

const isKysely = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { selectFrom?: unknown }).selectFrom === 'function';

/**
 * Starts one outbox consumer per database binding that sqldb triggers name.
 * The binding comes from `databases[name]`, or else from `env[name]` when that
 * is a Kysely instance; a trigger without a binding is logged (warn) and only
 * runs through `dispatch`.
 */
export async function startChangeConsumers(
  core: RuntimeCore,
  databases: Record<string, DatabaseBinding> | undefined,
  options: ChangesOptions = {},
): Promise<ChangeConsumer[]> {
  const byDatabase = new Map<string, ReturnType<RuntimeCore['registry']['ofType']>>();
  for (const trigger of core.registry.ofType('sqldb')) {
    const name = (trigger.definition.source as SqlDbSource).database;
    byDatabase.set(name, [...(byDatabase.get(name) ?? []), trigger]);
  }
  const consumers: ChangeConsumer[] = [];
  const settings = {
    pollIntervalMs: parseDuration(options.pollInterval ?? '1s', 'changes.pollInterval'),
    batchSize: options.batchSize ?? 20,
    leaseMs: parseDuration(options.lease ?? '30s', 'changes.lease'),
  };
  if (settings.leaseMs < 30) throw new TriggerDefinitionError('changes.lease', 'must be at least 30ms');
  for (const [name, triggers] of byDatabase) {
    const fromEnv = (core.env as Record<string, unknown> | null | undefined)?.[name];
    const binding = databases?.[name] ?? (isKysely(fromEnv) ? (fromEnv as DatabaseBinding) : undefined);
    if (!binding) {
      core.logger.log({
        level: 'warn',
        message: `sqldb triggers ${triggers.map((t) => `"${t.name}"`).join(', ')} name database "${name}", which has no binding (createTriggerRuntime({databases: {${name}: db}})); changes are not delivered`,
      });
      continue;
    }
    const consumer = new ChangeConsumer(core, name, binding, triggers, settings);
    await consumer.start();
    consumers.push(consumer);
  }
  return consumers;
}
