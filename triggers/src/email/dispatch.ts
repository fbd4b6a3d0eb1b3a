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
}

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
 * once per recipient, all at once. Rejects with the first handler error
 * after all have settled.
 */
export async function dispatchEmail(core: RuntimeCore, raw: RawEmail, options: DispatchEmailOptions = {}): Promise<EmailDispatchResult> {
  const parsed = await parseEmail(raw);
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
  const results = await Promise.allSettled(
    deliveries.map(({ trigger, to }) => {
      const event: EmailEvent = { from, to, ...parsed.fields, raw: streamOf(parsed.bytes) };
      return core.tracker.track(dispatchWithRetries(core, core.registry.get(trigger), event, { retries: options.retries ?? 0 }));
    }),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    core.logger.log({ level: 'error', message: `email handler failed: ${messageOf(failure.reason)}`, error: failure.reason });
    throw failure.reason;
  }
  return { deliveries };
}
