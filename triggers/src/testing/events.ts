import type {
  EmailEvent,
  ObjectStoreEvent,
  ScheduledEvent,
  SqlDbEvent,
  TailEvent,
  TailLog,
  WebhookEvent,
} from '../types.js';

/**
 * A scheduled event. Defaults: cron `'0 0 * * *'`, scheduledTime now.
 * @example
 * ```ts
 * mockScheduledEvent({ scheduledTime: new Date('2025-01-01T00:00:00Z') });
 * ```
 */
export function mockScheduledEvent(init: Partial<ScheduledEvent> = {}): ScheduledEvent {
  return { cron: '0 0 * * *', scheduledTime: new Date(), ...init };
}

/**
 * An object storage event. Defaults: bucket `'bucket'`, action `'create'`, a
 * 0-byte object `'object.txt'` uploaded now.
 * @example
 * ```ts
 * mockObjectStoreEvent({ object: { key: 'avatars/1.png', size: 2048 } });
 * ```
 */
export function mockObjectStoreEvent(
  init: Partial<Omit<ObjectStoreEvent, 'object'>> & { object?: Partial<ObjectStoreEvent['object']> } = {},
): ObjectStoreEvent {
  return {
    bucket: init.bucket ?? 'bucket',
    action: init.action ?? 'create',
    object: {
      key: 'object.txt',
      size: 0,
      etag: 'd41d8cd98f00b204e9800998ecf8427e',
      uploadedAt: new Date(),
      ...init.object,
    },
  };
}

/** Fields of a mock webhook event. `payload` is sent as JSON unless `body` is given. */
export interface MockWebhookEventInit<Payload> {
  payload?: Payload;
  body?: string;
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  verified?: boolean;
}

/**
 * A webhook event whose `request` carries the payload. Defaults: POST
 * `http://localhost/webhook`, payload `{}` as JSON, verified `true`.
 * @example
 * ```ts
 * mockWebhookEvent({ payload: { type: 'invoice.paid' }, headers: { 'x-event': 'invoice' } });
 * ```
 */
export function mockWebhookEvent<Payload = unknown>(init: MockWebhookEventInit<Payload> = {}): WebhookEvent<Payload> {
  const payload = (init.payload ?? {}) as Payload;
  const method = (init.method ?? 'POST').toUpperCase();
  const headers = new Headers(init.headers);
  if (init.body === undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const body = init.body ?? JSON.stringify(payload);
  const request = new Request(init.url ?? 'http://localhost/webhook', {
    method,
    headers,
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  });
  return { request, payload, headers, verified: init.verified ?? true };
}

/**
 * An inbound mail. Defaults: from `sender@example.com` to
 * `recipient@example.com`, subject `'Test'`, text `''`, no html, no
 * attachments; `raw` streams a minimal RFC 5322 message built from those.
 * @example
 * ```ts
 * mockEmailEvent({ subject: 'Invoice', text: 'Attached.' });
 * ```
 */
export function mockEmailEvent(init: Partial<EmailEvent> = {}): EmailEvent {
  const base = {
    from: 'sender@example.com',
    to: 'recipient@example.com',
    subject: 'Test',
    text: '' as string | null,
    html: null as string | null,
    attachments: [],
    headers: {} as Record<string, string>,
    ...init,
  };
  const source = `From: ${base.from}\r\nTo: ${base.to}\r\nSubject: ${base.subject}\r\n\r\n${base.text ?? ''}`;
  const raw =
    init.raw ??
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(source));
        controller.close();
      },
    });
  return { ...base, raw };
}

/**
 * A database change. Defaults: database `'DB'`, table `'items'`, an INSERT of
 * `{id: 1}` with primary key 1.
 * @example
 * ```ts
 * mockSqlDbEvent({ operation: 'DELETE', oldRow: { id: 7 }, newRow: null, primaryKey: 7 });
 * ```
 */
export function mockSqlDbEvent(init: Partial<SqlDbEvent> = {}): SqlDbEvent {
  return {
    database: 'DB',
    table: 'items',
    operation: 'INSERT',
    newRow: { id: 1 },
    oldRow: null,
    primaryKey: 1,
    ...init,
  };
}

/**
 * A tail event. Defaults: worker `'app'`, one `ok` log. Logs may be partial.
 * @example
 * ```ts
 * mockTailEvent({ logs: [{ outcome: 'exception', status: 500 }] });
 * ```
 */
export function mockTailEvent(init: { worker?: string; logs?: Array<Partial<TailLog>> } = {}): TailEvent {
  const logs = (init.logs ?? [{}]).map((log): TailLog => ({
    outcome: 'ok',
    logs: [],
    exceptions: [],
    timestamp: new Date(),
    durationMs: 0,
    ...log,
  }));
  return { worker: init.worker ?? 'app', logs };
}
