import { TriggerError } from '../errors.js';
import type { RuntimeCore } from './core.js';
import { runWithRetries } from './dispatch.js';

/**
 * `ctx.step.invoke`: runs trigger `name` on `data` with its retries in this
 * process and resolves with its handler's return value.
 * @throws {TriggerError} code `UNKNOWN_TRIGGER`; `INVALID_STEP` for a queue trigger (its handler takes
 * batches of messages, not data); the invoked trigger's last error
 */
export function invokeTrigger(core: RuntimeCore, name: string, data: unknown): Promise<unknown> {
  const trigger = core.registry.get(name);
  if (trigger.definition.source.type === 'queue')
    throw new TriggerError(
      `ctx.step.invoke cannot run queue trigger "${name}": it takes batches of messages; send it a message instead`,
      { code: 'INVALID_STEP', retryable: false },
    );
  return runWithRetries(core, trigger, data);
}
