import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import type { WebhookVerifier } from '../types.js';
import { codehostVerifier, standardWebhooksVerifier } from '../verifiers.js';
import { redisReplayStore } from './redis.js';
import { memoryReplayStore, type ReplayStore } from './store.js';

const KEY = randomBytes(24);
const SECRET = `whsec_${KEY.toString('base64')}`;

/** A Standard Webhooks request signed now. */
function standard(id: string, body = '{"type":"ping"}', path = '/hooks/std'): Request {
  const t = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', KEY).update(`${id}.${t}.${body}`).digest('base64');
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': t,
      'webhook-signature': `v1,${signature}`,
    },
  });
}

/** A GitHub-style request, with a delivery id when given. */
function github(delivery: string | undefined, path = '/hooks/gh', body = '{"zen":"hi"}'): Request {
  const signature = `sha256=${createHmac('sha256', 'gh-secret').update(body).digest('hex')}`;
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signature,
      ...(delivery ? { 'x-github-delivery': delivery } : {}),
    },
  });
}

/** A runtime with one webhook trigger per `path → verifier`; counts handler runs per path. */
function runtimeWith(hooks: Record<string, WebhookVerifier>, fail: () => boolean = () => false) {
  const runs: Record<string, number> = {};
  const triggers = Object.fromEntries(
    Object.entries(hooks).map(([path, verifier]) => [
      path.slice(1).replaceAll('/', '.'),
      defineTrigger({
        source: { type: 'webhook', path, verifier },
        handle: () => {
          runs[path] = (runs[path] ?? 0) + 1;
          if (fail()) throw new Error('downstream is down');
        },
      }),
    ]),
  );
  return { runtime: createTriggerRuntime({ env: {}, triggers }), runs };
}

describe('webhook replay protection', () => {
  it('runs each Standard Webhooks message once and answers its copies 200, for any ids and repeats', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[\x21-\x7e]{1,40}$/), { minLength: 1, maxLength: 12 }),
        async (ids) => {
          const { runtime, runs } = runtimeWith({ '/hooks/std': standardWebhooksVerifier({ secret: SECRET }) });
          const answers = [];
          for (const id of ids) answers.push(await runtime.fetch(standard(id)));
          expect(runs['/hooks/std'] ?? 0).toBe(new Set(ids).size);
          expect(answers.every((a) => a?.status === 200)).toBe(true);
          const bodies = await Promise.all(answers.map((a) => a!.json() as Promise<{ duplicate?: boolean }>));
          expect(bodies.filter((b) => b.duplicate === true)).toHaveLength(ids.length - new Set(ids).size);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('runs concurrent copies of one delivery once and answers every copy 200 once it is handled', async () => {
    const { runtime, runs } = runtimeWith({ '/hooks/std': standardWebhooksVerifier({ secret: SECRET }) });
    const answers = await Promise.all(Array.from({ length: 10 }, () => runtime.fetch(standard('msg_concurrent'))));
    expect(answers.map((a) => a!.status)).toEqual(Array(10).fill(200));
    const bodies = await Promise.all(answers.map((a) => a!.json() as Promise<{ duplicate?: boolean }>));
    expect(bodies.filter((b) => b.duplicate === true)).toHaveLength(9);
    expect(runs['/hooks/std']).toBe(1);
  });

  it('runs a copy that waited when the first attempt fails meanwhile', async () => {
    let calls = 0;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        hook: defineTrigger({
          source: { type: 'webhook', path: '/hooks/std', verifier: standardWebhooksVerifier({ secret: SECRET }) },
          handle: async () => {
            calls++;
            await new Promise((resolve) => setTimeout(resolve, 100));
            if (calls === 1) throw new Error('first attempt fails');
          },
        }),
      },
    });
    const [first, copy] = await Promise.all([
      runtime.fetch(standard('msg_flaky')),
      runtime.fetch(standard('msg_flaky')),
    ]);
    expect([first?.status, copy?.status].sort()).toEqual([200, 500]);
    expect(calls).toBe(2);
  });

  it('answers 409 with Retry-After while a crashed process still holds the claim, and runs once its lease expires', async () => {
    let now = 1_000_000;
    const store = memoryReplayStore({ now: () => now });
    let runs = 0;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        hook: defineTrigger({
          source: {
            type: 'webhook',
            path: '/hooks/std',
            verifier: standardWebhooksVerifier({ secret: SECRET, replay: store }),
          },
          config: { timeout: '200ms' },
          handle: () => void runs++,
        }),
      },
    });
    expect(await store.claim('hook:msg_crash', 60)).toBe('claimed'); // a process that claimed it, then died
    const held = await runtime.fetch(standard('msg_crash'));
    expect(held?.status).toBe(409);
    expect(held?.headers.get('retry-after')).toBe('10');
    expect(await held!.json()).toMatchObject({ error: { code: 'WEBHOOK_DELIVERY_IN_PROGRESS' } });
    now += 61_000;
    expect((await runtime.fetch(standard('msg_crash')))?.status).toBe(200);
    expect(runs).toBe(1);
  });

  it('runs a redelivery again when the first attempt failed, and skips it once one succeeded', async () => {
    let failing = true;
    const { runtime, runs } = runtimeWith(
      { '/hooks/std': standardWebhooksVerifier({ secret: SECRET }) },
      () => failing,
    );
    expect((await runtime.fetch(standard('msg_retry')))?.status).toBe(500);
    failing = false;
    expect((await runtime.fetch(standard('msg_retry')))?.status).toBe(200);
    expect(await (await runtime.fetch(standard('msg_retry')))!.json()).toEqual({ ok: true, duplicate: true });
    expect(runs['/hooks/std']).toBe(2);
  });

  it('de-duplicates GitHub deliveries by X-GitHub-Delivery, per trigger, and runs requests without one', async () => {
    const { runtime, runs } = runtimeWith({
      '/hooks/gh': codehostVerifier({ secret: 'gh-secret' }),
      '/hooks/gh2': codehostVerifier({ secret: 'gh-secret' }),
      '/hooks/off': codehostVerifier({ secret: 'gh-secret', replay: false }),
    });
    const delivery = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
    for (let i = 0; i < 3; i++) {
      expect((await runtime.fetch(github(delivery)))?.status).toBe(200);
      expect((await runtime.fetch(github(delivery, '/hooks/gh2')))?.status).toBe(200);
      expect((await runtime.fetch(github(delivery, '/hooks/off')))?.status).toBe(200);
      expect((await runtime.fetch(github(undefined)))?.status).toBe(200);
    }
    expect(runs).toEqual({ '/hooks/gh': 1 + 3, '/hooks/gh2': 1, '/hooks/off': 3 });
  });

  it('does not let an unsigned copy claim an id: a forged request is refused and the real one still runs', async () => {
    const { runtime, runs } = runtimeWith({ '/hooks/std': standardWebhooksVerifier({ secret: SECRET }) });
    const forged = standard('msg_forged');
    forged.headers.set('webhook-signature', 'v1,' + Buffer.alloc(32).toString('base64'));
    expect((await runtime.fetch(forged))?.status).toBe(401);
    expect((await runtime.fetch(standard('msg_forged')))?.status).toBe(200);
    expect(runs['/hooks/std']).toBe(1);
  });

  it('refuses an oversized or non-printable webhook-id', async () => {
    const { runtime, runs } = runtimeWith({ '/hooks/std': standardWebhooksVerifier({ secret: SECRET }) });
    expect((await runtime.fetch(standard('m'.repeat(257))))?.status).toBe(401);
    expect((await runtime.fetch(standard('msg with space')))?.status).toBe(401);
    expect(runs).toEqual({});
  });

  it('answers 503 without running the handler when the replay store fails', async () => {
    const broken: ReplayStore = {
      claim: () => Promise.reject(new Error('redis: connection refused')),
      complete: async () => {},
      release: async () => {},
    };
    const { runtime, runs } = runtimeWith({
      '/hooks/std': standardWebhooksVerifier({ secret: SECRET, replay: broken }),
    });
    const answer = await runtime.fetch(standard('msg_down'));
    expect(() =>
      standardWebhooksVerifier({
        secret: SECRET,
        replay: { claim: async () => 'claimed', release: async () => {} } as never,
      }),
    ).toThrow('replay');
    expect(answer?.status).toBe(503);
    expect(answer?.headers.get('retry-after')).toBe('30');
    expect(await answer!.json()).toMatchObject({ error: { code: 'WEBHOOK_REPLAY_STORE_UNAVAILABLE' } });
    expect(runs).toEqual({});
  });

  it('leases a claim for the handler timeout + 30 s and remembers a handled id for twice the tolerance (GitHub: replayWindow)', async () => {
    const calls: string[] = [];
    const store = memoryReplayStore();
    const spy: ReplayStore = {
      claim: (key, lease) => (calls.push(`claim ${key} ${lease}`), store.claim(key, lease)),
      complete: (key, ttl) => (calls.push(`complete ${key} ${ttl}`), store.complete(key, ttl)),
      release: (key) => (calls.push(`release ${key}`), store.release(key)),
    };
    const { runtime } = runtimeWith({
      '/hooks/std': standardWebhooksVerifier({ secret: SECRET, tolerance: 120, replay: spy }),
      '/hooks/gh': codehostVerifier({ secret: 'gh-secret', replay: spy, replayWindow: 900 }),
    });
    await runtime.fetch(standard('msg_ttl'));
    await runtime.fetch(github('delivery-ttl'));
    expect(calls).toEqual([
      'claim hooks.std:msg_ttl 60',
      'complete hooks.std:msg_ttl 240',
      'claim hooks.gh:delivery-ttl 60',
      'complete hooks.gh:delivery-ttl 900',
    ]);
  });

  it('rejects bad replay options when the verifier is created', () => {
    expect(() => standardWebhooksVerifier({ secret: SECRET, replay: {} as never })).toThrow(
      'standardWebhooksVerifier({replay})',
    );
    expect(() => codehostVerifier({ secret: 's', replayWindow: 0 })).toThrow('codehostVerifier({replayWindow})');
  });
});

describe('memoryReplayStore', () => {
  it('holds a claim for its lease, a completed key for its TTL, and forgets a released one', async () => {
    let now = 0;
    const store = memoryReplayStore({ now: () => now });
    expect(await store.claim('a', 10)).toBe('claimed');
    now = 9_999;
    expect(await store.claim('a', 10)).toBe('in-progress');
    now = 10_000;
    expect(await store.claim('a', 10)).toBe('claimed');
    await store.complete('a', 100);
    now = 109_999;
    expect(await store.claim('a', 10)).toBe('done');
    now = 110_000;
    expect(await store.claim('a', 10)).toBe('claimed');
    await store.release('a');
    expect(await store.claim('a', 10)).toBe('claimed');
  });

  it('stays within maxEntries, forgetting the oldest key first', async () => {
    const store = memoryReplayStore({ maxEntries: 3 });
    for (const key of ['a', 'b', 'c', 'd']) expect(await store.claim(key, 60)).toBe('claimed');
    expect(await store.claim('d', 60)).toBe('in-progress');
    expect(await store.claim('b', 60)).toBe('in-progress');
    expect(await store.claim('a', 60)).toBe('claimed');
    expect(() => memoryReplayStore({ maxEntries: 0 })).toThrow(RangeError);
  });
});

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe.skipIf(!redisUp)('redisReplayStore (real Redis)', () => {
  const client = createClient({ url: REDIS_URL });
  const prefix = `replay-test-${randomBytes(5).toString('hex')}:`;
  afterAll(async () => {
    if (!client.isOpen) return;
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*` })) keys.push(...batch);
    if (keys.length > 0) await client.del(keys);
    await client.quit();
  });

  it('runs a delivery once across two instances sharing Redis, with SET NX and an expiry', async () => {
    await client.connect();
    const instances = [1, 2].map(() =>
      runtimeWith({
        '/hooks/std': standardWebhooksVerifier({ secret: SECRET, replay: redisReplayStore({ client, prefix }) }),
      }),
    );
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => instances[i % 2]!.runtime.fetch(standard('msg_shared'))),
    );
    expect(answers.map((a) => a?.status)).toEqual(Array(6).fill(200));
    expect(instances.reduce((n, i) => n + (i.runs['/hooks/std'] ?? 0), 0)).toBe(1);
    for (const { runtime } of instances)
      expect(await (await runtime.fetch(standard('msg_shared')))!.json()).toEqual({ ok: true, duplicate: true });
    expect(await client.get(`${prefix}hooks.std:msg_shared`)).toBe('done');
    const ttl = await client.ttl(`${prefix}hooks.std:msg_shared`);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
  });

  it('releases a failed delivery so the redelivery runs on the other instance', async () => {
    let failing = true;
    const store = redisReplayStore({ client, prefix });
    const a = runtimeWith({ '/hooks/std': standardWebhooksVerifier({ secret: SECRET, replay: store }) }, () => failing);
    const b = runtimeWith({ '/hooks/std': standardWebhooksVerifier({ secret: SECRET, replay: store }) });
    expect((await a.runtime.fetch(standard('msg_failover')))?.status).toBe(500);
    failing = false;
    expect((await b.runtime.fetch(standard('msg_failover')))?.status).toBe(200);
    expect(await (await a.runtime.fetch(standard('msg_failover')))!.json()).toEqual({ ok: true, duplicate: true });
    expect([a.runs['/hooks/std'], b.runs['/hooks/std']]).toEqual([1, 1]);
  });

  it('refuses something that is not a Redis client', () => {
    expect(() => redisReplayStore({ client: {} as never })).toThrow(TypeError);
  });
});
