import type { EngineMessage, MessageDisposition } from '../engine/types.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';

/**
 * A message over its trigger's `config.throttle`: back to its queue until the window ends, not counted as
 * an attempt (as a sleeping step).
 */
export function throttledDisposition(id: string, delayMs: number): MessageDisposition {
  return { id, action: 'retry', delayMs, suspend: true };
}

/**
 * A message past its `ttl`: dead-lettered with reason `EXPIRED` (to `deadLetterQueue` when given, else
 * kept as failed) without running the handler, logged at `warn`.
 */
export function expiredDisposition(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  queue: string,
  message: EngineMessage,
  deadLetterQueue?: string,
): MessageDisposition {
  core.logger.log({
    level: 'warn',
    message: `message ${message.id} of queue "${queue}" expired before it ran (ttl); dead-lettered with reason EXPIRED`,
    trigger: trigger.name,
    data: { code: 'EXPIRED', queue, messageId: message.id },
  });
  return {
    id: message.id,
    action: 'deadLetter',
    reason: 'EXPIRED',
    ...(deadLetterQueue ? { queue: deadLetterQueue } : {}),
  };
}
