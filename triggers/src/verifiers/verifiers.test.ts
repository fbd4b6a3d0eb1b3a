import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  chatVerifier,
  codehostVerifier,
  commerceVerifier,
  customHmacVerifier,
  paymentVerifier,
  standardWebhooksVerifier,
  trackerVerifier,
  verifyWebhook,
  type WebhookVerifier,
} from '../verifiers.js';
import { WebhookVerificationError } from '../errors.js';

interface Vector {
  secret?: string;
  signingSecret?: string;
  body: string;
  header: string;
  expected: string;
  timestamp?: string | number;
  headers?: Record<string, string>;
  id?: string;
}
const vectors = JSON.parse(readFileSync(new URL('./vectors/webhooks.json', import.meta.url), 'utf8')) as Record<
  'codehost' | 'chat' | 'payment' | 'standardWebhooks',
  Vector
>;

const bytes = (text: string) => new TextEncoder().encode(text);
const request = (headers: Record<string, string>, body = '') =>
  new Request('https://example.com/hook', { method: 'POST', headers, body });
const at = (seconds: number) => vi.setSystemTime(new Date(seconds * 1000));

afterEach(() => {
  vi.useRealTimers();
});

/** One case per verifier: a factory, a valid signed request at a time, and what to break. */
interface Case {
  name: string;
  verifier: WebhookVerifier;
  now: number;
  headers: Record<string, string>;
  body: string;
  signatureHeader: string;
  /** A header whose value is a timestamp, to make stale. */
  stale?: (headers: Record<string, string>) => Record<string, string>;
  staleBody?: string;
}

const sign = (algorithm: string, key: string | Buffer, data: string, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac(algorithm, key).update(data).digest(encoding);

const NOW = 1_700_000_000;
const trackerBody = JSON.stringify({ action: 'create', webhookTimestamp: NOW * 1000 });
const cases: Case[] = [
  {
    name: 'payment (vector)',
    verifier: paymentVerifier({ secret: vectors.payment.secret! }),
    now: Number(vectors.payment.timestamp),
    headers: { [vectors.payment.header]: vectors.payment.expected },
    body: vectors.payment.body,
    signatureHeader: vectors.payment.header,
    stale: () => {
      const t = Number(vectors.payment.timestamp) - 301;
      return {
        'stripe-signature': `t=${t},v1=${sign('sha256', vectors.payment.secret!, `${t}.${vectors.payment.body}`)}`,
      };
    },
  },
  {
    name: 'codehost (vector)',
    verifier: codehostVerifier({ secret: vectors.codehost.secret! }),
    now: NOW,
    headers: { [vectors.codehost.header]: vectors.codehost.expected },
    body: vectors.codehost.body,
    signatureHeader: vectors.codehost.header,
  },
  {
    name: 'chat (vector)',
    verifier: chatVerifier({ signingSecret: vectors.chat.signingSecret! }),
    now: Number(vectors.chat.timestamp),
    headers: { ...vectors.chat.headers, [vectors.chat.header]: vectors.chat.expected },
    body: vectors.chat.body,
    signatureHeader: vectors.chat.header,
    stale: () => {
      const t = Number(vectors.chat.timestamp) - 301;
      return {
        'x-slack-request-timestamp': String(t),
        'x-slack-signature': `v0=${sign('sha256', vectors.chat.signingSecret!, `v0:${t}:${vectors.chat.body}`)}`,
      };
    },
  },
  {
    name: 'standardWebhooks (vector)',
    verifier: standardWebhooksVerifier({ secret: vectors.standardWebhooks.secret! }),
    now: Number(vectors.standardWebhooks.timestamp),
    headers: {
      'webhook-id': vectors.standardWebhooks.id!,
      'webhook-timestamp': String(vectors.standardWebhooks.timestamp),
      [vectors.standardWebhooks.header]: vectors.standardWebhooks.expected,
    },
    body: vectors.standardWebhooks.body,
    signatureHeader: vectors.standardWebhooks.header,
    stale: (headers) => {
      const t = Number(vectors.standardWebhooks.timestamp) - 301;
      const key = Buffer.from(vectors.standardWebhooks.secret!.slice(6), 'base64');
      const id = headers['webhook-id']!;
      return {
        'webhook-timestamp': String(t),
        'webhook-signature': `v1,${sign('sha256', key, `${id}.${t}.${vectors.standardWebhooks.body}`, 'base64')}`,
      };
    },
  },
  {
    name: 'commerce',
    verifier: commerceVerifier({ secret: 'commerce-secret' }),
    now: NOW,
    headers: { 'X-Shopify-Hmac-Sha256': sign('sha256', 'commerce-secret', '{"id":1}', 'base64') },
    body: '{"id":1}',
    signatureHeader: 'X-Shopify-Hmac-Sha256',
  },
  {
    name: 'tracker',
    verifier: trackerVerifier({ secret: 'tracker-secret' }),
    now: NOW,
    headers: { 'Linear-Signature': sign('sha256', 'tracker-secret', trackerBody) },
    body: trackerBody,
    signatureHeader: 'Linear-Signature',
    stale: () => ({}),
    staleBody: trackerBody,
  },
  {
    name: 'customHmac (sha512, base64, prefix)',
    verifier: customHmacVerifier({
      secret: 'c',
      algorithm: 'sha512',
      header: 'x-sig',
      prefix: 'sha512=',
      encoding: 'base64',
    }),
    now: NOW,
    headers: { 'x-sig': `sha512=${sign('sha512', 'c', 'payload', 'base64')}` },
    body: 'payload',
    signatureHeader: 'x-sig',
  },
];

describe.each(cases)('$name', (c) => {
  it('accepts the signed request', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(c.now);
    expect(await c.verifier(request(c.headers, c.body), bytes(c.body))).toEqual({ valid: true });
  });

  it('rejects one flipped byte of the body', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(c.now);
    const body = bytes(c.body);
    body[0] = body[0]! ^ 1;
    const result = await c.verifier(request(c.headers, c.body), body);
    expect(result.valid).toBe(false);
    expect(result.error).toBeTypeOf('string');
  });

  it('rejects a missing signature header', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(c.now);
    const headers = Object.fromEntries(Object.entries(c.headers).filter(([k]) => k !== c.signatureHeader));
    expect(await c.verifier(request(headers, c.body), bytes(c.body))).toMatchObject({
      valid: false,
      error: expect.stringMatching(/missing/),
    });
  });

  if (c.stale)
    it('rejects a stale timestamp even with a correct signature', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      at(c.staleBody ? c.now + 61 : c.now);
      const lower = (h: Record<string, string>) =>
        Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
      const headers = { ...lower(c.headers), ...lower(c.stale!(c.headers)) };
      const result = await c.verifier(request(headers, c.body), bytes(c.body));
      expect(result).toMatchObject({
        valid: false,
        error: expect.stringMatching(/outside the tolerance|more than 60s/),
      });
    });

  it('never throws on random headers and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(
            c.signatureHeader,
            'webhook-id',
            'webhook-timestamp',
            'x-slack-request-timestamp',
            'x-github-event',
          ),
          fc.string({ maxLength: 120 }),
        ),
        fc.uint8Array({ maxLength: 256 }),
        async (headers, body) => {
          const safe = Object.fromEntries(Object.entries(headers).filter(([, v]) => /^[\x20-\x7e]*$/.test(v)));
          const result = await c.verifier(request(safe), body);
          expect(result.valid).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('scheme details', () => {
  it('payment accepts any of several v1 signatures and ignores v0', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const v = vectors.payment;
    at(Number(v.timestamp));
    const good = v.expected.split('v1=')[1]!;
    const header = `t=${v.timestamp},v0=${'0'.repeat(64)},v1=${'ab'.repeat(32)},v1=${good}`;
    expect(
      await paymentVerifier({ secret: v.secret! })(request({ 'stripe-signature': header }), bytes(v.body)),
    ).toEqual({ valid: true });
    expect(
      (await paymentVerifier({ secret: 'other' })(request({ 'stripe-signature': header }), bytes(v.body))).valid,
    ).toBe(false);
  });

  it('codehost enforces the events allow-list and refuses the sha1 header', async () => {
    const v = vectors.codehost;
    const allowed = codehostVerifier({ secret: v.secret!, events: ['push'] });
    expect(await allowed(request({ [v.header]: v.expected, 'x-github-event': 'push' }), bytes(v.body))).toEqual({
      valid: true,
    });
    expect(await allowed(request({ [v.header]: v.expected, 'x-github-event': 'issues' }), bytes(v.body))).toMatchObject(
      { valid: false },
    );
    const sha1 = `sha1=${sign('sha1', v.secret!, v.body)}`;
    expect(
      (await codehostVerifier({ secret: v.secret! })(request({ 'x-hub-signature': sha1 }), bytes(v.body))).valid,
    ).toBe(false);
  });

  it('commerce also reads the unprefixed header', async () => {
    const signature = sign('sha256', 'k', 'body', 'base64');
    expect(
      await commerceVerifier({ secret: 'k' })(request({ 'shopify-hmac-sha256': signature }), bytes('body')),
    ).toEqual({ valid: true });
  });

  it('customHmac signs what getPayload returns', async () => {
    const verifier = customHmacVerifier({
      secret: 's',
      algorithm: 'sha256',
      header: 'x-sig',
      getPayload: async (req) => `${req.headers.get('x-ts')}.${await req.text()}`,
    });
    const headers = { 'x-ts': '42', 'x-sig': sign('sha256', 's', '42.hello') };
    expect(await verifier(request(headers, 'hello'), bytes('hello'))).toEqual({ valid: true });
    expect((await verifier(request({ ...headers, 'x-ts': '43' }, 'hello'), bytes('hello'))).valid).toBe(false);
  });

  it('factories reject missing secrets and bad options when created', () => {
    expect(() => paymentVerifier({ secret: '' })).toThrow(
      'paymentVerifier({secret}): expected a non-empty signing secret',
    );
    expect(() => chatVerifier({ signingSecret: 'x', tolerance: -1 })).toThrow('tolerance');
    expect(() => customHmacVerifier({ secret: 'x', algorithm: 'md5' as never, header: 'x' })).toThrow('got md5');
    expect(() => standardWebhooksVerifier({ secret: 'whsec_***' })).toThrow('base64');
  });

  it('verifyWebhook throws WebhookVerificationError on failure', async () => {
    const verifier = commerceVerifier({ secret: 'k' });
    await expect(verifyWebhook(verifier, request({ 'shopify-hmac-sha256': 'AAAA' }, 'x'))).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
    await expect(
      verifyWebhook(verifier, request({ 'shopify-hmac-sha256': sign('sha256', 'k', 'x', 'base64') }, 'x')),
    ).resolves.toBeUndefined();
  });
});
