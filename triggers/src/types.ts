/**
 * The public records of the trigger package: sources, events, the handler
 * context and the configuration.
 *
 * @module
 */
import type { CancelOn, StepEvent, WaitForEventOptions } from './step-types.js';
export type { CancelOn, EventMatch, StepEvent, WaitForEventOptions } from './step-types.js';
import type { Duration } from './duration.js';
import type { WebhookVerifier } from './verifiers/types.js';

export type { Duration } from './duration.js';
export type { WebhookVerifier, VerificationResult } from './verifiers/types.js';

// ---------------------------------------------------------------- sources

/** The seven source kinds. */
export type TriggerSourceType = TriggerSource['type'];

/**
 * What happens when an occurrence is due while the previous run of the same
 * schedule still runs (on any instance): `'skip'` drops the new occurrence
 * (logged at `warn`), `'queue'` runs it after the previous one finished,
 * `'allow'` runs both at once.
 */
export type OverlapPolicy = 'skip' | 'allow' | 'queue';

/**
 * What a schedule does, when a runtime starts, with the occurrences it missed
 * while none ran (since the last one that fired): `'none'` (default) skips
 * them, `'latest'` runs the most recent one, `'all'` runs them oldest first
 * (at most 100, the most recent).
 */
export type CatchUpPolicy = 'none' | 'latest' | 'all';

/**
 * A schedule: either `cron`, 5 fields (minute precision) or 6 with seconds
 * first, or one of croner's nicknames (`@yearly`, `@annually`, `@monthly`,
 * `@weekly`, `@daily`, `@hourly`), in `timezone` (an IANA name, default
 * `'UTC'`); or `every`, a repeat interval in whole seconds (`'30s'`, `'5m'`)
 * whose occurrences are multiples of it since the Unix epoch. `overlap`
 * default `'skip'`; `catchUp` default `'none'`.
 */
export interface ScheduledSource {
  type: 'scheduled';
  cron?: string;
  every?: Duration;
  timezone?: string;
  overlap?: OverlapPolicy;
  catchUp?: CatchUpPolicy;
}

/** A queue consumer. Batches of up to `batchSize` (1–100, default 10) within `batchTimeout` (default `'5s'`). */
export interface QueueSource {
  type: 'queue';
  name: string;
  batchSize?: number;
  batchTimeout?: Duration;
  /**
   * Delay before unacked messages of a failed batch are redelivered (a duration or a {@link RetryBackoff}).
   * Default: `config.retryDelay` (`'1m'`).
   */
  retryDelay?: Duration | RetryBackoff;
  /**
   * Queue that receives messages whose retries are spent. Without it they are kept as failed
   * (`runtime.failed(queue)`).
   */
  deadLetterQueue?: string;
}

/** The five object storage event types. */
export type ObjectStoreEventType =
  'object:create' | 'object:delete' | 'object:create:put' | 'object:create:copy' | 'object:create:multipart';

/** Object storage notifications for `bucket`, optionally filtered by key `prefix`/`suffix`. */
export interface ObjectStoreSource {
  type: 'objectstore';
  bucket: string;
  events: readonly ObjectStoreEventType[];
  prefix?: string;
  suffix?: string;
}

/** HTTP methods a webhook can accept. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An HTTP endpoint at `path` (starts with `/`) for `methods` (default `['POST']`), optionally signed. */
export interface WebhookSource {
  type: 'webhook';
  path: string;
  methods?: readonly HttpMethod[];
  verifier?: WebhookVerifier;
  /**
   * Largest accepted body in bytes, an integer from 1 to 104 857 600 (the
   * spec's 100 MB). Default 1 048 576 (1 MiB). A larger body is refused with
   * 413 before the verifier runs; `limits.maxWebhookPayloadBytes` of the
   * runtime caps it further.
   */
  maxBodySize?: number;
}

/** Inbound mail, optionally filtered by recipient `address` or `domain`. */
export interface EmailSource {
  type: 'email';
  address?: string;
  domain?: string;
}

/** Row operations reported by the `sqldb` source. */
export type SqlOperation = 'INSERT' | 'UPDATE' | 'DELETE';

/** Row changes of the database binding `database`; all tables and operations when omitted. */
export interface SqlDbSource {
  type: 'sqldb';
  database: string;
  tables?: readonly string[];
  operations?: readonly SqlOperation[];
}

/** Fields a tail filter can test. `samplingRate` keeps a random fraction (`value` 0–1) of the logs. */
export type TailFilterField = 'outcome' | 'status' | 'method' | 'samplingRate';
/** How a tail filter compares; default `equals`. Numbers are compared as text for `contains`/`startsWith`. */
export type TailFilterOperator = 'equals' | 'contains' | 'startsWith';

/** One tail filter; a log must pass every filter of the source. */
export interface TailFilter {
  field: TailFilterField;
  value: string | number;
  operator?: TailFilterOperator;
}

/** Consumes the tail logs of the runtimes named in `workers` (see `createTriggerRuntime({name})`). */
export interface TailSource {
  type: 'tail';
  workers: readonly string[];
  filters?: readonly TailFilter[];
}

/** Union of the seven source records. */
export type TriggerSource =
  ScheduledSource | QueueSource | ObjectStoreSource | WebhookSource | EmailSource | SqlDbSource | TailSource;

// ---------------------------------------------------------------- events

/** Event of a `scheduled` trigger. `scheduledTime` is the occurrence computed from the cron, not the wall clock. */
export interface ScheduledEvent {
  /** The source's cron expression (`''` for an `every` schedule). */
  cron: string;
  /** The source's interval, for an `every` schedule. */
  every?: Duration;
  scheduledTime: Date;
}

/** Options of {@link QueueMessage.retry}. */
export interface QueueRetryOptions {
  /** Delay before redelivery; default the queue's retry delay. */
  delay?: Duration;
}

/**
 * One message of a queue batch. The first of `ack`, `retry` and `deadLetter`
 * called on a message wins; later calls are ignored.
 */
export interface QueueMessage<Body = unknown> {
  readonly id: string;
  readonly body: Body;
  /** When the message was sent. */
  readonly timestamp: Date;
  /** Delivery count, 1-based. */
  readonly attempts: number;
  ack(): void;
  retry(options?: QueueRetryOptions): void;
  deadLetter(reason?: string): void;
}

/** Event of a `queue` trigger. */
export interface QueueEvent<Body = unknown> {
  queue: string;
  messages: QueueMessage<Body>[];
}

/** Event of an `objectstore` trigger. */
export interface ObjectStoreEvent {
  bucket: string;
  action: 'create' | 'delete';
  object: { key: string; size: number; etag: string; uploadedAt: Date };
}

/**
 * Event of a `webhook` trigger. `payload` is parsed by content type; `verified` is true when a verifier
 * accepted it.
 */
export interface WebhookEvent<Payload = unknown> {
  /** A copy of the request whose body can still be read. */
  request: Request;
  payload: Payload;
  headers: Headers;
  verified: boolean;
}

/** One attachment of an inbound mail. `size` is in bytes. */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  size: number;
  content: Uint8Array;
}

/** Event of an `email` trigger. */
export interface EmailEvent {
  from: string;
  to: string;
  subject: string;
  text: string | null;
  html: string | null;
  attachments: EmailAttachment[];
  headers: Record<string, string>;
  raw: ReadableStream<Uint8Array>;
}

/** Event of a `sqldb` trigger. */
export interface SqlDbEvent {
  database: string;
  table: string;
  operation: SqlOperation;
  newRow: Record<string, unknown> | null;
  oldRow: Record<string, unknown> | null;
  primaryKey: unknown;
}

/** Outcome of a traced invocation or request. */
export type TailOutcome = 'ok' | 'exception' | 'timeout' | 'canceled';

/** One log line captured during an invocation. */
export interface TailLogEntry {
  level: LogLevel;
  message: string;
  timestamp: Date;
}

/** One exception captured during an invocation (no stack). */
export interface TailException {
  name: string;
  message: string;
  timestamp: Date;
}

/** The log record of one trigger invocation or one adapter request. `durationMs` is in milliseconds. */
export interface TailLog {
  outcome: TailOutcome;
  status?: number;
  method?: string;
  url?: string;
  trigger?: string;
  traceId?: string;
  logs: TailLogEntry[];
  exceptions: TailException[];
  timestamp: Date;
  durationMs: number;
}

/** Event of a `tail` trigger: a batch of logs from the runtime named `worker`. */
export interface TailEvent {
  logs: TailLog[];
  worker: string;
}

/** Union of the seven event records. */
export type TriggerEvent =
  ScheduledEvent | QueueEvent | ObjectStoreEvent | WebhookEvent | EmailEvent | SqlDbEvent | TailEvent;

/** The event record delivered for a source record. */
export type EventFor<S extends TriggerSource> = S extends ScheduledSource
  ? ScheduledEvent
  : S extends QueueSource
    ? QueueEvent
    : S extends ObjectStoreSource
      ? ObjectStoreEvent
      : S extends WebhookSource
        ? WebhookEvent
        : S extends EmailSource
          ? EmailEvent
          : S extends SqlDbSource
            ? SqlDbEvent
            : S extends TailSource
              ? TailEvent
              : never;

// ---------------------------------------------------------------- context

/**
 * Known trigger names and their emit payloads. Empty by default (any name,
 * `unknown` payload); `framework triggers generate-types` augments it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by generated declarations
export interface TriggerRegistry {}

/** Names accepted by `ctx.emit`: the registry's keys once generated, otherwise any string. */
export type TriggerName = keyof TriggerRegistry extends never ? string : Extract<keyof TriggerRegistry, string>;

/** Payload accepted by `ctx.emit(name, payload)`. */
export type TriggerPayload<N extends string> = N extends keyof TriggerRegistry ? TriggerRegistry[N] : unknown;

/** Payload another trigger passes to `emit(name, payload)` for a definition: the queue message body, or the event. */
export type EmitPayloadOf<D> =
  D extends TriggerDefinition<infer S, any> ? (S extends QueueSource ? unknown : EventFor<S>) : unknown;

/**
 * Durable steps of a run (`ctx.step`). A run is one queue message (batch size
 * 1), one durable emit, one schedule occurrence, or one dispatch.
 */
export interface TriggerSteps {
  /**
   * Runs `fn` once per run: its result is stored (as JSON) in the engine's
   * store under `id`, and every later attempt of the same run (after a throw,
   * a timeout or a crash) gets the stored result without calling `fn`. A step
   * that throws is not stored. Give each step a stable, unique id.
   * @throws {TriggerError} code `STEPS_UNAVAILABLE` in a queue batch of more than one message
   * @example
   * ```ts
   * const charge = await ctx.step.run('charge', () => payments.charge(order));
   * await ctx.step.run('email', () => mailer.receipt(order, charge.id));
   * ```
   */
  run<T>(id: string, fn: () => T | Promise<T>): Promise<Awaited<T>>;
  /**
   * Suspends the run for `duration` without holding a worker: the first time,
   * the wake-up time is stored under `id` and the run's message goes back to
   * its queue, delayed until then (not counted as a delivery); the attempt
   * after it passes `sleep` at once and goes on. Let the internal
   * `STEP_SLEEPING` error it throws propagate. Runs that are stored messages
   * only (a queue message with `batchSize: 1`, a durable emit).
   * @throws {TriggerError} code `STEPS_UNAVAILABLE` for other runs
   * @example
   * ```ts
   * await ctx.step.run('welcome', () => mailer.welcome(user));
   * await ctx.step.sleep('wait-a-day', '1d');
   * await ctx.step.run('nudge', () => mailer.tips(user));
   * ```
   */
  sleep(id: string, duration: Duration): Promise<void>;
  /**
   * Like {@link sleep}, until `time` (a `Date`, an ISO string or epoch ms; a
   * past time passes at once). The time is stored on the first call.
   * @throws {TriggerError} code `STEPS_UNAVAILABLE` outside stored-message runs; `INVALID_STEP` for a bad date
   * @example
   * ```ts
   * await ctx.step.sleepUntil('renewal-day', subscription.renewsAt);
   * ```
   */
  sleepUntil(id: string, time: Date | string | number): Promise<void>;
  /**
   * Suspends the run until an event `event` matching `match` is sent
   * (`runtime.sendEvent`, `ctx.step.sendEvent`, or `runtime.emit` of an event
   * with subscribers) and returns it, or returns `null` after `timeout`. The
   * wait is stored (BullMQ: Redis), so it outlives the process. Runs that are
   * stored messages only, as {@link sleep}.
   * @throws {TriggerError} code `STEPS_UNAVAILABLE` for other runs; `INVALID_STEP` for a `match` path missing
   * from the run's input
   * @example
   * ```ts
   * const paid = await ctx.step.waitForEvent('paid', { event: 'invoice.paid', match: 'invoiceId', timeout: '7d' });
   * if (paid === null) await ctx.step.run('remind', () => mailer.reminder(invoice));
   * ```
   */
  waitForEvent<D = unknown>(id: string, options: WaitForEventOptions): Promise<StepEvent<D> | null>;
  /**
   * Runs trigger `trigger` (not a queue trigger) on `data` with its retries,
   * in this attempt, and returns its handler's return value, stored as a step
   * (as JSON): a later attempt gets it without running the trigger again.
   * @throws the invoked trigger's last error (the step is then not stored)
   * @example
   * ```ts
   * const total = await ctx.step.invoke<number>('price', 'compute-price', { sku: 'A-1', quantity: 3 });
   * ```
   */
  invoke<T = unknown>(id: string, trigger: string, data: unknown): Promise<T>;
  /**
   * Sends event `name` once per run (a step), as `runtime.sendEvent` does.
   * @example
   * ```ts
   * await ctx.step.sendEvent('announce', 'invoice.paid', { invoiceId: invoice.id });
   * ```
   */
  sendEvent(id: string, name: string, data: unknown): Promise<void>;
}

/** Context passed to every handler invocation. */
export interface TriggerContext<Env = Record<string, any>> {
  /** Environment bindings given to the runtime. */
  readonly env: Env;
  /** W3C trace-context trace id: 32 lowercase hex characters, shared along `emit` chains. */
  readonly traceId: string;
  /** Current attempt, 1-based. */
  readonly attempt: number;
  /** Name of the running trigger. */
  readonly trigger: string;
  /** Aborted when the invocation times out (reason: `TriggerTimeoutError`) or the runtime stops. */
  readonly signal: AbortSignal;
  /** Keeps background work alive after the handler returns; a rejection is logged. `runtime.stop()` waits for it. */
  waitUntil(promise: Promise<unknown>): void;
  /** Dispatches `payload` to another trigger with the same trace id (queue triggers receive it as a message). */
  emit<N extends TriggerName>(trigger: N, payload: TriggerPayload<N>): Promise<void>;
  /** Prevents automatic retry of this invocation if it fails. Call it before rethrowing. */
  noRetry(): void;
  /** Durable steps of this run: see {@link TriggerSteps}. */
  readonly step: TriggerSteps;
}

/**
 * A handler: `(event, ctx) => unknown`. What it returns (or resolves with) is the run's result
 * (`runtime.getRun(id).result`, `triggerAndWait`), stored as JSON on BullMQ.
 */
export type TriggerHandler<E = TriggerEvent, Env = Record<string, any>> = (
  event: E,
  ctx: TriggerContext<Env>,
) => unknown;

// ---------------------------------------------------------------- config

/**
 * A retry delay that grows with the attempt, as BullMQ's `backoff` option:
 * `fixed` waits `base` every time; `exponential` waits `base × 2^(n − 1)`
 * before retry `n`, at most `max`. `jitter` (0–1, default 0) takes a random
 * share of up to that fraction off each delay, so retries of many failures
 * spread out.
 *
 * @example
 * ```ts
 * config: { retries: 5, retryDelay: { type: 'exponential', base: '1s', max: '1m', jitter: 0.2 } }
 * ```
 */
export interface RetryBackoff {
  type: 'fixed' | 'exponential';
  base: Duration;
  max?: Duration;
  jitter?: number;
}

/** Per-trigger configuration; every field optional. */
export interface TriggerConfig {
  /** Retries after the first attempt. Default 3. */
  retries?: number;
  /** Delay between attempts: a duration, or a {@link RetryBackoff} policy. Default `'1m'`. */
  retryDelay?: Duration | RetryBackoff;
  /** Time limit per attempt, at most `'15m'`. Default `'30s'`. */
  timeout?: Duration;
  /**
   * How long an attempt that overran `timeout` (its `ctx.signal` aborted) may
   * keep running before the runtime gives up waiting for it, at most `'15m'`.
   * No retry starts while the previous run still executes; past
   * `timeout + gracePeriod` the run is reported with code
   * `TRIGGER_TIMEOUT_UNSETTLED` and `runtime.health()` turns unhealthy.
   * Default `'30s'`.
   */
  gracePeriod?: Duration;
  /** OpenTelemetry instrumentation switches, both default `true`. */
  observability?: { metrics?: boolean; tracing?: boolean };
  /**
   * Runs of this trigger at once, 1–1000. Queue triggers: batches in flight per instance (default 1);
   * other triggers: default unlimited. A number, or `{ limit, scope }`:
   *
   * - scope `'fleet'` (a number's scope): on BullMQ the limit also holds across every instance (a queue's
   *   global concurrency of `limit × batchSize` messages; leased Redis slots for other triggers), at the
   *   cost of a little Redis work per message;
   * - scope `'instance'`: the limit holds in each process only, as a BullMQ `Worker`'s `concurrency` does;
   *   ten instances run up to ten times `limit`.
   *
   * A `concurrencyKey` holds across the fleet in either scope. The memory engine runs in one process, where
   * both scopes are the same. `defineTrigger` throws a `TriggerDefinitionError` (code
   * `INVALID_TRIGGER_DEFINITION`, at `config.concurrency`, `.limit` or `.scope`) for a limit outside 1–1000
   * or not an integer, an unknown scope or an unknown key.
   * @example
   * ```ts
   * config: { concurrency: { limit: 100, scope: 'instance' } }
   * ```
   */
  concurrency?: number | { limit: number; scope?: 'fleet' | 'instance' };
  /**
   * Runs whose events share a key run one after another (in arrival order),
   * within `concurrency`. Gets the handler's event (a queue trigger's batch).
   * A key function that throws leaves the run unkeyed (logged at `warn`).
   * @example
   * ```ts
   * config: { concurrency: 10, concurrencyKey: (event) => event.newRow?.tenant_id }
   * ```
   */
  concurrencyKey?: (event: any) => string | undefined;
  /**
   * Queue triggers: at most `limit` messages delivered per `window`, across
   * every instance on BullMQ (its limiter), per process on the memory engine.
   * @example
   * ```ts
   * config: { rateLimit: { limit: 10, window: '1s' } } // a partner API allows 10 calls a second
   * ```
   */
  rateLimit?: { limit: number; window: Duration };
  /**
   * Queue triggers: messages sent to the queue whose `key(body)` is equal
   * collapse while they wait: only the last body is delivered, `delay` after
   * the last send (BullMQ's debounce mode of deduplication).
   * @example
   * ```ts
   * config: { debounce: { key: (body) => body.documentId, delay: '5s' } } // reindex once typing stops
   * ```
   */
  debounce?: { key: (body: any) => string | undefined; delay: Duration };
  /**
   * Event names this trigger subscribes to: `runtime.emit(event, data)` (and `ctx.emit`) reaches every
   * subscriber, each as its own run with its own retries (a queue trigger gets `data` as a message). Names
   * are 1–200 characters and must not be a trigger name.
   * @example
   * ```ts
   * config: { events: ['user.created'] }
   * ```
   */
  events?: readonly string[];
  /**
   * At most `limit` runs started per fixed `window` for each `key(event)` (one shared key without `key`),
   * across every instance on BullMQ (a Redis counter), per process on the memory engine. A stored message
   * over the limit waits, uncounted as an attempt, until the window ends.
   * @example
   * ```ts
   * config: { throttle: { key: (event) => event.messages[0].body.tenantId, limit: 5, window: '1m' } }
   * ```
   */
  throttle?: { key?: (event: any) => string | undefined; limit: number; window: Duration };
  /**
   * Events that cancel a run of this trigger while it waits
   * (`ctx.step.waitForEvent`) or sleeps (`sleep`, `sleepUntil`): its message
   * is removed and its steps forgotten. `match` compares paths of the event's
   * data with the run's input. Stored-message runs only (queue triggers with
   * `batchSize: 1`, emits on a durable engine).
   * @example
   * ```ts
   * config: { cancelOn: [{ event: 'order.cancelled', match: 'orderId' }] }
   * ```
   */
  cancelOn?: readonly CancelOn[];
}

/** {@link TriggerConfig} with defaults applied and durations parsed (`*Ms` in milliseconds). */
export interface ResolvedTriggerConfig {
  readonly retries: number;
  readonly retryDelay: Duration | RetryBackoff;
  /** The first retry's delay (the backoff's `base`), in ms. */
  readonly retryDelayMs: number;
  /** The parsed retry delay policy. */
  readonly backoff: {
    readonly type: 'fixed' | 'exponential';
    readonly baseMs: number;
    readonly maxMs: number;
    readonly jitter: number;
  };
  readonly timeout: Duration;
  readonly timeoutMs: number;
  readonly gracePeriod: Duration;
  readonly gracePeriodMs: number;
  readonly observability: { readonly metrics: boolean; readonly tracing: boolean };
  /** Runs at once per process; `undefined` means the source's default (1 batch for queues, else unlimited). */
  readonly concurrency?: number;
  /** Where `concurrency` holds (set with it): across every instance (`'fleet'`) or in each process. */
  readonly concurrencyScope?: 'fleet' | 'instance';
  readonly concurrencyKey?: (event: any) => string | undefined;
  readonly rateLimit?: { readonly limit: number; readonly windowMs: number };
  readonly debounce?: { readonly key: (body: any) => string | undefined; readonly delayMs: number };
  readonly events?: readonly string[];
  readonly throttle?: {
    readonly key?: (event: any) => string | undefined;
    readonly limit: number;
    readonly windowMs: number;
  };
  readonly cancelOn?: readonly CancelOn[];
}

/** A validated, frozen trigger definition as returned by `defineTrigger`. */
export interface TriggerDefinition<S extends TriggerSource = TriggerSource, Env = any> {
  /** The source with defaults applied (`timezone`, `batchSize`, `batchTimeout`, `methods`). */
  readonly source: Readonly<S> & Readonly<Extract<TriggerSource, { type: S['type'] }>>;
  /**
   * The handler. For a sandboxed trigger: imports the module and calls its
   * default export in this thread (what test helpers call); the runtime runs
   * it in a worker thread instead.
   */
  readonly handle: TriggerHandler<EventFor<S>, Env>;
  readonly config: ResolvedTriggerConfig;
  /** Set for a sandboxed trigger: the `file:` URL of its handler module. */
  readonly sandbox?: { readonly module: string };
}

/**
 * The context of a sandboxed handler (see `defineTrigger({sandbox})`): what
 * crosses into its worker thread. `env`, `step` and `waitUntil` throw
 * `TRIGGER_SANDBOX_UNSUPPORTED` (non-retryable) when used.
 */
export interface SandboxContext {
  readonly traceId: string;
  /** Current attempt, 1-based. */
  readonly attempt: number;
  readonly trigger: string;
  /** Aborted at `config.timeout` (reason: an error with code `TRIGGER_TIMEOUT`) or when the runtime stops. */
  readonly signal: AbortSignal;
  /** Log lines posted back to the runtime: they land in the run's logs, the tail and `runtime.onLog`. */
  readonly log: Readonly<Record<LogLevel, (message: string, data?: Record<string, unknown>) => void>>;
  /** Prevents automatic retry of this invocation if it fails. */
  noRetry(): void;
  /** Dispatches `payload` (structured-clone data) to another trigger, through the runtime. */
  emit(trigger: string, payload: unknown): Promise<void>;
}

/**
 * The default export of a sandboxed handler module: gets the event as
 * structured-clone data (a queue batch keeps `ack`/`retry`/`deadLetter`; an
 * email has no `raw` stream).
 *
 * @example
 * ```ts
 * // resize.handler.ts
 * import type { QueueEvent, SandboxHandler } from '@framework/trigger';
 * const handle: SandboxHandler<QueueEvent<{ key: string }>> = async (event, ctx) => {
 *   for (const message of event.messages) ctx.log.info(`resizing ${message.body.key}`);
 * };
 * export default handle;
 * ```
 */
export type SandboxHandler<E = TriggerEvent> = (event: E, ctx: SandboxContext) => void | Promise<void>;

// ---------------------------------------------------------------- logs

/** Severity of a runtime log entry. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** An entry delivered to `runtime.onLog` listeners. */
export interface LogEntry {
  level: LogLevel;
  message: string;
  timestamp: Date;
  trigger?: string;
  traceId?: string;
  error?: unknown;
  data?: Record<string, unknown>;
}
