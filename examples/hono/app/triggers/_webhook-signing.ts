/**
 * The sender's side of the example webhook, for tests and for anyone posting to
 * `/webhooks/demo` from code: Standard Webhooks headers (standardwebhooks.com).
 * Files starting with `_` are not triggers (the loader skips them).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { webhookSecret } from './_webhook-secret.js';

/**
 * The Standard Webhooks key for a `WEBHOOK_SECRET`: a `whsec_<base64>` secret
 * (what Standard Webhooks senders hand out) is used as it is; any other string
 * is the key's bytes (UTF-8), so `openssl dgst -hmac "$WEBHOOK_SECRET"` signs
 * with the same key.
 */
export function demoWebhookKey(secret: string): string {
  return secret.startsWith('whsec_') ? secret : `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;
}

/** Options of {@link signDemoWebhook}. */
export interface SignDemoWebhookOptions {
  /** Default: `WEBHOOK_SECRET`, or the development secret outside production. */
  secret?: string;
  /** The delivery id (`webhook-id`). Default: a fresh `msg_<uuid>`; a retry of one delivery reuses its id. */
  id?: string;
  /** Unix seconds (`webhook-timestamp`). Default: now. */
  timestamp?: number;
}

/**
 * The headers of one delivery of `body`: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`.
 * Sign exactly the bytes sent.
 */
export function signDemoWebhook(body: string, options: SignDemoWebhookOptions = {}): Record<string, string> {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = Buffer.from(demoWebhookKey(options.secret ?? webhookSecret()).slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
