/**
 * The Upstash REST form: `new Redis({url, token})` from `@upstash/redis`,
 * pointed at a tiny local HTTP server that speaks the REST protocol (`POST /`
 * one command, `POST /pipeline` and `POST /multi-exec` lists) and forwards
 * to a real Redis. The server runs commands through the node-redis requester,
 * whose flag stripping stands in for Upstash accepting `allow-key-locking`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from '@upstash/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { createLoginRateLimiter } from '../rate-limit.js';
import { createFixedWindowStorage, createSlidingWindowStorage, nodeRedisRequester } from '../rate-limit-upstash.js';

const redisUp = await serviceAvailable('redis');
const TOKEN = 'test-token';
const prefix = `test:rate-limit-rest:${randomBytes(6).toString('hex')}`;

describe.runIf(redisUp)('Upstash REST client (local REST server over real Redis)', () => {
  let client: ReturnType<typeof createClient>;
  let server: http.Server;
  let url: string;
  const paths: string[] = [];

  beforeAll(async () => {
    client = await createClient({ url: REDIS_URL }).connect();
    const requester = nodeRedisRequester(client);
    server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      paths.push(req.url ?? '');
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Unauthorized' }));
        return;
      }
      const path = (req.url ?? '/').split('/').filter(Boolean);
      const answer = await requester.request({ path, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 }))
      if (keys.length) await client.del(keys);
    await client.quit();
  });

  const rest = () => new Redis({ url, token: TOKEN, responseEncoding: false, enableTelemetry: false, retry: false });

  it.each([
    ['fixed', createFixedWindowStorage],
    ['sliding', createSlidingWindowStorage],
  ] as const)('%s window: exact counts through the REST client', async (name, make) => {
    const storage = make(rest());
    expect(storage.backend).toBe('upstash');
    const login = createLoginRateLimiter(storage, { prefix: `${prefix}:${name}`, limit: 2, window: 60 });
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push((await login.check(new Request('http://x/'), { ip: '192.0.2.1' })).success);
    expect(seen).toEqual([true, true, false, false]);
    expect((await client.keys(`${prefix}:${name}:ip:*`)).length).toBeGreaterThan(0);
    expect(paths.some((p) => p === '/' || p === '/pipeline')).toBe(true);
  });

  it('fails by policy, within the timeout, when the REST endpoint is unreachable', async () => {
    const dead = new Redis({
      url: 'http://127.0.0.1:9',
      token: TOKEN,
      responseEncoding: false,
      enableTelemetry: false,
      retry: false,
    });
    const logger = { warn: () => {}, error: () => {} };
    const closed = createLoginRateLimiter(createFixedWindowStorage(dead), { timeout: 500, logger });
    const open = createLoginRateLimiter(createFixedWindowStorage(dead), { timeout: 500, failOpen: true, logger });
    const started = performance.now();
    expect((await closed.check(new Request('http://x/'), { ip: '192.0.2.1' })).response?.status).toBe(503);
    expect((await open.check(new Request('http://x/'), { ip: '192.0.2.1' })).success).toBe(true);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
