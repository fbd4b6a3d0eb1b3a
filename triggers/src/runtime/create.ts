import { setMaxListeners } from 'node:events';
import { parseDuration, type Duration } from '../duration.js';
import { memoryEngine } from '../engine/memory.js';
import { realClock, type EngineClock } from '../engine/clock.js';
import type { EngineCallbacks, EnginePlan, FailedMessage, OutgoingMessage, TriggerEngine } from '../engine/types.js';
import { TriggerDefinitionError, TriggerError } from '../errors.js';
import { resolveLimits, type TriggerLimits } from '../limits.js';
import { createInstruments } from '../otel.js';
import { TailHub } from '../tail.js';
import {
  dispatchEmail,
  emailTriggersFor,
  type DispatchEmailOptions,
  type EmailDispatchResult,
} from '../email/dispatch.js';
import type { RawEmail } from '../email/parse.js';
import {
  dispatchObjectNotification,
  type DispatchObjectOptions,
  type ObjectDispatchResult,
} from '../objectstore/dispatch.js';
import { objectStoreIngressTriggers, type ObjectStoreIngressOptions } from '../objectstore/ingress.js';
import type { ChangeConsumer, DatabaseBinding } from '../sqldb/consumer.js';
import { startChangeConsumers, type ChangesOptions } from '../sqldb/start.js';
import { engineScheduleOf, scheduledEventOf } from './schedule-plan.js';
import type { TraceParent } from '../trace.js';
import type { LogEntry, QueueSource, ScheduledSource, TailLog, TailSource, TriggerDefinition } from '../types.js';
import { QUEUE_DEFAULTS } from '../validate/sources.js';
import { handleWebhook } from '../webhook.js';
import { messageOf } from './attempt.js';
import type { RuntimeCore } from './core.js';
import { dispatchWithRetries, runWithRetries, stoppedError } from './dispatch.js';
import { Gate } from './gate.js';
import { SandboxPool } from '../sandbox/pool.js';
import { HealthMonitor, type RuntimeHealth } from './health.js';
import { memoryStepStore } from './steps.js';
import { memoryEventWaits } from './step-waits.js';
import { sendStepEvent, type EventDelivery } from './step-events.js';
import { invokeTrigger } from './step-invoke.js';
import { Logger } from './logger.js';
import {
  outgoingMessage,
  replayPredicate,
  requireEngineMethod,
  type QueueProducer,
  type ReplaySelector,
  type SendOptions,
} from './producer.js';
import { deliverEmits, emitQueueName, type EmitMessageBody } from './emit-delivery.js';
import { deliverQueueBatch } from './queue-delivery.js';
import { Registry, type RegisteredTrigger } from './registry.js';
import { Tracker } from './tracker.js';
import { RunHub, type RunRecord } from './runs.js';
import { inspectQueues, discardMessages, type QueueInspection } from './inspect.js';
import { CancelRegistry } from './cancels.js';
import { RunLedger } from './run-ledger.js';
import { processThrottles } from './throttle.js';
import { runMethods, type RunMethods } from './run-methods.js';
import { waitForRun, type RunWaitOptions } from './run-api.js';
import { randomHex } from '../trace.js';

/** Options of {@link createTriggerRuntime}. */
export type { QueueProducer, ReplaySelector, SendOptions } from './producer.js';

export interface TriggerRuntimeOptions<Env = unknown> {
  /** Triggers by name; the key is the trigger's name. */
  triggers: Record<string, TriggerDefinition<any, any>>;
  /** Environment bindings passed to every handler as `ctx.env`. */
  env: Env;
  /** Default `memoryEngine()` (on `clock` when given). */
  engine?: TriggerEngine;
  /**
   * Where retry delays, step sleeps and wake-ups read the time. Default the
   * wall clock (`Date.now()`); `createTestRuntime` passes a fake one.
   */
  clock?: EngineClock;
  /** Name of this runtime ("worker") for tail triggers. Default `'app'`. */
  name?: string;
  /** Overrides of the platform limits (triggers/README.md "Limits"). */
  limits?: Partial<TriggerLimits>;
  /** Tail log batching. Defaults: 100 logs or `'1s'`. */
  tail?: { batchSize?: number; batchTimeout?: Duration };
  /**
   * Replaces the routing of `emit` (after the target name is checked), e.g. to
   * record emits in tools instead of running the target. `traceId` is the emitter's.
   */
  routeEmit?: (target: string, payload: unknown, traceId: string | undefined) => void | Promise<void>;
  /**
   * Where S3 event notifications for objectstore triggers arrive: a webhook
   * `path` served by `runtime.fetch` and/or a `queue` whose message bodies are
   * notifications. Adds the triggers `objectstore-notifications.webhook` /
   * `objectstore-notifications.queue`.
   */
  objectStore?: ObjectStoreIngressOptions;
  /**
   * Database bindings of sqldb triggers, by the name in `source.database`: a
   * Kysely instance (PostgreSQL or SQLite) whose `framework_changes` outbox
   * (see `installChangeCapture`) the runtime consumes while started. Without
   * an entry, `env[name]` is used when it is a Kysely instance.
   */
  databases?: Record<string, DatabaseBinding>;
  /** Polling of the database outboxes. Defaults: `'1s'`, 20 rows per claim. */
  changes?: ChangesOptions;
}

/** Options of {@link TriggerRuntime.dispatch}. */
export interface RuntimeDispatchOptions {
  /** Override `config.retries` (e.g. `0` to run once). */
  retries?: number;
  /** Continue this 32-hex trace id instead of starting a new trace. */
  traceId?: string;
}

/** Request details an adapter reports for tail triggers (`runtime.recordRequest`). */
export type RequestLog = Omit<TailLog, 'timestamp' | 'logs' | 'exceptions' | 'outcome'> &
  Partial<Pick<TailLog, 'logs' | 'exceptions' | 'outcome'>>;

/** A running set of triggers. */
export interface TriggerRuntime extends RunMethods {
  readonly name: string;
  /** Trigger names in definition order. */
  readonly triggers: readonly string[];
  /** Webhook routes, for adapters that mount them one by one. */
  readonly webhooks: ReadonlyArray<{ path: string; methods: string[]; trigger: string }>;
  /** Starts schedules and queue consumers. Idempotent. */
  start(): Promise<void>;
  /**
   * Stops schedules and consumers, then waits for in-flight work and
   * `waitUntil` promises up to `timeout` (default `'30s'`); after that,
   * handlers still running see `ctx.signal` abort with code `RUNTIME_STOPPED`.
   */
  stop(options?: { timeout?: Duration }): Promise<void>;
  /**
   * Runs a trigger on `event` with retries and timeout; rejects with the last error. @throws {TriggerError}
   * code `UNKNOWN_TRIGGER`
   */
  dispatch(name: string, event: unknown, options?: RuntimeDispatchOptions): Promise<void>;
  /**
   * Sends `payload` to a trigger in the background: a queue trigger receives it
   * as a message, any other trigger is dispatched with it as the event. On a
   * durable engine (BullMQ) that dispatch is itself a message of the internal
   * queue `framework.emit.<runtime name>`, so it survives the process and
   * runs on any instance; a final failure is kept in
   * `runtime.failed('framework.emit.<runtime name>')`. Elsewhere failures are
   * logged. Resolves once accepted. @throws {TriggerError} code `UNKNOWN_TRIGGER`
   */
  emit(name: string, payload: unknown): Promise<void>;
  /**
   * Sends event `name`: runs waiting for it in `ctx.step.waitForEvent` (whose
   * `match` fits `data`) resume with it, suspended runs whose trigger's
   * `cancelOn` names it (and matches) are cancelled, and, when triggers
   * subscribe to `name` (`config.events`), it is emitted to them. Works across
   * instances on BullMQ. Resolves with the runs resumed and cancelled.
   * @example
   * ```ts
   * await runtime.sendEvent('invoice.paid', { invoiceId: 'inv_42' });
   * ```
   */
  sendEvent(name: string, data: unknown): Promise<EventDelivery>;
  /** Event names with subscribers (`config.events`) and their trigger names, in definition order. */
  readonly events: ReadonlyArray<{ event: string; subscribers: string[] }>;
  /** A producer for queue `name` (consumed or not by a trigger of this runtime). */
  queue(name: string): QueueProducer;
  /** Serves webhook requests; `null` when no webhook trigger owns the path. */
  fetch(request: Request): Promise<Response | null>;
  /** Messages of `queue` kept as failed (retries spent, no dead-letter queue). */
  failed(queue: string): Promise<FailedMessage[]>;
  /**
   * Moves failed messages of queue trigger `name` back to its queue, their
   * delivery count reset to 0, and the messages waiting in its
   * `deadLetterQueue` that came from it; resolves with their ids. On a durable engine,
   * `name` may also be the internal emit queue `framework.emit.<runtime name>`
   * (failed durable emits). Messages already moved
   * to a `deadLetterQueue` and already taken by that queue's consumer are not
   * replayed.
   * @throws {TriggerError} codes `UNKNOWN_TRIGGER`, `NOT_A_QUEUE_TRIGGER`, `INVALID_MESSAGE_OPTIONS` (bad
   * selector), `ENGINE_UNSUPPORTED`
   * @example
   * ```ts
   * await runtime.replay('send-welcome-mail', { all: true });
   * await runtime.replay('send-welcome-mail', { id: 'welcome-42' });
   * await runtime.replay('send-welcome-mail', { filter: (m) => m.reason.includes('ECONNRESET') });
   * ```
   */
  replay(name: string, selector: ReplaySelector): Promise<string[]>;
  /** Subscribes to runtime logs; returns the unsubscribe function. */
  onLog(listener: (entry: LogEntry) => void): () => void;
  /**
   * Subscribes to finished handler attempts (status, attempt, duration in ms,
   * trace id, error message and the attempt's log lines); returns the
   * unsubscribe function. Without a listener no record is built.
   * @example
   * ```ts
   * const stop = runtime.onRun((run) => console.log(run.trigger, run.status, run.durationMs));
   * ```
   */
  onRun(listener: (run: RunRecord) => void): () => void;
  /** The definitions by trigger name, in definition order (including internal ingress triggers). */
  readonly definitions: Readonly<Record<string, TriggerDefinition>>;
  /**
   * Depth, in-flight and failed counts of every queue consumed by a queue
   * trigger, with its failed and dead-lettered messages (`deadLetters`, at most
   * `limit` per queue, default 50). Counts the engine cannot report are `null`.
   */
  inspectQueues(options?: { limit?: number }): Promise<QueueInspection[]>;
  /**
   * Deletes failed messages of queue trigger `name` and its dead letters (in
   * its `deadLetterQueue`) that `selector` picks; resolves with their ids.
   * @throws {TriggerError} codes `UNKNOWN_TRIGGER`, `NOT_A_QUEUE_TRIGGER`, `INVALID_MESSAGE_OPTIONS` (bad
   * selector), `ENGINE_UNSUPPORTED`
   * @example
   * ```ts
   * await runtime.discard('send-welcome-mail', { id: 'welcome-42' });
   * ```
   */
  discard(name: string, selector: ReplaySelector): Promise<string[]>;
  /** Adds an adapter's request to the tail stream. */
  recordRequest(log: RequestLog): void;
  /** Resolves when no dispatch, delivery or `waitUntil` promise is in flight. */
  drain(): Promise<void>;
  /**
   * Liveness: `healthy` is `false` once a handler run outlived
   * `timeout + gracePeriod` (code `TRIGGER_TIMEOUT_UNSETTLED`), because a
   * function that ignores `ctx.signal` cannot be stopped in-process. Wire it to
   * a liveness probe so the supervisor restarts the process.
   * @example
   * ```ts
   * app.get('/livez', (c) => (runtime.health().healthy ? c.text('ok') : c.text('unhealthy', 503)));
   * ```
   */
  health(): RuntimeHealth;
  /** Whether some email trigger's `address`/`domain` filter takes mail for `address` (case-insensitive). */
  acceptsRecipient(address: string): boolean;
  /**
   * Ingests a raw RFC 5322 message (e.g. from an HTTP inbound-parse service)
   * and runs each email trigger matching a recipient, once per recipient
   * (`options.retries`, default 0). Resolves with the deliveries; rejects with
   * the first handler error.
   * @throws {TriggerError} codes `EMAIL_MALFORMED`, `EMAIL_NO_MATCHING_TRIGGER` (not retryable)
   */
  dispatchEmail(raw: RawEmail, options?: DispatchEmailOptions): Promise<EmailDispatchResult>;
  /**
   * Runs the objectstore triggers matching each record of an S3 event
   * notification (object, JSON string or bytes), with each trigger's retries
   * unless `options.retries` is given. Rejects with the first handler error.
   * @throws {TriggerError} code `OBJECTSTORE_INVALID_NOTIFICATION` (not retryable)
   */
  dispatchObjectNotification(body: unknown, options?: DispatchObjectOptions): Promise<ObjectDispatchResult>;
}

/**
 * Creates a runtime for a record of triggers. Validates names and limits at
 * once: at most `limits.maxCronTriggers` (1,000) scheduled triggers, schedules no more
 * frequent than `limits.minCronInterval`, batch sizes within
 * `limits.maxBatchSize`, timeouts within `limits.maxTimeout`, one consumer per
 * queue, one trigger per webhook path and method.
 *
 * Metrics instruments are taken from the global OpenTelemetry meter provider
 * at creation, so register an SDK first if you want metrics.
 *
 * @throws {TriggerDefinitionError} codes `INVALID_TRIGGER_DEFINITION`, `TRIGGER_LIMIT_EXCEEDED`
 * @example
 * ```ts
 * const runtime = createTriggerRuntime({ triggers: { 'daily-cleanup': dailyCleanup, 'send-welcome-mail': welcome }, env });
 * await runtime.start();
 * await runtime.queue('welcome-mail').send({ to: 'ada@example.com' });
 * const response = await runtime.fetch(request); // null when no webhook matches
 * await runtime.stop();
 * ```
 */
export function createTriggerRuntime<Env>(options: TriggerRuntimeOptions<Env>): TriggerRuntime {
  const limits = resolveLimits(options.limits);
  const ingress = options.objectStore
    ? objectStoreIngressTriggers(options.objectStore, (body) => dispatchObjectNotification(core, body, { retries: 0 }))
    : {};
  const registry = new Registry({ ...options.triggers, ...ingress }, limits);
  const clock = options.clock ?? realClock;
  const engine = options.engine ?? memoryEngine(options.clock ? { clock } : {});
  const name = options.name ?? 'app';
  const logger = new Logger();
  const tracker = new Tracker();
  const runs = new RunHub();
  const cancels = new CancelRegistry();
  // The in-process record of runs, for engines that cannot report them (memory).
  const ledger = new RunLedger({ ttlMs: RUN_RECORD_TTL_MS });
  const recordsRuns = !engine.getRun;
  const stopController = new AbortController();
  // Other waits listen for stop too (and remove their listeners when they settle): no fixed bound applies.
  setMaxListeners(0, stopController.signal);
  // stop() reaching its deadline aborts every attempt still running.
  stopController.signal.addEventListener('abort', () => cancels.abortAll(stopController.signal.reason), {
    once: true,
  });
  const health = new HealthMonitor();
  const emitQueue = emitQueueName(name);
  const gates = new Map<string, Gate>();
  const sandboxes = new Map<string, SandboxPool>();
  let started = false;
  let stopped: Promise<void> | undefined;
  let changeConsumers: Promise<ChangeConsumer[]> = Promise.resolve([]);
  let stopListening: Promise<() => void> | undefined;

  const tailConsumers = registry
    .ofType('tail')
    .map((t) => ({ name: t.name, source: t.definition.source as TailSource }));
  const tail = new TailHub(
    name,
    tailConsumers,
    (trigger, event) => track(dispatchWithRetries(core, registry.get(trigger), event), `tail trigger "${trigger}"`),
    {
      batchSize: options.tail?.batchSize ?? 100,
      batchTimeoutMs: parseDuration(options.tail?.batchTimeout ?? '1s', 'tail.batchTimeout'),
      random: Math.random,
    },
  );

  /** Tracks background work and logs its failure instead of rejecting. */
  function track(work: Promise<void>, what: string): Promise<void> {
    return tracker.track(
      work.catch((error: unknown) => {
        logger.log({ level: 'error', message: `${what} failed: ${messageOf(error)}`, error });
      }),
    );
  }

  /**
   * Sends `payload` to trigger `target`, or to every subscriber of event `target` (`config.events`), each as
   * a run of its own; resolves with where the runs are stored.
   */
  const stepStore = engine.steps ?? memoryStepStore();
  const waits = engine.waits ?? memoryEventWaits(stepStore);
  /** Offers an event to waiting runs (`waitForEvent`, `cancelOn`), then emits it to its subscribers. */
  async function sendEvent(event: string, data: unknown): Promise<EventDelivery> {
    const delivery = await sendStepEvent({ clock, waits, steps: stepStore, logger, engine }, event, data);
    if (!registry.has(event) && registry.subscribersOf(event).length > 0) await emit(undefined, event, data);
    return delivery;
  }

  async function emit(from: TraceParent | undefined, target: string, payload: unknown): Promise<void> {
    const subscribers = registry.has(target) ? [] : registry.subscribersOf(target);
    if (options.routeEmit) {
      if (subscribers.length === 0) registry.get(target);
      await options.routeEmit(target, payload, from?.traceId);
      return;
    }
    if (subscribers.length === 0) {
      await emitTo(from, registry.get(target), payload);
      return;
    }
    await Promise.all(subscribers.map((trigger) => emitTo(from, trigger, payload)));
    await sendStepEvent({ clock, waits, steps: stepStore, logger, engine }, target, payload);
  }

  /** Stores (or, on the memory engine, starts) one run of `trigger` on `payload`. */
  async function emitTo(
    from: TraceParent | undefined,
    trigger: RegisteredTrigger,
    payload: unknown,
  ): Promise<{ queue: string; id: string }> {
    const source = trigger.definition.source;
    const trace = from ? { trace: from } : {};
    if (source.type === 'queue') {
      const [id] = await engine.send(source.name, [debounced(source.name, { body: payload, ...trace })]);
      if (recordsRuns) ledger.queued(source.name, id!, payload, false);
      return { queue: source.name, id: id! };
    }
    if (engine.durable) {
      const body: EmitMessageBody = { target: trigger.name, payload };
      const [id] = await engine.send(emitQueue, [{ body, ...trace }]);
      if (recordsRuns) ledger.queued(emitQueue, id!, body, false);
      return { queue: emitQueue, id: id! };
    }
    // Memory engine: the run happens in this process's background, recorded under an id of its own.
    const id = randomHex(8);
    const message = { id, body: { target: trigger.name, payload }, timestamp: new Date(), attempts: 1 };
    ledger.queued(emitQueue, id, message.body, false);
    ledger.started(emitQueue, [message]);
    void track(
      runWithRetries(core, trigger, payload, { parent: from, cancelId: id }).then(
        (result) => ledger.settled(emitQueue, [{ id, action: 'ack', result }]),
        (error: unknown) => {
          ledger.settled(emitQueue, [{ id, action: 'deadLetter', reason: messageOf(error) }]);
          throw error;
        },
      ),
      `emitted trigger "${trigger.name}"`,
    );
    return { queue: emitQueue, id };
  }

  const core: RuntimeCore = {
    name,
    env: options.env,
    limits,
    registry,
    instruments: createInstruments(),
    logger,
    tracker,
    tail,
    runs,
    cancels,
    fleet: engine.limits,
    throttles: engine.limits ?? processThrottles(),
    ledger,
    health,
    clock,
    stepHost: {
      clock,
      waits,
      cancelOn: (trigger) => (registry.has(trigger) ? (registry.get(trigger).definition.config.cancelOn ?? []) : []),
      invoke: (trigger, data) => invokeTrigger(core, trigger, data),
      sendEvent: (event, data) => sendEvent(event, data),
    },
    steps: stepStore,
    stopSignal: stopController.signal,
    gateOf(trigger) {
      let gate = gates.get(trigger.name);
      if (!gate) gates.set(trigger.name, (gate = new Gate(concurrencyOf(trigger))));
      return gate;
    },
    sandboxOf(trigger) {
      let pool = sandboxes.get(trigger.name);
      if (!pool) sandboxes.set(trigger.name, (pool = new SandboxPool(concurrencyOf(trigger))));
      return pool;
    },
    emit,
  };

  const callbacks: EngineCallbacks = {
    fireSchedule: (trigger, scheduledTime) => {
      const event = scheduledEventOf(registry.get(trigger).definition.source as ScheduledSource, scheduledTime);
      const runId = `schedule:${trigger}:${scheduledTime.toISOString()}`;
      return track(
        dispatchWithRetries(core, registry.get(trigger), event, { runId }),
        `scheduled trigger "${trigger}"`,
      );
    },
    deliverBatch: (queue, messages) => {
      if (recordsRuns) ledger.started(queue, messages);
      const delivered = deliverBatchTo(queue, messages);
      if (!recordsRuns) return delivered;
      return delivered.then((dispositions) => {
        ledger.settled(queue, dispositions);
        return dispositions;
      });
    },
    deliverEvent: (trigger, event) =>
      track(dispatchWithRetries(core, registry.get(trigger), event), `trigger "${trigger}"`),
    log: (entry) => logger.log(entry),
  };

  function deliverBatchTo(queue: string, messages: Parameters<EngineCallbacks['deliverBatch']>[1]) {
    if (queue === emitQueue && engine.durable) return tracker.track(deliverEmits(core, queue, messages));
    const consumer = registry.consumerOf(queue);
    if (!consumer)
      return Promise.resolve(messages.map((m) => ({ id: m.id, action: 'retry' as const, delayMs: 1_000 })));
    return tracker.track(deliverQueueBatch(core, consumer, messages));
  }

  function plan(): EnginePlan {
    const external = new Set(['email', 'objectstore', 'sqldb']);
    return {
      runtime: name,
      schedules: registry
        .ofType('scheduled')
        .map(({ name: trigger, definition }) => engineScheduleOf(trigger, definition.source as ScheduledSource)),
      consumers: registry
        .ofType('queue')
        .map(({ definition }) => {
          const source = definition.source as { name: string; batchSize?: number; batchTimeout?: Duration };
          const batchSize = source.batchSize ?? QUEUE_DEFAULTS.batchSize;
          const { concurrency, concurrencyScope } = definition.config;
          return {
            queue: source.name,
            // An explicit concurrency holds across the fleet (unless scoped to the instance): that many batches'
            // messages in flight at once.
            ...(concurrency === undefined || concurrencyScope === 'instance'
              ? {}
              : { globalConcurrency: concurrency * batchSize }),
            batchSize,
            batchTimeoutMs: parseDuration(source.batchTimeout ?? QUEUE_DEFAULTS.batchTimeout),
            concurrency: definition.config.concurrency ?? 1,
            ...(definition.config.rateLimit ? { rateLimit: definition.config.rateLimit } : {}),
          };
        })
        .concat(
          engine.durable && registry.all.some((t) => t.definition.source.type !== 'queue')
            ? [EMIT_CONSUMER(emitQueue)]
            : [],
        ),
      sources: registry.all
        .filter((t) => external.has(t.definition.source.type))
        .map((t) => ({ trigger: t.name, source: t.definition.source as EnginePlan['sources'][number]['source'] })),
    };
  }

  async function send(queue: string, messages: ReadonlyArray<{ body: unknown } & SendOptions>): Promise<string[]> {
    if (messages.length > limits.maxBatchSize) {
      throw new TriggerError(
        `sendBatch of ${messages.length} messages exceeds limits.maxBatchSize of ${limits.maxBatchSize}`,
        {
          code: 'TRIGGER_LIMIT_EXCEEDED',
          retryable: false,
        },
      );
    }
    const outgoing = messages.map(({ body, ...sendOptions }) => debounced(queue, outgoingMessage(body, sendOptions)));
    const ids = await engine.send(queue, outgoing);
    if (recordsRuns)
      ids.forEach((id, i) => ledger.queued(queue, id, outgoing[i]!.body, (outgoing[i]!.delayMs ?? 0) > 0));
    return ids;
  }

  /** The queue whose messages are the runs of trigger `triggerName`: its own, or the emit queue. */
  function runQueueOf(triggerName: string): string {
    const source = registry.get(triggerName).definition.source;
    return source.type === 'queue' ? source.name : emitQueue;
  }

  const runHost = {
    engine,
    registry,
    ledger,
    emitQueue,
    steps: stepStore,
    clock,
    cancels,
    logger,
    queueOf: runQueueOf,
    enqueue: (triggerName: string, payload: unknown) => emitTo(undefined, registry.get(triggerName), payload),
  };
  const runApi = runMethods(runHost);

  /** Adds the consumer's debounce (key from the body) to a message for `queue`. */
  function debounced(queue: string, message: OutgoingMessage): OutgoingMessage {
    const debounce = registry.consumerOf(queue)?.definition.config.debounce;
    if (!debounce) return message;
    let key: string | undefined;
    try {
      const value = debounce.key(message.body);
      key = value === undefined || value === null ? undefined : String(value);
    } catch (error) {
      logger.log({
        level: 'warn',
        message: `debounce key of queue "${queue}" threw (${messageOf(error)}); sending undebounced`,
        error,
      });
    }
    return key === undefined
      ? message
      : { ...message, delayMs: debounce.delayMs, debounce: { key, delayMs: debounce.delayMs } };
  }

  async function replay(triggerName: string, selector: ReplaySelector): Promise<string[]> {
    const queue = triggerName === emitQueue && engine.durable ? emitQueue : queueOfTrigger(triggerName);
    const source = registry.consumerOf(queue)?.definition.source as QueueSource | undefined;
    const deadLetterQueue = source?.deadLetterQueue;
    const ids = await requireEngineMethod(engine, 'replay')(
      queue,
      replayPredicate(selector),
      deadLetterQueue ? { deadLetterQueue } : {},
    );
    logger.log({
      level: 'info',
      message: `replayed ${ids.length} failed message(s) of queue "${queue}"`,
      trigger: triggerName,
      data: { ids },
    });
    return ids;
  }

  function queueOfTrigger(triggerName: string): string {
    const source = registry.get(triggerName).definition.source;
    if (source.type !== 'queue') {
      throw new TriggerError(`"${triggerName}" is a ${source.type} trigger; only queue triggers keep failed messages`, {
        code: 'NOT_A_QUEUE_TRIGGER',
        retryable: false,
      });
    }
    return source.name;
  }

  return {
    name,
    triggers: registry.all.map((t) => t.name),
    webhooks: [...registry.webhookRoutes].flatMap(([path, methods]) => {
      const byTrigger = new Map<string, string[]>();
      for (const [method, trigger] of methods)
        byTrigger.set(trigger.name, [...(byTrigger.get(trigger.name) ?? []), method]);
      return [...byTrigger].map(([trigger, list]) => ({ path, methods: list, trigger }));
    }),
    async start() {
      if (started) return;
      if (stopped)
        throw new TriggerError('The runtime was stopped; create a new one', {
          code: 'RUNTIME_STOPPED',
          retryable: false,
        });
      started = true;
      await engine.start(plan(), callbacks);
      stopListening = engine.control?.listen((id) => cancels.abort(id));
      await stopListening;
      changeConsumers = startChangeConsumers(core, options.databases, options.changes);
      await changeConsumers;
    },
    stop(stopOptions = {}) {
      stopped ??= (async () => {
        const deadline = Date.now() + parseDuration(stopOptions.timeout ?? '30s', 'stop({timeout})');
        // The engine stops firing at once; its deliveries in flight are tracked below.
        // Also when never started: a send (e.g. a durable emit) may have opened the engine's connection.
        void stopListening?.then((off) => off()).catch(() => {});
        const engineStopped = engine.stop();
        const consumersStopped = changeConsumers.then(
          (list) => Promise.all(list.map((c) => c.stop())),
          () => [],
        );
        let drained = await tracker.settle(deadline);
        await tail.flush();
        drained = (await tracker.settle(deadline)) && drained;
        if (!drained) {
          logger.log({
            level: 'warn',
            message: `stop deadline reached with ${tracker.size} task(s) in flight; aborting them`,
          });
          stopController.abort(stoppedError());
          await tracker.settle(Date.now() + 1_000);
        }
        await Promise.race([
          Promise.all([engineStopped, consumersStopped]),
          new Promise((resolve) => setTimeout(resolve, 1_000)),
        ]);
        await Promise.all([...sandboxes.values()].map((pool) => pool.close()));
      })();
      return stopped;
    },
    async dispatch(triggerName, event, dispatchOptions = {}) {
      const trigger = registry.get(triggerName);
      const parent = dispatchOptions.traceId === undefined ? undefined : traceParentOf(dispatchOptions.traceId);
      const retries = dispatchOptions.retries;
      return tracker.track(
        dispatchWithRetries(core, trigger, event, { parent, ...(retries === undefined ? {} : { retries }) }),
      );
    },
    emit: (target, payload) => emit(undefined, target, payload),
    sendEvent,
    events: registry.events,
    ...runApi,
    queue: (queueName) => ({
      send: (async (body: unknown, sendOptions: SendOptions & { wait?: boolean } & RunWaitOptions = {}) => {
        const { wait, timeout, ...rest } = sendOptions;
        const id = (await send(queueName, [{ ...rest, body }]))[0]!;
        return wait ? waitForRun(runHost, queueName, id, timeout === undefined ? {} : { timeout }) : id;
      }) as QueueProducer['send'],
      sendBatch: (messages) => send(queueName, messages),
      cancel: async (id) => requireEngineMethod(engine, 'cancel')(queueName, id),
    }),
    replay,
    fetch: (request) => tracker.track(handleWebhook(core, request)),
    failed: (queue) => engine.failed(queue),
    onLog: (listener) => logger.subscribe(listener),
    onRun: (listener) => runs.subscribe(listener),
    definitions: Object.freeze(Object.fromEntries(registry.all.map((t) => [t.name, t.definition]))),
    inspectQueues: (inspectOptions = {}) => inspectQueues(engine, registry, inspectOptions.limit ?? 50),
    async discard(triggerName, selector) {
      const queue = queueOfTrigger(triggerName);
      const ids = await discardMessages(engine, registry, queue, replayPredicate(selector));
      logger.log({
        level: 'info',
        message: `discarded ${ids.length} failed message(s) of queue "${queue}"`,
        trigger: triggerName,
        data: { ids },
      });
      return ids;
    },
    recordRequest(log) {
      tail.record({ outcome: 'ok', logs: [], exceptions: [], ...log, timestamp: new Date() });
    },
    async drain() {
      await tracker.settle();
    },
    health: () => health.report(),
    acceptsRecipient: (address) => emailTriggersFor(core, address).length > 0,
    dispatchEmail: (raw, emailOptions) => tracker.track(dispatchEmail(core, raw, emailOptions)),
    dispatchObjectNotification: (body, objectOptions) =>
      tracker.track(dispatchObjectNotification(core, body, objectOptions)),
  };
}

/** Runs at once of a trigger in this process: `config.concurrency`; unbounded, or 4 worker threads when sandboxed. */
function concurrencyOf(trigger: RegisteredTrigger): number {
  const { config, sandbox } = trigger.definition;
  return config.concurrency ?? (sandbox ? DEFAULT_SANDBOX_CONCURRENCY : Number.POSITIVE_INFINITY);
}

/** How long the in-process record of a finished run stays readable (memory engine): 24 hours. */
const RUN_RECORD_TTL_MS = 24 * 3_600_000;

/** Worker threads of a sandboxed trigger without `config.concurrency`. */
const DEFAULT_SANDBOX_CONCURRENCY = 4;

/** The consumer of the internal emit queue: one event per batch, four at once per instance. */
const EMIT_CONSUMER = (queue: string) => ({ queue, batchSize: 1, batchTimeoutMs: 0, concurrency: 4 });

function traceParentOf(traceId: string): TraceParent {
  if (!/^[0-9a-f]{32}$/.test(traceId) || /^0+$/.test(traceId)) {
    throw new TriggerDefinitionError('dispatch({traceId})', 'expected 32 lowercase hex characters, not all zero');
  }
  return { traceId, sampled: true };
}
