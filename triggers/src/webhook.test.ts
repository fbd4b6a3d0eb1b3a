import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defineTrigger } from './define.js';
import { createTriggerRuntime } from './runtime/create.js';
import type { WebhookEvent } from './types.js';
import { customHmacVerifier } from './verifiers.js';

const SECRET = 'test-secret';
const sign = (body: string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

function setup(handle: (event: WebhookEvent) => void | Promise<void> = () => {}, limits = {}) {
  const events: WebhookEvent[] = [];
  const runtime = createTriggerRuntime({
    env: {},
    limits,
    triggers: {
      signed: defineTrigger({
        source: {
          type: 'webhook',
          path: '/hooks/signed',
          verifier: customHmacVerifier({
            secret: SECRET,
            algorithm: 'sha256',
            header: 'x-signature',
            prefix: 'sha256=',
          }),
        },
        handle: async (event) => {
          events.push(event);
          await handle(event);
        },
      }),
      open: defineTrigger({
        source: { type: 'webhook', path: '/hooks/open', methods: ['POST', 'PUT'] },
        handle: (event) => void events.push(event),
      }),
    },
  });
  return { runtime, events };
}

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { method: 'POST', body, headers });

describe('runtime.fetch (webhooks)', () => {
  it('returns null for paths no webhook owns, and lists routes for adapters', async () => {
    const { runtime } = setup();
    expect(await runtime.fetch(post('/elsewhere', '{}'))).toBeNull();
    expect(runtime.webhooks).toEqual([
      { path: '/hooks/signed', methods: ['POST'], trigger: 'signed' },
      { path: '/hooks/open', methods: ['POST', 'PUT'], trigger: 'open' },
    ]);
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const { runtime } = setup();
    const response = await runtime.fetch(new Request('http://localhost/hooks/open', { method: 'DELETE' }));
    expect(response?.status).toBe(405);
    expect(response?.headers.get('allow')).toBe('POST, PUT');
  });

  it('runs the handler on a verified JSON payload and answers 200 only then', async () => {
    const { runtime, events } = setup();
    const body = JSON.stringify({ hello: 'world' });
    const response = await runtime.fetch(
      post('/hooks/signed', body, { 'content-type': 'application/json', 'x-signature': sign(body) }),
    );
    expect(response?.status).toBe(200);
    const json = (await response!.json()) as { ok: boolean; traceId: string };
    expect(json.ok).toBe(true);
    expect(json.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(response?.headers.get('x-trace-id')).toBe(json.traceId);
    expect(events[0]).toMatchObject({ payload: { hello: 'world' }, verified: true });
    expect(await events[0]!.request.text()).toBe(body);
  });

  it('answers 401 WEBHOOK_VERIFICATION_FAILED and skips the handler on a bad signature', async () => {
    const { runtime, events } = setup();
    const response = await runtime.fetch(post('/hooks/signed', '{"a":1}', { 'x-signature': sign('{"a":2}') }));
    expect(response?.status).toBe(401);
    expect(await response!.json()).toMatchObject({ error: { code: 'WEBHOOK_VERIFICATION_FAILED' } });
    expect(events).toEqual([]);
  });

  it('answers 413 when the body exceeds the payload limit, streamed or declared', async () => {
    const { runtime, events } = setup(undefined, { maxWebhookPayloadBytes: 10 });
    const big = 'x'.repeat(11);
    expect((await runtime.fetch(post('/hooks/open', big)))?.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new TextEncoder().encode('abc'));
        controller.close();
      },
    });
    const streamed = new Request('http://localhost/hooks/open', {
      method: 'POST',
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect((await runtime.fetch(streamed))?.status).toBe(413);
    expect((await runtime.fetch(post('/hooks/open', 'x'.repeat(10))))?.status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('refuses bodies over 1 MiB by default, declared or streamed, before the verifier runs', async () => {
    let verified = 0;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        hook: defineTrigger({
          source: { type: 'webhook', path: '/hooks/default', verifier: async () => (verified++, { valid: true }) },
          handle: () => {},
        }),
      },
    });
    const MiB = 1024 * 1024;
    const chunked = (size: number) =>
      new Request('http://localhost/hooks/default', {
        method: 'POST',
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            for (let sent = 0; sent < size; sent += 64 * 1024)
              controller.enqueue(new Uint8Array(Math.min(64 * 1024, size - sent)));
            controller.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const over = await runtime.fetch(chunked(MiB + 1));
    expect(over?.status).toBe(413);
    expect(await over!.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: `Body exceeds ${MiB} bytes` } });
    expect((await runtime.fetch(post('/hooks/default', 'x'.repeat(MiB + 1))))?.status).toBe(413);
    expect(verified).toBe(0);
    expect((await runtime.fetch(chunked(MiB)))?.status).toBe(200);
    expect(verified).toBe(1);
  });

  it('takes a per-trigger maxBodySize, still capped by the runtime limit', async () => {
    const runtime = createTriggerRuntime({
      env: {},
      limits: { maxWebhookPayloadBytes: 20 },
      triggers: {
        small: defineTrigger({ source: { type: 'webhook', path: '/small', maxBodySize: 5 }, handle: () => {} }),
        large: defineTrigger({ source: { type: 'webhook', path: '/large', maxBodySize: 1000 }, handle: () => {} }),
      },
    });
    expect((await runtime.fetch(post('/small', '12345')))?.status).toBe(200);
    expect((await runtime.fetch(post('/small', '123456')))?.status).toBe(413);
    expect((await runtime.fetch(post('/large', 'x'.repeat(20))))?.status).toBe(200);
    expect((await runtime.fetch(post('/large', 'x'.repeat(21))))?.status).toBe(413);
  });

  it('validates maxBodySize in defineTrigger: whole bytes from 1 to 100 MB, default 1 MiB', () => {
    const source = (maxBodySize?: unknown) =>
      ({ type: 'webhook', path: '/h', ...(maxBodySize === undefined ? {} : { maxBodySize }) }) as never;
    expect(defineTrigger({ source: source(), handle: () => {} }).source).toMatchObject({ maxBodySize: 1024 * 1024 });
    expect(defineTrigger({ source: source(100 * 1024 * 1024), handle: () => {} }).source).toMatchObject({
      maxBodySize: 104_857_600,
    });
    for (const bad of [0, -1, 1.5, 100 * 1024 * 1024 + 1, '1024', Number.NaN, Infinity, null]) {
      expect(() => defineTrigger({ source: source(bad), handle: () => {} }), String(bad)).toThrow(
        /^source\.maxBodySize: expected an integer from 1 to 104857600/,
      );
    }
  });

  it('parses form and text bodies, keeps other types as bytes, and rejects broken JSON with 400', async () => {
    const { runtime, events } = setup();
    await runtime.fetch(post('/hooks/open', 'a=1&b=2&a=3', { 'content-type': 'application/x-www-form-urlencoded' }));
    await runtime.fetch(post('/hooks/open', 'plain', { 'content-type': 'text/plain; charset=utf-8' }));
    await runtime.fetch(post('/hooks/open', 'raw', { 'content-type': 'application/octet-stream' }));
    expect(events.map((e) => e.payload)).toEqual([{ a: ['1', '3'], b: '2' }, 'plain', new TextEncoder().encode('raw')]);
    expect(events.every((e) => e.verified === false)).toBe(true);
    const broken = await runtime.fetch(post('/hooks/open', '{nope', { 'content-type': 'application/json' }));
    expect(broken?.status).toBe(400);
  });

  it('answers 500 with the trace id and no stack when the handler fails, continuing an incoming traceparent', async () => {
    const { runtime } = setup(() => {
      throw new Error('database is down at /srv/app.js:12');
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const body = '{}';
    const response = await runtime.fetch(
      post('/hooks/signed', body, {
        'content-type': 'application/json',
        'x-signature': sign(body),
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      }),
    );
    expect(response?.status).toBe(500);
    const text = await response!.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: 'TRIGGER_FAILED', message: 'The webhook handler failed', traceId },
    });
    expect(text).not.toContain('/srv/app.js');
  });
});
