/**
 * Error classes thrown and recognised by the trigger runtime.
 *
 * @module
 */

/** Options of {@link TriggerError}. */
export interface TriggerErrorOptions {
  /** Machine-readable code, e.g. `'PAYMENT_DECLINED'`. */
  code: string;
  /** `false` stops the runtime from retrying the invocation (or the queue messages). */
  retryable: boolean;
  /** Extra data for logs; never sent to webhook senders. */
  context?: Record<string, unknown>;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Base class of trigger failures. Throw it from a handler to control retries:
 * `retryable: false` fails the invocation at once (like `ctx.noRetry()`).
 *
 * @example
 * ```ts
 * throw new TriggerError('card declined', { code: 'CARD_DECLINED', retryable: false, context: { orderId } });
 * ```
 */
export class TriggerError extends Error {
  /** Machine-readable code. */
  readonly code: string;
  /** Whether the runtime may retry after this error. */
  readonly retryable: boolean;
  /** Extra data for logs. */
  readonly context?: Record<string, unknown>;

  constructor(message: string, options: TriggerErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TriggerError';
    this.code = options.code;
    this.retryable = options.retryable;
    if (options.context !== undefined) this.context = options.context;
  }
}

/**
 * A webhook failed signature verification. Code `WEBHOOK_VERIFICATION_FAILED`,
 * never retryable. `runtime.fetch` answers such requests with 401;
 * `verifyWebhook` throws it.
 *
 * @example
 * ```ts
 * try { await verifyWebhook(verifier, request); } catch (e) { if (e instanceof WebhookVerificationError) return new Response(null, { status: 401 }); throw e; }
 * ```
 */
export class WebhookVerificationError extends TriggerError {
  constructor(message = 'Webhook signature verification failed', context?: Record<string, unknown>) {
    super(message, { code: 'WEBHOOK_VERIFICATION_FAILED', retryable: false, ...(context ? { context } : {}) });
    this.name = 'WebhookVerificationError';
  }
}

/**
 * A handler ran longer than its `config.timeout`. Code `TRIGGER_TIMEOUT`,
 * retryable. `ctx.signal` is aborted with this error as the reason.
 *
 * @example
 * ```ts
 * handle: async (event, ctx) => {
 *   await fetch(url, { signal: ctx.signal }); // aborted with a TriggerTimeoutError after config.timeout
 * }
 * ```
 */
export class TriggerTimeoutError extends TriggerError {
  /** The timeout that was exceeded, in milliseconds. */
  readonly timeoutMs: number;

  constructor(trigger: string, timeoutMs: number) {
    super(`Trigger "${trigger}" timed out after ${timeoutMs} ms`, {
      code: 'TRIGGER_TIMEOUT',
      retryable: true,
      context: { trigger, timeoutMs },
    });
    this.name = 'TriggerTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A trigger definition or runtime option is invalid. Thrown synchronously by
 * `defineTrigger` and `createTriggerRuntime`. Code `INVALID_TRIGGER_DEFINITION`
 * (or `TRIGGER_LIMIT_EXCEEDED` for limit violations), never retryable.
 * `context.path` names the offending field, e.g. `source.cron`.
 */
export class TriggerDefinitionError extends TriggerError {
  constructor(path: string, message: string, code = 'INVALID_TRIGGER_DEFINITION') {
    super(`${path}: ${message}`, { code, retryable: false, context: { path } });
    this.name = 'TriggerDefinitionError';
  }
}

/** `true` when `error` asks not to be retried (a non-retryable {@link TriggerError}). */
export function isNonRetryable(error: unknown): boolean {
  return error instanceof TriggerError && !error.retryable;
}
