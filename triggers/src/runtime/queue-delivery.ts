import { clockNow } from '../engine/clock.js';
import { parseDuration } from '../duration.js';
import { isNonRetryable } from '../errors.js';
import type { EngineMessage, MessageDisposition, StepStore } from '../engine/types.js';
import type { QueueMessage, QueueRetryOptions, QueueSource } from '../types.js';
import { messageOf, runAttempt, type AttemptResult } from './attempt.js';
import { backoffDelay, resolveBackoff } from './backoff.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';
import { StepSleep, type StepMessage, type StepScope } from './steps.js';
import { throttleDelay } from './throttle.js';
import { expiredDisposition, throttledDisposition } from './run-dispositions.js';
import { finishSteps } from './step-records.js';

/** An explicit decision taken by the handler on a message. */
type Decision = { action: 'ack' } | { action: 'retry'; delayMs?: number } | { action: 'deadLetter'; reason: string };

/**
 * Runs a queue consumer once on a batch and decides each message's fate:
 * the first explicit `ack`/`retry`/`deadLetter` wins; otherwise acked when the
 * handler returns, retried after the retry delay when it throws. A message
 * whose deliveries exceed `config.retries` goes to the dead-letter queue, or
 * is kept as failed and logged. `noRetry()` or a non-retryable error sends the
 * undecided messages there at once.
 */
export function deliverQueueBatch(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  messages: EngineMessage[],
): Promise<MessageDisposition[]> {
  try {
    return startDelivery(core, trigger, messages);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/**
 * {@link deliverQueueBatch} without an async frame: in the common case (no throttle, nothing unrunnable) the
 * batch's run starts at once and its dispositions follow in one reaction, so a message waiting for its
 * handler holds a small closure rather than a suspended function with all its locals.
 */
function startDelivery(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  messages: EngineMessage[],
): Promise<MessageDisposition[]> {
  const { config } = trigger.definition;
  // A delivery beyond retries + 1 can only come from stalls (the process died
  // mid-batch, maybe because of the message): dead-letter it without running it.
  const now = Date.now();
  if (anyUnrunnable(messages, config.retries, now)) return deliverWithUnrunnable(core, trigger, messages, now);
  const decisions = new Decisions();
  const event = {
    queue: (trigger.definition.source as QueueSource).name,
    messages: messages.map((m) => queueMessage(m, decisions)),
  };
  // No throttle (most triggers): the run starts now.
  if (!config.throttle) return runDelivery(core, trigger, messages, event, decisions);
  return throttleDelay(core, trigger, event).then((wait) =>
    wait > 0
      ? messages.map((m) => throttledDisposition(m.id, wait))
      : runDelivery(core, trigger, messages, event, decisions),
  );
}

/** Dead-letters (or expires) the messages that may not run, and delivers the others. */
async function deliverWithUnrunnable(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  messages: EngineMessage[],
  now: number,
): Promise<MessageDisposition[]> {
  const source = trigger.definition.source as QueueSource;
  const { config } = trigger.definition;
  const stalled = messages.filter((m) => m.attempts > config.retries + 1 || (m.expiresAt ?? Infinity) <= now);
  const fresh = messages.filter((m) => !stalled.includes(m));
  const dispositions = new Map(
    stalled.map((m) => [
      m.id,
      (m.expiresAt ?? Infinity) <= now
        ? expiredDisposition(core, trigger, source.name, m, source.deadLetterQueue)
        : stalledDisposition(core, trigger, source, m),
    ]),
  );
  const handled = fresh.length > 0 ? await deliverQueueBatch(core, trigger, fresh) : [];
  for (const d of handled) dispositions.set(d.id, d);
  return messages.map((m) => dispositions.get(m.id)!);
}

/** Runs the batch's attempt, then decides each message's fate. */
function runDelivery(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  messages: EngineMessage[],
  event: { queue: string; messages: QueueMessage[] },
  decisions: Decisions,
): Promise<MessageDisposition[]> {
  const source = trigger.definition.source as QueueSource;
  // Loops rather than map/find: no array nor closure per delivery.
  let attempt = messages[0]!.attempts;
  let parent: EngineMessage['trace'];
  for (const m of messages) {
    if (m.attempts > attempt) attempt = m.attempts;
    parent ??= m.trace;
  }
  // Whether this delivery read or wrote the run's steps: only then (or after an earlier delivery) is there
  // anything to forget on ack, so a run that uses no steps costs no store command.
  const steps: QueueRunSteps | StepScope =
    source.batchSize === 1
      ? new QueueRunSteps(core.steps, trigger.name, source.name, messages[0]!)
      : {
          unavailable: `queue trigger "${trigger.name}" takes batches of up to ${source.batchSize} messages, and a batch is no run that can be resumed (its messages are retried apart); give it source.batchSize: 1`,
        };
  const runIds = messages.length === 1 ? [messages[0]!.id] : messages.map((m) => m.id);
  return runAttempt(core, trigger, event, { attempt, parent, steps, runIds }).then((result) =>
    concludeDelivery(core, trigger, messages, decisions, steps, result),
  );
}

/**
 * Each message's disposition once the batch's run is over; a promise only when something is still to wait for
 * (forgetting the run's steps, a handler still running past its cap).
 */
function concludeDelivery(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  messages: EngineMessage[],
  decisions: Decisions,
  steps: QueueRunSteps | StepScope,
  result: AttemptResult,
): MessageDisposition[] | Promise<MessageDisposition[]> {
  decisions.open = false;
  // Most runs: the handler returned and took no explicit decision.
  const dispositions =
    result.ok && !decisions.taken
      ? messages.map((m): MessageDisposition => ({ id: m.id, action: 'ack', result: result.value }))
      : judge(core, trigger, messages, result, decisions);
  // The run is over once its message is acked: forget its steps (the id may be sent again).
  const earlier = messages[0]!.attempts > 1;
  const forget =
    steps instanceof QueueRunSteps && dispositions[0]?.action === 'ack' && (steps.used || earlier)
      ? finishSteps(core.steps, steps.runId)
      : undefined;
  // A handler past its hard cap still runs: the batch stays in flight (its engine slot taken, its BullMQ
  // locks extended) until it settles, so no retry and no further batch exceed `concurrency`. Only stop()
  // reaching its deadline lets go of it earlier.
  if (!forget && !result.settled) return dispositions;
  return (async () => {
    await forget;
    if (result.settled) await untilSettledOrStopped(result.settled, core.stopSignal);
    return dispositions;
  })();
}

/** Each message's fate after a run that failed or took explicit decisions. */
function judge(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  messages: EngineMessage[],
  result: AttemptResult,
  decisions: Decisions,
): MessageDisposition[] {
  const source = trigger.definition.source as QueueSource;
  const { config } = trigger.definition;
  const backoff = source.retryDelay ? resolveBackoff(source.retryDelay, 'source.retryDelay') : config.backoff;

  const deadLetter = (message: EngineMessage, reason: string): MessageDisposition => {
    if (source.deadLetterQueue) return { id: message.id, action: 'deadLetter', reason, queue: source.deadLetterQueue };
    core.logger.log({
      level: 'error',
      message: `message ${message.id} of queue "${source.name}" failed for good (${reason}); kept in runtime.failed('${source.name}')`,
      trigger: trigger.name,
      traceId: result.position.traceId,
      data: { queue: source.name, messageId: message.id, attempts: message.attempts },
    });
    return { id: message.id, action: 'deadLetter', reason };
  };
  const retryOrDeadLetter = (message: EngineMessage, delayMs: number, reason: string): MessageDisposition => {
    if (message.attempts > config.retries) {
      return deadLetter(message, `retries exhausted after ${message.attempts} deliveries: ${reason}`);
    }
    if (config.observability.metrics) {
      core.instruments.retries.add(1, { 'trigger.name': trigger.name, 'trigger.source': 'queue' });
    }
    return { id: message.id, action: 'retry', delayMs };
  };

  const failure = result.ok ? undefined : messageOf(result.error);
  const final = !result.ok && (result.noRetry || isNonRetryable(result.error));
  return messages.map((message): MessageDisposition => {
    const decision = decisions.get(message.id);
    if (decision?.action === 'ack') return { id: message.id, action: 'ack', result: result.value };
    if (decision?.action === 'deadLetter') return deadLetter(message, decision.reason);
    if (decision?.action === 'retry')
      return retryOrDeadLetter(message, decision.delayMs ?? backoffDelay(backoff, message.attempts), 'retry requested');
    if (failure === undefined) return { id: message.id, action: 'ack', result: result.value };
    if (result.error instanceof StepSleep)
      return {
        id: message.id,
        action: 'retry',
        delayMs: Math.max(0, result.error.wakeAt - clockNow(core.clock)),
        suspend: true,
      };
    if (final) return deadLetter(message, failure);
    return retryOrDeadLetter(message, backoffDelay(backoff, message.attempts), failure);
  });
}

/** The explicit decisions taken on a batch's messages while its handler runs: the first per message wins. */
class Decisions {
  open = true;
  /** Whether any was taken (the map is made on the first: most handlers only return). */
  taken = false;
  private map: Map<string, Decision> | undefined = undefined;

  decide(id: string, decision: Decision): void {
    if (!this.open) return;
    this.map ??= new Map();
    if (!this.map.has(id)) {
      this.map.set(id, decision);
      this.taken = true;
    }
  }

  get(id: string): Decision | undefined {
    return this.map?.get(id);
  }
}

/**
 * The step scope of a one-message run, which is its own step store: it notes whether this delivery read or
 * wrote the run's steps (`used`), and builds the `message` a suspension records only when read. One object
 * per delivery instead of a scope, a store and a message.
 */
class QueueRunSteps implements StepStore {
  used = false;
  readonly suspendable = true;
  readonly runId: string;
  #message: StepMessage | undefined = undefined;

  constructor(
    private readonly inner: StepStore,
    private readonly trigger: string,
    private readonly queue: string,
    private readonly engineMessage: EngineMessage,
  ) {
    this.runId = `queue:${queue}:${engineMessage.id}`;
  }

  get store(): StepStore {
    return this;
  }

  get message(): StepMessage {
    const { trigger, queue, engineMessage } = this;
    return (this.#message ??= { trigger, queue, id: engineMessage.id, input: engineMessage.body });
  }

  load(id: string) {
    this.used = true;
    return this.inner.load(id);
  }
  save(id: string, step: string, value: string) {
    this.used = true;
    return this.inner.save(id, step, value);
  }
  clear(id: string) {
    return this.inner.clear(id);
  }
}

/** Resolves when `settled` does, or when `signal` aborts. */
function untilSettledOrStopped(settled: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void settled.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/** The dead-letter disposition (reason `STALLED`) of a message whose deliveries exceed `retries + 1`. */
function stalledDisposition(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  source: QueueSource,
  message: EngineMessage,
): MessageDisposition {
  core.logger.log({
    level: 'error',
    message: `message ${message.id} of queue "${source.name}" was delivered ${message.attempts} times without settling (the process handling it stopped); dead-lettered with reason STALLED${source.deadLetterQueue ? ` to "${source.deadLetterQueue}"` : `, kept in runtime.failed('${source.name}')`}`,
    trigger: trigger.name,
    data: { code: 'STALLED', queue: source.name, messageId: message.id, attempts: message.attempts },
  });
  return {
    id: message.id,
    action: 'deadLetter',
    reason: 'STALLED',
    ...(source.deadLetterQueue ? { queue: source.deadLetterQueue } : {}),
  };
}

/** Whether a message of the batch is delivered beyond `retries + 1` (stalls) or has expired. */
function anyUnrunnable(messages: EngineMessage[], retries: number, now: number): boolean {
  for (const m of messages) if (m.attempts > retries + 1 || (m.expiresAt ?? Infinity) <= now) return true;
  return false;
}

function queueMessage(message: EngineMessage, decisions: Decisions): QueueMessage {
  return Object.freeze(new HandlerMessage(message, decisions));
}

/**
 * A message as its handler sees it: own data properties, and `ack`, `retry` and `deadLetter` as getters of the
 * class that build, on first read, functions that do not use `this`, so they may be called detached
 * (`const { ack } = message`). Most handlers take no explicit decision, so most messages build none.
 */
class HandlerMessage implements QueueMessage {
  readonly id: string;
  readonly body: unknown;
  readonly timestamp: Date;
  readonly attempts: number;
  readonly #decisions: Decisions;
  #ack: QueueMessage['ack'] | undefined = undefined;
  #retry: QueueMessage['retry'] | undefined = undefined;
  #deadLetter: QueueMessage['deadLetter'] | undefined = undefined;

  constructor(message: EngineMessage, decisions: Decisions) {
    this.id = message.id;
    this.body = message.body;
    this.timestamp = message.timestamp;
    this.attempts = message.attempts;
    this.#decisions = decisions;
  }

  get ack(): QueueMessage['ack'] {
    const { id } = this;
    const decisions = this.#decisions;
    return (this.#ack ??= () => decisions.decide(id, { action: 'ack' }));
  }

  get retry(): QueueMessage['retry'] {
    const { id } = this;
    const decisions = this.#decisions;
    return (this.#retry ??= (options?: QueueRetryOptions) => {
      const delayMs = options?.delay === undefined ? undefined : parseDuration(options.delay, 'retry({delay})');
      decisions.decide(id, delayMs === undefined ? { action: 'retry' } : { action: 'retry', delayMs });
    });
  }

  get deadLetter(): QueueMessage['deadLetter'] {
    const { id } = this;
    const decisions = this.#decisions;
    return (this.#deadLetter ??= (reason?: string) =>
      decisions.decide(id, { action: 'deadLetter', reason: reason ?? 'dead-lettered by handler' }));
  }
}
