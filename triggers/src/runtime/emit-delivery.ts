import { clockNow } from '../engine/clock.js';
import type { EngineMessage, MessageDisposition } from '../engine/types.js';
import { isNonRetryable } from '../errors.js';
import { messageOf, runAttempt } from './attempt.js';
import { backoffDelay } from './backoff.js';
import type { RuntimeCore } from './core.js';
import { StepSleep } from './steps.js';
import { throttleDelay } from './throttle.js';
import { expiredDisposition, throttledDisposition } from './run-dispositions.js';
import { finishSteps } from './step-records.js';

/** The body of a message on the internal emit queue. */
export interface EmitMessageBody {
  target: string;
  payload: unknown;
}

/** The internal queue that carries `emit()`s to non-queue triggers on a durable engine. */
export function emitQueueName(runtime: string): string {
  return `framework.emit.${runtime}`;
}

/**
 * Runs emitted events taken from the internal emit queue, one attempt per
 * delivery, with the target trigger's retry policy: ack on success, retry
 * after its backoff, or dead-letter (kept in `runtime.failed(emitQueue)`)
 * when its retries are spent, it called `noRetry()`, threw a non-retryable
 * error, or the target is unknown.
 */
export async function deliverEmits(
  core: RuntimeCore,
  queue: string,
  messages: EngineMessage[],
): Promise<MessageDisposition[]> {
  return Promise.all(messages.map((message) => deliverEmit(core, queue, message)));
}

async function deliverEmit(core: RuntimeCore, queue: string, message: EngineMessage): Promise<MessageDisposition> {
  const { target, payload } = message.body as EmitMessageBody;
  const failed = (reason: string): MessageDisposition => {
    core.logger.log({
      level: 'error',
      message: `emit ${message.id} to "${target}" failed for good (${reason}); kept in runtime.failed('${queue}')`,
      trigger: target,
      data: { queue, messageId: message.id, attempts: message.attempts },
    });
    return { id: message.id, action: 'deadLetter', reason };
  };
  if (!core.registry.has(target)) return failed(`unknown trigger "${target}"`);
  const trigger = core.registry.get(target);
  const { config } = trigger.definition;
  if (message.attempts > config.retries + 1) return failed('STALLED');
  if ((message.expiresAt ?? Infinity) <= Date.now()) return expiredDisposition(core, trigger, queue, message);
  const wait = await throttleDelay(core, trigger, payload);
  if (wait > 0) return throttledDisposition(message.id, wait);
  const runId = `emit:${queue}:${message.id}`;
  const result = await runAttempt(core, trigger, payload, {
    attempt: message.attempts,
    parent: message.trace,
    steps: {
      store: core.steps,
      runId,
      suspendable: true,
      message: { trigger: trigger.name, queue, id: message.id, input: payload },
    },
    runIds: [message.id],
  });
  if (result.ok) {
    await finishSteps(core.steps, runId);
    return { id: message.id, action: 'ack', result: result.value };
  }
  if (result.error instanceof StepSleep)
    return {
      id: message.id,
      action: 'retry',
      delayMs: Math.max(0, result.error.wakeAt - clockNow(core.clock)),
      suspend: true,
    };
  const reason = messageOf(result.error);
  if (result.noRetry || isNonRetryable(result.error) || message.attempts > config.retries) {
    return failed(`retries exhausted after ${message.attempts} deliveries: ${reason}`);
  }
  if (config.observability.metrics) {
    core.instruments.retries.add(1, { 'trigger.name': trigger.name, 'trigger.source': trigger.definition.source.type });
  }
  return { id: message.id, action: 'retry', delayMs: backoffDelay(config.backoff, message.attempts) };
}
