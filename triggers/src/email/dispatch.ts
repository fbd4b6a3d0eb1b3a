import { TriggerError } from '../errors.js';
import { messageOf } from '../runtime/attempt.js';
import type { RuntimeCore } from '../runtime/core.js';
import { dispatchWithRetries } from '../runtime/dispatch.js';
import type { EmailEvent, EmailSource } from '../types.js';
import { emailSourceMatches, normalizeAddress } from './match.js';
import { parseEmail, streamOf, type RawEmail } from './parse.js';

/** Options of `runtime.dispatchEmail`. */
export interface DispatchEmailOptions {
  /** Envelope recipients (SMTP `RCPT TO`). Default: the addresses in the To and Cc headers. */
  recipients?: readonly string[];
  /** Envelope sender (SMTP `MAIL FROM`). Default: the From header's address. */
  from?: string;
  /** Retries per handler after the first attempt. Default 0: the sender's redelivery is the retry. */
  retries?: number;
  /** Most handlers of this message running at once (one per recipient and matching trigger). Default 10. */
  concurrency?: number;
  /** Largest raw message in bytes; larger ones reject with code `EMAIL_TOO_LARGE`. Default 25 MiB. */
  maxSize?: number;
  /**
   * A limit shared across messages: every handler run of this message goes
   * through it (within `concurrency`), so one pool bounds the handlers of all
   * messages at once. The SMTP ingress passes its `maxConcurrentHandlers`
   * pool. A handler that outlives `timeout + gracePeriod` keeps its slot
   * until it really ends (this message's result waits for it). Default: none.
   *
   * @example
   * ```ts
   * let running = 0; const waiting: Array<() => void> = [];
   * const within = async <T>(run: () => Promise<T>) => {
   *   if (running >= 4) await new Promise<void>((r) => waiting.push(r)); else running++;
   *   try { return await run(); } finally { const next = waiting.shift(); if (next) next(); else running--; }
   * };
   * await runtime.dispatchEmail(raw, { within });
   * ```
   */
  within?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** Default of {@link DispatchEmailOptions.concurrency}. */
export const DEFAULT_EMAIL_CONCURRENCY = 10;

/** What `runtime.dispatchEmail` delivered: one entry per recipient and matching trigger. */
export interface EmailDispatchResult {
  deliveries: Array<{ trigger: string; to: string }>;
}

/** The email triggers that take mail for `recipient`. */
export function emailTriggersFor(core: RuntimeCore, recipient: string): string[] {
  return core.registry
    .ofType('email')
    .filter((t) => emailSourceMatches(t.definition.source as EmailSource, recipient))
    .map((t) => t.name);
}

/**
 * Parses `raw` and runs every email trigger whose filter matches a recipient,
 * once per recipient, at most `concurrency` at a time. Rejects with the first
 * handler error after all have settled.
 */
export async function dispatchEmail(
  core: RuntimeCore,
  raw: RawEmail,
  options: DispatchEmailOptions = {},
): Promise<EmailDispatchResult> {
  const parsed = await parseEmail(raw, options.maxSize);
  const recipients = [...new Set((options.recipients ?? parsed.headerRecipients).map(normalizeAddress))];
  const deliveries = recipients.flatMap((to) => emailTriggersFor(core, to).map((trigger) => ({ trigger, to })));
  if (deliveries.length === 0) {
    throw new TriggerError(`No email trigger accepts mail for ${recipients.join(', ') || '(no recipients)'}`, {
      code: 'EMAIL_NO_MATCHING_TRIGGER',
      retryable: false,
      context: { recipients },
    });
  }
  const from = options.from ? normalizeAddress(options.from) : parsed.from;
  const concurrency = options.concurrency ?? DEFAULT_EMAIL_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new RangeError('dispatchEmail: concurrency must be a positive integer');
  const run = ({ trigger, to }: { trigger: string; to: string }, onAbandoned?: (settled: Promise<void>) => void) => {
    const event: EmailEvent = { from, to, ...parsed.fields, raw: streamOf(parsed.bytes) };
    return core.tracker.track(
      dispatchWithRetries(core, core.registry.get(trigger), event, {
        retries: options.retries ?? 0,
        ...(onAbandoned ? { onAbandoned } : {}),
      }),
    );
  };
  const { within } = options;
  const results = await settleWithin(concurrency, deliveries, (delivery) =>
    within
      ? // A handler past its hard cap keeps its slot of the shared pool until it really ends.
        within(async () => {
          const abandoned: Promise<void>[] = [];
          try {
            await run(delivery, (settled) => abandoned.push(settled));
          } finally {
            await Promise.all(abandoned);
          }
        })
      : run(delivery),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    core.logger.log({
      level: 'error',
      message: `email handler failed: ${messageOf(failure.reason)}`,
      error: failure.reason,
    });
    throw failure.reason;
  }
  return { deliveries };
}

/** `Promise.allSettled` over `items`, running at most `limit` of `run` at once. */
async function settleWithin<T, R>(
  limit: number,
  items: readonly T[],
  run: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { status: 'fulfilled', value: await run(items[index]!) };
      } catch (reason) {
        results[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
